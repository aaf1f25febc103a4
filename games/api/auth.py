"""Who calls the API: a personal access token (`Authorization: Bearer shp_...`), made and revoked on the profile
page and scoped `read` or `play`; public reads need none, and the session cookie is never read here. Requests per
token are limited per minute (API_REQUESTS_PER_MINUTE), counted in the database that every process shares."""

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from games.models import ApiRequestCount, ApiToken, sql
from games.services import GameError


class RateLimited(Exception):
    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after


class Anonymous:
    user = None
    scope = None


ANONYMOUS = Anonymous()


class Token(HttpBearer):
    """A personal access token; with `optional`, no Authorization header at all is an anonymous caller."""

    def __init__(self, *, optional: bool = False) -> None:
        self.optional = optional
        super().__init__()

    def __call__(self, request: HttpRequest):
        if self.optional and not request.headers.get("Authorization"):
            return ANONYMOUS
        return super().__call__(request)

    def authenticate(self, request: HttpRequest, key: str) -> ApiToken | None:
        if not key or len(key) > 200:
            return None
        token = (
            ApiToken.objects.select_related("user", "user__profile")
            .filter(digest=ApiToken.digest_of(key), revoked_at=None, user__is_active=True)
            .first()
        )
        if token is None:
            return None
        now = timezone.now()
        _count(token, now)
        if token.last_used_at is None or now - token.last_used_at >= timedelta(minutes=1):
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)  # at most once a minute
        request.user = token.user
        profile = getattr(token.user, "profile", None)
        translation.activate(profile.language if profile else settings.LANGUAGE_CODE)
        return token


def _count(token: ApiToken, now: datetime) -> None:
    """One more request in this minute, counted in one statement every process shares; 429 beyond the limit."""
    minute = int(now.timestamp() // 60)
    count = sql.count_api_request(token.pk, minute)
    if count == 1:  # a new minute: the old counts go
        ApiRequestCount.objects.filter(token=token, minute__lt=minute - 1).delete()
    if count > settings.API_REQUESTS_PER_MINUTE:
        raise RateLimited(60 - int(now.timestamp()) % 60)


READ = [Token(optional=True)]
SIGNED = [Token()]


def player(request) -> tuple[Any, ApiToken]:
    """The caller as a player: a write needs a token of the play scope."""
    token = request.auth
    if not isinstance(token, ApiToken) or token.scope != ApiToken.Scope.PLAY:
        raise GameError(_("This token may only read: make one with the play scope."), code="insufficient_scope")
    return token.user, token
