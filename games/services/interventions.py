"""Moderators' interventions (T5, E8): pause, resume, extend, end now, excuse, exile, replace, cancel, and locking
or unlocking the game thread.

Each goes through the same locked change as a player's move; exile and replace take effect when the round
under way ends, as the engine applies them. What the engine does not announce itself, the verb writes in the
change as a `moderator_action` event, so that it reaches every channel as a move's events do (the game's log has
no other writer). The moderation app records who did what and why.

Every verb takes `step`, the step number of the page the moderator acted from: a click that lands after the
game has moved on (the sweep handled the deadline, another moderator acted) is refused and changes nothing,
as a player's stale move is. `step=None` skips the check (the shell, scripts). Each verb returns whether it
changed anything, so that a repeated click writes no second record.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from games.clock import compute_deadline, shift_anchors
from games.engine import GameState
from games.engine.events import ModeratorAction
from games.models import ActionRecord, Game

from .deadlines import absences_of, apply_timeout
from .errors import GameError
from .knowledge import knows_secrets
from .play import Change, changing, play, record_announcement

MODERATOR = ActionRecord.Source.MODERATOR
# The furthest a moderator may put a deadline: beyond the longest step a game may set (60 days), and short of
# anything a date can overflow, however many extensions pile up.
DEADLINE_HORIZON_DAYS = 90


def pause(game_id: int, moderator, *, step: int | None = None, now: datetime | None = None) -> bool:
    """T5: every deadline freezes and moves are closed; posting stays open."""
    with _changing(game_id, step, now) as change:
        return pause_game(change, ModeratorAction(action="pause"))


def pause_game(change: Change, entry: ModeratorAction) -> bool:
    """`pause` inside a change already under way (the table's vote), announced as `entry` says."""
    if change.game.paused_at is not None:
        return False
    change.game.paused_at = change.now
    record_announcement(change, entry)
    return True


def resume(game_id: int, moderator, *, step: int | None = None, now: datetime | None = None) -> bool:
    """T5: every deadline of the round moves on by the time the game was paused; with a deadline hour, the
    deadline is the first one that gives back at least all of that time."""
    with _changing(game_id, step, now) as change:
        return resume_game(change, ModeratorAction(action="resume"))


def resume_game(change: Change, entry: ModeratorAction) -> bool:
    """`resume` inside a change already under way (the table's vote), announced as `entry` says."""
    game = change.game
    if game.paused_at is None:
        return False
    paused_for = change.now - game.paused_at
    game.paused_at = None
    _postpone(game, change.state, paused_for)
    record_announcement(change, entry)
    return True


def extend(
    game_id: int,
    moderator,
    *,
    hours: int,
    step: int | None = None,
    seen_deadline: datetime | None = None,
    now: datetime | None = None,
) -> datetime | None:
    """T5: the current deadline, and the later deadlines of the round with it, move `hours` later. Returns the new
    deadline; None while the game is paused, which has no deadline until it resumes.

    `seen_deadline`, the deadline the moderator's page showed, makes a repeated click harmless: once the first
    has moved the deadline, the second no longer matches and is refused.
    """
    if not 0 < hours <= 24 * 30:
        raise GameError(_("An extension is from 1 hour to 30 days."), code="out_of_range")
    with _changing(game_id, step, now) as change:
        game = change.game
        if seen_deadline is not None and seen_deadline != compute_deadline(game, change.state):
            raise GameError(
                _("The deadline has changed since this page was loaded: nothing was done. Look again before acting."),
                code="stale_deadline",
            )
        return extend_deadline(change, ModeratorAction(action="extend", hours=hours))


def extend_deadline(change: Change, entry: ModeratorAction) -> datetime | None:
    """`extend` by `entry.hours` inside a change already under way (the table's vote), announced as `entry` says."""
    game, hours = change.game, entry.hours
    record_announcement(change, entry)
    if game.paused_at is not None:  # the anchors move; the deadline comes back on resume
        shift_anchors(game, timedelta(hours=hours))
        check_deadline(_deadline_on_resume(game, change.state, change.now), change.now)
        return None
    _postpone(game, change.state, timedelta(hours=hours))
    deadline = compute_deadline(game, change.state)
    check_deadline(deadline, change.now)
    return deadline


def check_deadline(deadline: datetime | None, now: datetime) -> None:
    """A deadline a moderator sets lies at most DEADLINE_HORIZON_DAYS ahead (an extension only ever moves it
    later, so it is never in the past). Raised inside the change, it rolls the change back."""
    if deadline is not None and deadline - now > timedelta(days=DEADLINE_HORIZON_DAYS):
        raise GameError(
            _("A deadline may be at most %(days)s days from now: nothing was done.") % {"days": DEADLINE_HORIZON_DAYS},
            code="deadline_too_far",
        )


def _deadline_on_resume(game: Game, state: GameState, now: datetime) -> datetime | None:
    """The deadline a paused game would have if it were resumed now (every deadline moves on by the pause)."""
    paused_at, game.paused_at = game.paused_at, None
    try:
        deadline = compute_deadline(game, state)
    finally:
        game.paused_at = paused_at
    return None if deadline is None else deadline + (now - paused_at)


def _postpone(game: Game, state: GameState, delta: timedelta) -> None:
    """Move every deadline of the round `delta` later. With a deadline hour, shifting the anchors may snap the
    deadline back to an earlier occurrence of the hour: move on until it is at least `delta` later."""
    before = compute_deadline(game, state)
    shift_anchors(game, delta)
    if before is None:
        return
    while compute_deadline(game, state) < before + delta:
        shift_anchors(game, timedelta(hours=1))


def end_now(game_id: int, moderator, *, step: int | None = None, now: datetime | None = None) -> bool:
    """T5: the current deadline passes now and its outcome applies at once. The thread says so first, then the
    outcome (announced as the deadline's, T4)."""
    with _changing(game_id, step, now) as change:
        record_announcement(change, ModeratorAction(action="end_now"))
        apply_timeout(change, absences_of(change.game), moment=change.now, actor=moderator)
        return True


def excuse(game_id: int, moderator, username: str, *, step: int | None = None, now: datetime | None = None) -> bool:
    """E8: the player's misses in the round under way are excused."""
    with _changing(game_id, step, now) as change:
        seat = next((seat for seat in change.state.seats if seat.name == username), None)
        if seat is not None and seat.excused:
            return False
        play(change, {"type": "excuse", "player": username}, MODERATOR, moderator)
        return True


def exile(game_id: int, moderator, username: str, *, step: int | None = None, now: datetime | None = None) -> bool:
    """E8: the player is exiled when the round under way ends (E5 applies; recorded as in E6)."""
    with _changing(game_id, step, now) as change:
        if _scheduled(change, "exile", username, None):
            return False
        play(change, {"type": "exile", "player": username}, MODERATOR, moderator)
        return True


def replace(
    game_id: int, moderator, username: str, newcomer: str, *, step: int | None = None, now: datetime | None = None
) -> bool:
    """E8: `newcomer` (an existing account) takes the player's seat when the round ends; held against nobody.

    The newcomer may be a substitute waiting for a seat (E5): they stop waiting for the next exile and their row
    becomes the seat's, under the name they joined with."""
    account = get_user_model().objects.filter(username=newcomer).first()
    if account is None:
        raise GameError(_("There is no account named %(name)s.") % {"name": newcomer}, code="no_such_account")
    with _changing(game_id, step, now) as change:
        held = change.seat_held_by(account)  # under the name they joined with, if renamed since
        name = newcomer if held is None else held.name
        if _scheduled(change, "replace", username, name):
            return False
        waiting = held is not None and held.name in change.state.substitutes
        if held is not None and not waiting:
            raise GameError(_("%(name)s is already in this game.") % {"name": newcomer}, code="name_taken")
        if knows_secrets(change.game, account):
            raise GameError(
                _("%(name)s has seen this game's secrets and cannot play in it.") % {"name": newcomer},
                code="saw_secrets",
            )
        if waiting:  # the replay notation names a new person in a replacement: the substitute leaves the list first
            play(change, {"type": "withdraw", "name": name}, MODERATOR, moderator)
        else:
            change.newcomers[name] = account
        play(change, {"type": "replace", "player": username, "name": name}, MODERATOR, moderator)
        return True


def cancel(game_id: int, moderator, *, step: int | None = None, now: datetime | None = None) -> bool:
    """E8: the game ends at once with no winner."""
    with _changing(game_id, step, now) as change:
        play(change, {"type": "cancel"}, MODERATOR, moderator)
        return True


def lock_thread(game_id: int, moderator, *, step: int | None = None, now: datetime | None = None) -> bool:
    """Players may no longer post in the game thread (moves stay open)."""
    return _set_thread_locked(game_id, True, step, now)


def unlock_thread(game_id: int, moderator, *, step: int | None = None, now: datetime | None = None) -> bool:
    return _set_thread_locked(game_id, False, step, now)


def _set_thread_locked(game_id: int, locked: bool, step: int | None, now: datetime | None) -> bool:
    with _changing(game_id, step, now) as change:
        if change.game.thread_locked == locked:
            return False
        change.game.thread_locked = locked
        record_announcement(change, ModeratorAction(action="thread_locked" if locked else "thread_unlocked"))
        return True


@contextmanager
def _changing(game_id: int, step: int | None, now: datetime | None) -> Iterator[Change]:
    with changing(game_id, now=now) as change:
        if step is not None and step != change.game.step_number:
            raise GameError(
                _("The game has moved on since this page was loaded: nothing was done. Look again before acting."),
                code="stale_step",
                step_number=change.game.step_number,
                game_id=change.game.pk,
            )
        yield change


def _scheduled(change: Change, kind: str, username: str, newcomer: str | None) -> bool:
    """Is exactly this exile or replacement already waiting for the round's end (a repeated click)?"""
    state = change.state
    return any(
        entry.kind == kind and state.seats[entry.seat].name == username and entry.name == newcomer
        for entry in state.pending
    )
