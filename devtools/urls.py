"""The benchmark's limit views, mounted only when the setting BENCH_VIEWS is on (the benchmark's own server)."""

from django.urls import path

import sh_site.converters  # noqa: F401  (the <id:...> converter)
from devtools import views

urlpatterns = [
    path("bench/write/<id:game_id>/", views.write_one_row),
    path("bench/bare/", views.bare_page),
]
