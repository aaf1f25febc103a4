"""Who may take a seat: games keeps these records, and the moderation app writes them (a ban bars a user from
play; a moderator's look at a running game makes them one of its secrets' witnesses)."""

from datetime import datetime

from django.conf import settings
from django.db import models

from .game import Game


class BanQuerySet(models.QuerySet):
    def in_force(self, now: datetime) -> "BanQuerySet":
        """The bans that bar from play at `now`: not lifted, not run out."""
        return self.filter(lifted_at=None, until__gt=now)


class Ban(models.Model):
    """A user may not take a seat in any game until `until` (or until a moderator lifts it). Made and lifted in the
    moderator panel, or changed in the admin: who may play is read from the bans in force, and from nothing else."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bans")
    until = models.DateTimeField()
    reason = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)

    objects = BanQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"ban of {self.user_id} until {self.until:%Y-%m-%d}"


class SecretWitness(models.Model):
    """Someone shown a running game's secrets outside play (its moderation page, the admin): they may never take
    a seat in it. Reading or posting in the graveyard is on the record in the forum's own rows."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="secret_witnesses")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField(help_text="the first time, once the game had started")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="secret_witness_once")]

    def __str__(self) -> str:
        return f"{self.user_id} has seen the secrets of game {self.game_id}"
