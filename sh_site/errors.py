"""The site's answer to its own faults. The database away for a moment (a restart, a failover) is not a bug: the
request that met it changed nothing (its transaction rolled back), so the player is told that and asked to try
again (503 with Retry-After), and the process reconnects by itself on the next request (CONN_HEALTH_CHECKS)."""

import sys

from django import db
from django.http import HttpResponseServerError, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _

RETRY_AFTER_SECONDS = 30


def server_error(request):
    """handler500: a 503 when the database could not be reached or was lost mid-way, else the 500 page. Rendered
    without the request's context (its processors would ask the database again)."""
    error = sys.exc_info()[1]
    if not isinstance(error, (db.OperationalError, db.InterfaceError)):
        return HttpResponseServerError(loader.get_template("500.html").render())
    detail = _("The site lost its database for a moment. Nothing was recorded: please try again in a minute.")
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {"type": "about:blank", "title": _("Unavailable"), "status": 503, "detail": detail, "code": "unavailable"},
            status=503,
            content_type="application/problem+json",
        )
    else:
        page = loader.get_template("503.html").render({"detail": detail})
        response = HttpResponseServerError(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
