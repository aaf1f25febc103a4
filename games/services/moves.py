"""Players' moves: nominate, vote, discard, enact, veto, powers. One function for every way in."""

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import ActionRecord
from games.replay import ACTION_FIELDS

from .errors import GameError
from .play import changing, play

PLAYER_MOVES = frozenset(
    {"nominate", "vote", "discard", "enact", "veto", "veto_reply", "investigate", "special_election", "execute"}
)


def make_move(game_id: int, user, move: dict, step_number: int, *, now: datetime | None = None) -> list[dict]:
    """Apply `move` (a replay action without `by`) for `user`, made for the step `step_number`.

    A move made for an earlier step, after the deadline, while the game is paused, or by someone without a
    living seat is refused with a GameError and changes nothing. Returns the public events it caused.
    """
    now = now or timezone.now()
    if move.get("type") not in PLAYER_MOVES:
        raise GameError(_("Unknown move."))
    with changing(game_id, now=now) as change:
        game = change.game
        if game.paused_at is not None:
            raise GameError(_("The game is paused: moves are closed until a moderator resumes it."))
        if step_number != game.step_number:
            raise GameError(_("The game has moved on since this page was loaded: nothing was done. Reload it."))
        if game.deadline is not None and now >= game.deadline:
            raise GameError(_("The deadline for this step has passed: its outcome is being applied."))
        seat = change.seats.get(user.get_username())
        if seat is None or not seat.active or seat.number is None:
            raise GameError(_("You do not hold a seat in this game."))
        fields = ACTION_FIELDS[move["type"]]  # only the move's own fields reach the record and the export
        kept = {key: value for key, value in move.items() if key in fields}
        return play(change, {"type": move["type"], **kept, "by": user.get_username()}, ActionRecord.Source.PLAYER, user)
