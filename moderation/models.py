"""The moderators' records: the audit log, reports of posts, sign-ins (for shared-IP flags), alerts. Their bans
are kept by games (games.models.Ban), which reads them to tell who may play."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game, Post


class AuditEntry(models.Model):
    """One moderator action: who, when, what, why, and the game or user it touched. Never edited."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    actor_name = models.CharField(max_length=150, help_text="kept if the account goes")
    action = models.CharField(max_length=40)
    reason = models.TextField()
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit_entries")
    game_name = models.CharField(max_length=100, blank=True)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    target_name = models.CharField(max_length=150, blank=True)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        permissions = [("moderate", "Can moderate games and users")]

    def __str__(self) -> str:
        return f"{self.actor_name}: {self.action} ({self.created_at:%Y-%m-%d %H:%M})"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("the audit log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("the audit log is append-only")


class Report(models.Model):
    """A player's report of a post, for the moderators' queue."""

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(_("reason"), max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolution = models.TextField(blank=True)

    class Meta:
        ordering = ["resolved_at", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["post", "reporter"], name="report_once_per_post")]

    def __str__(self) -> str:
        return f"report of post {self.post_id}"


class SignIn(models.Model):
    """Where a user signed in from: two seats of one game signing in from one address are flagged; and with what
    browser, so that a sign-in from one the account never used is told to its owner."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_ins")
    ip = models.GenericIPAddressField()
    user_agent = models.CharField(max_length=500, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["ip"], name="signin_ip_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} from {self.ip}"


class HealthAlert(models.Model):
    """When the moderators were last told the sweep had stopped (one row)."""

    sent_at = models.DateTimeField()
    last_sweep_at = models.DateTimeField(null=True)

    def __str__(self) -> str:
        return f"alert sent {self.sent_at:%Y-%m-%d %H:%M}"
