"""Notifications: the in-site list (the bell) and the email outbox, one row per thing a person is told."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .game import Game


class Notification(models.Model):
    class Kind(models.TextChoices):
        YOUR_MOVE = "your_move", _("Your move")
        REMINDER = "reminder", _("Deadline reminder")
        WARNING = "warning", _("Missed-round warning")
        EXILED = "exiled", _("Exile")
        ABSENCE = "absence", _("Absence confirmed")
        EVENT = "event", _("Game event")
        MENTION = "mention", _("Mention")

    class Email(models.TextChoices):
        NONE = "none", _("Not emailed")
        PENDING = "pending", _("Waiting to be sent")
        SENDING = "sending", _("Being sent")
        SENT = "sent", _("Sent")
        SKIPPED = "skipped", _("Not sent: no longer true")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    data = models.JSONField(default=dict)
    key = models.CharField(max_length=200, unique=True, help_text="the same notice is never made twice")
    created_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)
    email = models.CharField(max_length=8, choices=Email.choices, default=Email.NONE)
    email_due_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["email", "email_due_at"], name="notification_outbox_idx"),
            models.Index(fields=["user", "read_at"], name="notification_bell_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id} ({self.email})"


class SentEmail(models.Model):
    """A record of every email sent: to whom, what, when."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    to = models.EmailField()
    subject = models.CharField(max_length=200)
    kinds = models.CharField(max_length=200)
    notifications = models.PositiveIntegerField()
    sent_at = models.DateTimeField()

    class Meta:
        ordering = ["-sent_at"]

    def __str__(self) -> str:
        return f"{self.subject} to {self.to}"
