"""A URL configuration for tests/web/test_errors.py: views that fail as a database outage makes them fail."""

from django import db
from django.urls import path

from sh_site.urls import handler500, urlpatterns


def database_gone(request):
    raise db.OperationalError("terminating connection due to administrator command")


def bug(request):
    raise ValueError("a bug")


urlpatterns = [path("boom/", database_gone), path("api/v1/boom", database_gone), path("bug/", bug), *urlpatterns]
__all__ = ["handler500", "urlpatterns"]
