"""Per-request settings: the signed-in user's time zone and language, the Content-Security-Policy, the page fragments
written together, and the refusal of malformed addresses before any view sees them."""

import re
import uuid
from zoneinfo import ZoneInfo

from django.conf import settings
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.cache import get_conditional_response, set_response_etag
from django.utils.translation import gettext as _

from .errors import problem_response
from .logs import game_id, log_context

MAX_PATH = 2_000
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")


class RequestIds:
    """Each request's id: the proxy's X-Request-ID when it sent a sane one, else a new one; on every log line of
    the request (with the game's id when the address names a game) and sent back in X-Request-ID, so that a
    player's report ("it failed at 21:04") and the logs meet."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get("X-Request-ID", "")
        request.id = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        with log_context(request=request.id):
            token = game_id.set(None)
            try:
                response = self.get_response(request)
            finally:
                game_id.reset(token)
        response["X-Request-ID"] = request.id
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if isinstance(view_kwargs.get("game_id"), int):
            game_id.set(view_kwargs["game_id"])


MAX_QUERY_VALUE = 1_000


def fragment_writes(get_response):
    """The page fragments a request makes written to the cache together, once its response is made (one round trip
    rather than one a kind; games/fragments.py)."""

    def middleware(request):
        from games import fragments

        with fragments.written_together():
            return get_response(request)

    return middleware


def user_preferences(get_response):
    """Deadlines in the viewer's time zone, pages in their language: their profile's once they have one, else the
    zone their browser gave (a cookie the site's script sets) and the language the locale middleware chose."""

    def middleware(request):
        from games.zones import is_zone

        user = getattr(request, "user", None)
        profile = None
        if user is not None and user.is_authenticated:
            profile = getattr(user, "profile", None)  # loaded with the user (sh_site/auth.py); None if they have none
        if profile is not None:
            timezone.activate(ZoneInfo(profile.time_zone))
            translation.activate(profile.language)
            request.LANGUAGE_CODE = profile.language
        elif is_zone(request.COOKIES.get("tz", "")):
            timezone.activate(ZoneInfo(request.COOKIES["tz"]))
        try:
            return get_response(request)
        finally:
            timezone.deactivate()

    return middleware


def content_security_policy(get_response):
    """Only the site's own scripts, styles and images; no framing, no plugins, forms post home."""

    def middleware(request):
        response = get_response(request)
        response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response

    return middleware


def refuse_malformed_input(get_response):
    """An address whose path or query holds a NUL byte, or an oversize value, gets a 400 in the reader's
    language (a problem document under /api/), whatever view it was meant for: NUL is no text (PostgreSQL
    refuses it in a query) and an unbounded search is a cost for nothing (SQLite gives up on a long LIKE
    pattern). Form fields are checked by their forms."""

    def middleware(request):
        problem = _malformed(request)
        if problem is not None and request.path.startswith("/api/"):
            return problem_response(400, _("Bad Request"), "invalid_request", problem)
        if problem is not None:
            return render(request, "400.html", {"problem": problem}, status=400)
        return get_response(request)

    return middleware


def _malformed(request) -> str | None:
    if "\x00" in request.path or any("\x00" in key + value for key, value in _query(request)):
        return _("The address holds a character that is not allowed (NUL).")
    if len(request.path) > MAX_PATH or any(len(value) > MAX_QUERY_VALUE for _key, value in _query(request)):
        return _("The address is too long.")
    return None


def _query(request):
    for key, values in request.GET.lists():
        for value in values:
            yield key, value


def api_etags(get_response):
    """Every read of the API answers with an ETag (a digest of its body) and a 304, with no body, when the
    caller's If-None-Match holds it: a bridge that polls a game pays little when nothing changed. A HEAD gets the
    GET's status and headers and no body (its Content-Length is the GET's)."""

    def middleware(request):
        response = get_response(request)
        if request.method in ("GET", "HEAD") and request.path.startswith("/api/v1/") and response.status_code == 200:
            if not response.streaming and not response.has_header("ETag"):
                set_response_etag(response)
            conditional = get_conditional_response(request, etag=response.get("ETag"), response=response)
            if conditional is not None and conditional is not response:
                return conditional
        if request.method == "HEAD" and request.path.startswith("/api/") and not response.streaming:
            response["Content-Length"] = str(len(response.content))
            response.content = b""
        return response

    return middleware
