"""The site's answer to its own faults. The database away for a moment (a restart, a failover) is not a bug: the
transaction that met it rolled back whole (a move is made entirely or not at all), so the player is asked to look
and send it again (503 with Retry-After: a move sent twice is refused the second time, for its step has moved on),
and the process reconnects by itself on the next request (CONN_HEALTH_CHECKS). The page cannot say for sure that
nothing was recorded: the database may have gone after a commit, before the answer."""

import re
import sys

from django import db
from django.http import HttpResponseServerError, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.debug import SafeExceptionReporterFilter

RETRY_AFTER_SECONDS = 30


def server_error(request):
    """handler500: a 503 when the database could not be reached or was lost mid-way, else the 500 page. Rendered
    without the request's context (its processors would ask the database again)."""
    error = sys.exc_info()[1]
    if not isinstance(error, (db.OperationalError, db.InterfaceError)):
        return HttpResponseServerError(loader.get_template("500.html").render())
    detail = _(
        "The site lost its database for a moment: what you sent may not have been recorded. Reload the page to "
        "see, and send it again in a minute if it is missing."
    )
    if request.path.startswith("/api/"):
        response = problem_response(503, _("Unavailable"), "unavailable", detail)
    else:
        page = loader.get_template("503.html").render({"detail": detail})
        response = HttpResponseServerError(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def bad_request(request, exception):
    """handler400: what Django refuses before any view (a body over DATA_UPLOAD_MAX_MEMORY_SIZE, a host not
    allowed): the page, or under /api/ a problem document as every other refusal of the API."""
    if request.path.startswith("/api/"):
        detail = _("The request is too large or malformed: nothing was changed.")
        return problem_response(400, _("Bad Request"), "invalid_request", detail)
    return defaults.bad_request(request, exception)


def problem_response(status: int, title: str, code: str, detail: str, **extensions) -> JsonResponse:
    """An RFC 9457 problem document, as the API sends its refusals (games/api/problems.py); `extensions` are its
    extension members."""
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, "code": code}
    return JsonResponse({**body, **extensions}, status=status, content_type="application/problem+json")


class ReportFilter(SafeExceptionReporterFilter):
    """What an error report (the admins' email) may show: Django's rules, and no setting whose name says URL or
    DATABASE either (REDIS_URL, CELERY_BROKER_URL, BEAT_DATABASE_URL hold passwords)."""

    hidden_settings = re.compile("API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|URL|DATABASE", flags=re.IGNORECASE)
