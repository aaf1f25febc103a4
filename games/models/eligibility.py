"""Who may take a seat: games keeps these records, and the moderation app writes them (a ban bars a user from
play; a moderator's look at a running game makes them one of its secrets' witnesses)."""

from django.conf import settings
from django.db import models

from .game import Game


class PlayBar(models.Model):
    """A user may not take a seat in any game until `until`: the end of the longest ban in force."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_bar")
    until = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user_id} barred until {self.until:%Y-%m-%d}"


class SecretWitness(models.Model):
    """Someone shown a running game's secrets outside play (its moderation page, the admin): they may never take
    a seat in it (issue 9). Reading or posting in the graveyard is on the record in the forum's own rows."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="secret_witnesses")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField(help_text="the first time, once the game had started")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="secret_witness_once")]

    def __str__(self) -> str:
        return f"{self.user_id} has seen the secrets of game {self.game_id}"
