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
        WEBHOOK = "webhook", _("Webhook disabled")
        GAME_OVER = "game_over", _("Game over")
        STARTED = "game_started", _("Game started")
        SEATED = "seated", _("Seat taken over")
        REMOVED = "removed", _("Removed from a game's sign-ups")
        SETTINGS = "settings", _("Game settings changed")
        PROPOSAL = "proposal", _("Proposal of the table")
        REMATCH = "rematch", _("Invitation to a rematch")

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
    error = models.TextField(blank=True, help_text="why its email could not be built or sent, for the moderators")

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


# The outcomes of a message that carried a valid token from its person's verified address.
AUTHENTICATED = ["posted", "moved", "refused"]


class InboundEmail(models.Model):
    """A message that came in by email (a reply to a per-game email), once per person and Message-ID: a message
    delivered twice is recognised and acts once. What it was written is not kept; only what became of it.

    Only an authenticated message (a token this site signed, from the verified address of the person it names)
    claims its Message-ID for that person: a Message-ID is the sender's to choose, so a forged message must not
    take it from the genuine reply that comes after it. A dropped message is counted once per Message-ID among
    the dropped."""

    class Outcome(models.TextChoices):
        POSTED = "posted", _("Posted in the thread")
        MOVED = "moved", _("A move made")
        REFUSED = "refused", _("Refused, and the sender told why")
        AUTOMATIC = "automatic", _("Dropped: an automatic reply or a bounce")
        FORGED = "forged", _("Dropped: no reply address this site signed")
        WRONG_SENDER = "wrong_sender", _("Dropped: not from the verified address of the person it was sent to")
        OVERSIZED = "oversized", _("Dropped: too large")

    message_id = models.CharField(max_length=255, help_text="the Message-ID, or a digest of the message")
    received_at = models.DateTimeField()
    outcome = models.CharField(max_length=12, choices=Outcome.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL)
    post = models.ForeignKey("games.Post", null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["-received_at"]
        indexes = [models.Index(fields=["outcome", "received_at"], name="inbound_outcome_idx")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "message_id"],
                condition=models.Q(outcome__in=AUTHENTICATED),
                name="inbound_once_per_person",
            ),
            models.UniqueConstraint(
                fields=["message_id"], condition=~models.Q(outcome__in=AUTHENTICATED), name="inbound_dropped_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.message_id}: {self.outcome}"


class SigningKey(models.Model):
    """The fingerprint of the key the site signs its reply addresses with, in one row: a process that reads
    replies compares its own keys with it before it reads any (games.notify.signing_key). Never the key."""

    fingerprint = models.CharField(max_length=64)
    recorded_at = models.DateTimeField()

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(pk=1), name="signing_key_one_row")]

    def __str__(self) -> str:
        return f"signing key {self.fingerprint[:8]}"
