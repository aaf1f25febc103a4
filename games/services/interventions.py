"""Moderators' interventions (T5, E8): pause, resume, extend, end now, excuse, exile, replace, cancel.

Each goes through the same locked change as a player's move; exile and replace take effect when the round
under way ends, as the engine applies them. The moderation app records who did what and why.
"""

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from games.models import ActionRecord

from .clock import compute_deadline, shift_anchors
from .deadlines import absences_of, apply_timeout
from .errors import GameError
from .knowledge import knows_secrets
from .play import changing, play

MODERATOR = ActionRecord.Source.MODERATOR


def pause(game_id: int, moderator, *, now: datetime | None = None) -> None:
    """T5: every deadline freezes and moves are closed; posting stays open."""
    with changing(game_id, now=now) as change:
        if change.game.paused_at is not None:
            raise GameError(_("The game is already paused."))
        change.game.paused_at = change.now


def resume(game_id: int, moderator, *, now: datetime | None = None) -> None:
    """T5: every deadline of the round moves on by the time the game was paused."""
    with changing(game_id, now=now) as change:
        game = change.game
        if game.paused_at is None:
            raise GameError(_("The game is not paused."))
        shift_anchors(game, change.now - game.paused_at)
        game.paused_at = None


def extend(game_id: int, moderator, *, hours: int, now: datetime | None = None) -> datetime:
    """T5: the current deadline, and the later deadlines of the round with it, move `hours` later."""
    if not 0 < hours <= 24 * 30:
        raise GameError(_("An extension is from 1 hour to 30 days."))
    with changing(game_id, now=now) as change:
        game, state = change.game, change.state
        before = compute_deadline(game, state)
        shift_anchors(game, timedelta(hours=hours))
        if before is None:  # paused: the anchors move, the deadline comes back on resume
            return None
        # With a deadline hour, the shifted deadline may snap back to the same hour: move on to a later one.
        while compute_deadline(game, state) < before + timedelta(hours=hours):
            shift_anchors(game, timedelta(hours=1))
        return compute_deadline(game, state)


def end_now(game_id: int, moderator, *, now: datetime | None = None) -> None:
    """T5: the current deadline passes now and its outcome applies at once."""
    with changing(game_id, now=now) as change:
        apply_timeout(change, absences_of(change.game), moment=change.now, actor=moderator)


def excuse(game_id: int, moderator, username: str, *, now: datetime | None = None) -> None:
    """E8: the player's misses in the round under way are excused."""
    with changing(game_id, now=now) as change:
        play(change, {"type": "excuse", "player": username}, MODERATOR, moderator)


def exile(game_id: int, moderator, username: str, *, now: datetime | None = None) -> None:
    """E8: the player is exiled when the round under way ends (E5 applies; recorded as in E6)."""
    with changing(game_id, now=now) as change:
        play(change, {"type": "exile", "player": username}, MODERATOR, moderator)


def replace(game_id: int, moderator, username: str, newcomer: str, *, now: datetime | None = None) -> None:
    """E8: `newcomer` (an existing account) takes the player's seat when the round ends; held against nobody."""
    account = get_user_model().objects.filter(username=newcomer).first()
    if account is None:
        raise GameError(_("There is no account named %(name)s.") % {"name": newcomer})
    with changing(game_id, now=now) as change:
        if knows_secrets(change.game, account):
            raise GameError(_("%(name)s has seen this game's secrets and cannot play in it.") % {"name": newcomer})
        play(change, {"type": "replace", "player": username, "name": newcomer}, MODERATOR, moderator)


def cancel(game_id: int, moderator, *, now: datetime | None = None) -> None:
    """E8: the game ends at once with no winner."""
    with changing(game_id, now=now) as change:
        play(change, {"type": "cancel"}, MODERATOR, moderator)
