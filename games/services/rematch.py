"""Play again with the same players: a finished or cancelled game's rematch, a new lobby with its settings, to
which everyone who held a seat is invited. One rematch a game: whoever asks after the first is led to it."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game
from games.models.game import SETTINGS_FIELDS
from games.notify import notify_rematch

from .errors import GameError
from .lobby import create_game
from .play import lock_game

OVER = (Game.Status.FINISHED, Game.Status.CANCELLED)
NAME_LENGTH = Game._meta.get_field("name").max_length


def may_ask_rematch(game: Game, user) -> bool:
    """Whoever held a seat in the game (exiled and replaced players too), or made it, once it is over."""
    if game.status not in OVER or user is None or not user.is_authenticated:
        return False
    return game.created_by_id == user.pk or game.seats.filter(user=user, number__isnull=False).exists()


def rematch(game_id: int, user, *, now: datetime | None = None) -> tuple[Game, bool]:
    """The game's rematch, and whether it was made now: made by `user` (who joins it) with the game's settings and
    visibility (an unlisted one gets its own link key), everyone else who held a seat invited to join it. Nobody
    else is seated: joining stays each one's own click, with the usual checks."""
    now = now or timezone.now()
    with transaction.atomic():
        # The finished game's row is locked first: two requests at once wait here, and the second finds the first's.
        game = lock_game(game_id)
        if game.status not in OVER:
            raise GameError(_("A game can be played again only once it is over."), code="not_over")
        if not may_ask_rematch(game, user):
            raise GameError(_("Only the game's players and its creator can ask to play it again."), code="not_in_game")
        if game.rematch_id is not None:
            return game.rematch, False
        try:
            made = create_game(user, now=now, **_settings_of(game))
        except ValidationError:  # settings a game could have then and may not now
            raise GameError(
                _("This game's settings are no longer accepted for a new game: make one with the new-game form."),
                code="settings_refused",
            ) from None
        game.rematch = made
        game.save(update_fields=["rematch"])
        players = game.seats.filter(number__isnull=False, user__isnull=False).values_list("user_id", flat=True)
        notify_rematch(made, game, user, list(players), now)
        return made, True


def _settings_of(game: Game) -> dict:
    """The options create_game takes to make the game again: its name marked as a rematch, its visibility, every
    setting, each house rule by its name."""
    settings = {name: getattr(game, name) for name in SETTINGS_FIELDS if name != "house_rules"}
    return {"name": rematch_name(game.name), "visibility": game.visibility, **settings, **game.rules.to_dict()}


def rematch_name(name: str) -> str:
    """The rematch's name: the game's, marked, cut to fit the longest name a game may have."""
    marked = _("%(name)s (rematch)")
    room = NAME_LENGTH - len(marked % {"name": ""})
    return marked % {"name": name[:room].rstrip()}
