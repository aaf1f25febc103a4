"""Web Push: the devices a person gets notifications on, what they want pushed and when, and the outbox of pushes.

A device is a browser's push subscription (RFC 8030): the push service's URL the browser chose, and the keys its
messages are encrypted to (RFC 8291). The URL is a credential (whoever holds it and the keys may push to the
device) and an address we POST to that anyone can choose: it is checked as webhooks' are (games.notify.webpush).
"""

import hashlib
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .game import Game


class PushDevice(models.Model):
    """One browser on one device, subscribed by its person from their notifications settings."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices")
    endpoint = models.URLField(max_length=1000, unique=True, help_text="the push service's URL for this browser")
    p256dh = models.CharField(max_length=100, help_text="the browser's public key (P-256, base64url)")
    auth = models.CharField(max_length=40, help_text="the browser's authentication secret (base64url)")
    server_key = models.CharField(
        max_length=100, help_text="the site's public key it subscribed with: a new key needs a new subscription"
    )
    browser = models.CharField(_("browser"), max_length=80, blank=True)
    created_at = models.DateTimeField(_("added"))
    last_sent_at = models.DateTimeField(_("last sent"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.browser or 'a browser'} of {self.user_id}"  # never the endpoint: a credential

    @property
    def endpoint_digest(self) -> str:
        """What a page may show of the endpoint: its SHA-256, which the browser that holds it can match."""
        return hashlib.sha256(self.endpoint.encode()).hexdigest()


class PushPreferences(models.Model):
    """What a person wants pushed, each kind off, on (held through their quiet hours) or urgent (pushed at once
    even then); and their quiet hours, in their profile's time zone."""

    class Choice(models.TextChoices):
        OFF = "off", _("off")
        ON = "on", _("on, held through quiet hours")
        URGENT = "urgent", _("on, even in quiet hours")

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_preferences")
    moves = models.CharField(_("your move"), max_length=6, choices=Choice.choices, default=Choice.ON)
    reminders = models.CharField(_("deadline reminders"), max_length=6, choices=Choice.choices, default=Choice.ON)
    warnings = models.CharField(
        _("missed-round warnings and exiles"), max_length=6, choices=Choice.choices, default=Choice.ON
    )
    mentions = models.CharField(_("mentions"), max_length=6, choices=Choice.choices, default=Choice.ON)
    endings = models.CharField(_("a game's end"), max_length=6, choices=Choice.choices, default=Choice.ON)
    quiet_from = models.TimeField(_("quiet hours from"), null=True, blank=True)
    quiet_to = models.TimeField(_("quiet hours until"), null=True, blank=True)

    KINDS = ("moves", "reminders", "warnings", "mentions", "endings")

    def __str__(self) -> str:
        return f"push preferences of {self.user_id}"

    @classmethod
    def of(cls, user_id: int) -> "PushPreferences":
        """The person's preferences, or the defaults (unsaved) if they never chose."""
        return cls.objects.filter(user_id=user_id).first() or cls(user_id=user_id)

    def quiet_until(self, now: datetime, zone: str) -> datetime | None:
        """When the quiet hours around `now` end, in `zone`; None outside them (or with none set). Hours that
        cross midnight (22:00 to 07:00) are one period."""
        if self.quiet_from is None or self.quiet_to is None or self.quiet_from == self.quiet_to:
            return None
        local = now.astimezone(ZoneInfo(zone))
        moment = local.time().replace(tzinfo=None)
        start, end = self.quiet_from, self.quiet_to
        quiet = start <= moment < end if start < end else moment >= start or moment < end
        if not quiet:
            return None
        day = local.date() if moment < end else local.date() + timedelta(days=1)
        return datetime.combine(day, end, tzinfo=local.tzinfo)


class PushMessage(models.Model):
    """One notice to push to one device, at most once: its key is the notice's. Rows of one tag due together go
    out as one push that says all of them (several games waiting: one notification)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        SENDING = "sending", _("Being sent")
        SENT = "sent", _("Sent")
        SKIPPED = "skipped", _("Not sent: no longer true")
        FAILED = "failed", _("Failed")

    device = models.ForeignKey(PushDevice, on_delete=models.CASCADE, related_name="messages")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200, help_text="the notice's key: the same notice is pushed once")
    kind = models.CharField(max_length=12, help_text="the notice's kind")
    data = models.JSONField(default=dict, help_text="the notice's data: the step, the deadline")
    tag = models.CharField(max_length=32, help_text="the notification it shows as: a newer one of a tag replaces it")
    created_at = models.DateTimeField()
    due_at = models.DateTimeField(help_text="now, or the end of the reader's quiet hours")
    claimed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["device", "key"], name="push_once_per_device")]
        indexes = [models.Index(fields=["status", "due_at"], name="push_outbox_idx")]

    def __str__(self) -> str:
        return f"{self.kind} to device {self.device_id} ({self.status})"
