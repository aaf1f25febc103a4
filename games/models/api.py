"""Personal access tokens of the API, and the per-token request counts its rate limit reads."""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

PREFIX = "shp_"


class ApiToken(models.Model):
    """A token its owner made on their profile page, shown once. Only its SHA-256 digest is kept: a token is
    256 random bits, so a fast digest is enough (a password hasher would cost half a second a request)."""

    class Scope(models.TextChoices):
        READ = "read", _("read: the games and your own panel")
        PLAY = "play", _("play: read, and act as you (moves, posts, claims, absences, joining)")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12, help_text="the token's first characters, to recognise it")
    scope = models.CharField(_("scope"), max_length=4, choices=Scope.choices, default=Scope.READ)
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True, help_text="written at most once a minute")
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def new_secret() -> str:
        return PREFIX + secrets.token_urlsafe(32)

    @staticmethod
    def digest_of(secret: str) -> str:
        return hashlib.sha256(secret.encode()).hexdigest()


class ApiRequestCount(models.Model):
    """Requests made with a token in one minute (the rate limit's window): counted in the database, which every
    web process shares."""

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="request_counts")
    minute = models.BigIntegerField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["token", "minute"], name="api_count_per_minute")]

    def __str__(self) -> str:
        return f"{self.count} requests in minute {self.minute}"
