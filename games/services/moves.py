"""Players' moves: nominate, vote, discard, enact, veto, powers. One function for every way in."""

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.notation import MOVE_FIELDS, PLAYER_MOVES
from games.models import ActionRecord, Game, Seat

from .errors import GameError
from .play import apply_or_refuse, changing, play


def make_move(game_id: int, user, move: dict, step_number: int, *, now: datetime | None = None) -> list[dict]:
    """Apply `move` (a replay action without `by`) for `user`, made for the step `step_number`.

    A move made for an earlier step, after the deadline, while the game is paused, or by someone without a
    living seat is refused with a GameError and changes nothing. Returns the public events it caused.
    """
    now = now or timezone.now()
    with changing(game_id, now=now) as change:
        action = _action(change.game, change.seat_held_by(user), move, step_number, now)
        return play(change, action, ActionRecord.Source.PLAYER, user)


def check_move(game_id: int, user, move: dict, step_number: int, *, now: datetime | None = None) -> None:
    """Raise the GameError `make_move` would raise now, without making the move or locking anything: the
    confirmation asked before an irreversible move is not asked for a move that would be refused."""
    now = now or timezone.now()
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.RUNNING:
        raise GameError(_("This game is not running."), code="game_not_running")
    seat = game.seats.filter(user=user).first()
    action = _action(game, seat, move, step_number, now)
    apply_or_refuse(game.load_state(), action)  # a copy read for the check, never stored


def _action(game: Game, seat: Seat | None, move: dict, step_number: int, now: datetime) -> dict:
    """The replay action for a player's move made from `seat` (the mover's row, found by their account), or the
    GameError that refuses it before the rules are asked. The move is made by the name the engine knows the seat's
    holder by, whatever their user name is now."""
    if move.get("type") not in PLAYER_MOVES:
        raise GameError(_("Unknown move."), code="unknown_move")
    if game.paused_at is not None:
        raise GameError(_("The game is paused: moves are closed until a moderator resumes it."), code="game_paused")
    if step_number != game.step_number:
        raise GameError(
            _("The game has moved on since this page was loaded: nothing was done. Reload it."),
            code="stale_step",
            step_number=game.step_number,
            game_id=game.pk,
        )
    if game.deadline is not None and now >= game.deadline:
        raise GameError(
            _("The deadline for this step has passed: its outcome is being applied."), code="deadline_passed"
        )
    if seat is None or not seat.active or seat.number is None:
        raise GameError(_("You do not hold a seat in this game."), code="not_seated")
    fields = MOVE_FIELDS[move["type"]]  # only the move's own fields reach the record and the export
    kept = {key: value for key, value in move.items() if key in fields}
    return {"type": move["type"], **kept, "by": seat.name}
