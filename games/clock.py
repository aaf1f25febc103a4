"""Deadlines (T1-T3, T5): when the waiting step's time runs out, in exact hours, optionally moved to the
game's deadline hour in its time zone."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from games.engine import GameState, Step
from games.models import Game

_POWER_STEPS = (Step.INVESTIGATE, Step.SPECIAL_ELECTION, Step.EXECUTE)


def compute_deadline(game: Game, state: GameState) -> datetime | None:
    """The deadline of the step the game waits at now; None when it waits for nothing (over, or paused)."""
    if state.over or game.paused_at is not None:
        return None
    anchor, duration = _anchor_and_duration(game, state)
    return snap_to_deadline_hour(anchor + game.duration(duration), game)


def _anchor_and_duration(game: Game, state: GameState) -> tuple[datetime, str]:
    step = state.step
    if step == Step.NOMINATE:
        return game.round_started_at, "nomination"  # T1
    if step == Step.VOTE:
        return game.round_started_at, "election"  # T1: the vote closes 7 days after the round began
    if step == Step.DISCARD:
        return game.session_started_at, "discard"  # T2
    if step == Step.ENACT:
        if state.veto_refused:
            return game.step_started_at, "veto_enact"  # T2: one more day after a refused veto
        return game.session_started_at, "legislative"  # T2: until the end of the session's second day
    if step == Step.VETO_REPLY:
        return game.step_started_at, "veto_reply"
    if step in _POWER_STEPS:
        return game.step_started_at, "power"  # T3
    return game.step_started_at, "execution_vote"  # T3


def snap_to_deadline_hour(moment: datetime, game: Game) -> datetime:
    """Move a deadline forward to the next occurrence of the game's deadline hour ("23:00 UTC"), if set."""
    if game.deadline_hour is None:
        return moment
    zone = ZoneInfo(game.time_zone)
    local = moment.astimezone(zone)
    day = local.date()
    while True:
        candidate = datetime.combine(day, time(game.deadline_hour), tzinfo=zone)
        if candidate >= local:
            return candidate
        day += timedelta(days=1)


def step_anchors_for_full_length(game: Game, state: GameState, now: datetime) -> None:
    """Set the anchors so that the current step starts now with its full default length (a vote: the five
    days that follow the nomination's two; an enactment: the session's second day)."""
    game.round_started_at = game.session_started_at = game.step_started_at = now
    if state.step == Step.VOTE:
        game.round_started_at = now - game.duration("nomination")
    elif state.step == Step.ENACT and not state.veto_refused:
        game.session_started_at = now - game.duration("discard")


def shift_anchors(game: Game, delta: timedelta) -> None:
    """T5: pausing and extending move every deadline of the round by the same time."""
    for field in ("round_started_at", "session_started_at", "step_started_at"):
        value = getattr(game, field)
        if value is not None:
            setattr(game, field, value + delta)
