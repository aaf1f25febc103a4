from django.contrib import admin
from django.urls import include, path

from moderation.views import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("moderation/", include("moderation.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("games.urls")),
]
