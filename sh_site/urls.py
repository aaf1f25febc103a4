from django.conf import settings
from django.contrib import admin
from django.urls import include, path

import sh_site.converters  # noqa: F401  (the <id:...> converter)
from games.api import api
from games.views.inbound import inbound_webhook
from moderation.views import healthz
from sh_site.accounts import sign_out
from sh_site.metrics import metrics

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/logout/", sign_out, name="account_logout"),  # allauth's, with Clear-Site-Data
    path("accounts/", include("allauth.urls")),
    path("moderation/", include("moderation.urls")),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),
    path("inbound/<str:service>/", inbound_webhook, name="inbound_webhook"),
    path("api/v1/", api.urls),
    path("", include("games.urls")),
]
if settings.BENCH_VIEWS:  # the load benchmarks' own server only (devtools/urls.py)
    urlpatterns.append(path("", include("devtools.urls")))

handler400 = "sh_site.errors.bad_request"
handler500 = "sh_site.errors.server_error"
