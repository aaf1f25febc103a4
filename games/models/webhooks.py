"""Webhooks: URLs told when something happens, and the outbox of their deliveries."""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .game import Game


class WebhookSubscription(models.Model):
    """A URL told of one game's public events (made by its creator or a moderator), or of its owner's own notices
    ("your move", reminders: never a role, a hand or a result)."""

    class Kind(models.TextChoices):
        GAME = "game", _("a game's public events: announcements, new posts, deadlines")
        NOTICES = "notices", _("my notices: your move and deadline reminders")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(_("URL"), max_length=2000)
    secret = models.CharField(max_length=64, help_text="the key of the deliveries' signatures, shown to the owner")
    created_at = models.DateTimeField()
    failures = models.PositiveIntegerField(default=0, help_text="deliveries abandoned in a row")
    disabled_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"  # never the URL: it is its owner's credential

    @staticmethod
    def new_secret() -> str:
        return "whsec_" + secrets.token_urlsafe(32)


class WebhookDelivery(models.Model):
    """One event to deliver to one subscription, at least once: retried with a growing delay for a day. Its key
    (sent as the idempotency key) makes the same event enqueued twice one delivery. No response body is kept."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        SENDING = "sending", _("Being sent")
        DELIVERED = "delivered", _("Delivered")
        ABANDONED = "abandoned", _("Abandoned after a day of failures")
        FAILED = "failed", _("Failed: it cannot be sent")

    subscription = models.ForeignKey(WebhookSubscription, on_delete=models.CASCADE, related_name="deliveries")
    key = models.CharField(max_length=200)
    event = models.CharField(max_length=40)
    body = models.TextField(help_text="the JSON sent, exactly as signed")
    created_at = models.DateTimeField()
    due_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PENDING)
    delivered_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True, help_text="the status or the failure, never the body")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["subscription", "key"], name="webhook_delivery_once")]
        indexes = [models.Index(fields=["status", "due_at"], name="webhook_outbox_idx")]

    def __str__(self) -> str:
        return f"{self.event} to {self.subscription_id} ({self.status})"
