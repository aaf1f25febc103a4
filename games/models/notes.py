"""A player's private notes on a game: only their author ever reads them, on the game's page or through the API."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .game import Game

# Said by the notes form and by the service (the API's callers): the names are those of Django's length validator.
NOTES_TOO_LONG = _(
    "Your notes are %(show_value)s characters long: at most %(limit_value)s are kept. Nothing was saved."
)


class Note(models.Model):
    """What one person who signed up to a game keeps for themselves about it (suspicions, claims to check). No page,
    email, webhook, export or moderator's page of anyone else reads this table; it outlives the game, and goes
    with the account."""

    MAX_BODY = 10_000  # characters: the service, the form and the API read it here

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    body = models.TextField(_("notes"))
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "author"], name="note_one_per_author")]

    def __str__(self) -> str:
        return f"notes of {self.author_id} on game {self.game_id}"
