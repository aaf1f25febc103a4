"""The deadline sweep: every due deadline's outcome applied exactly once, however many workers run it.

Due games are claimed with SELECT ... FOR UPDATE SKIP LOCKED inside the transaction that handles them, so two
sweeps never take the same game, a player's move and the sweep never both apply to the same step (the move
carries its step number and is refused once the step has moved on), and a worker killed mid-way rolls back
and leaves the game to the next sweep.
"""

import logging
from collections import defaultdict
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine import SeatStatus
from games.models import Absence, ActionRecord, Game, Seat

from .play import Change, announce, begin, finish, persist, play

log = logging.getLogger(__name__)

BATCH_SIZE = 100


def sweep_due_deadlines(*, now: datetime | None = None, batch_size: int = BATCH_SIZE) -> int:
    """Apply the outcome (T4) of every deadline that has passed. Returns how many were handled."""
    now = now or timezone.now()
    handled = 0
    failed: set[int] = set()
    while True:
        claimed, count = _sweep_batch(now, batch_size, failed)
        handled += count
        if not claimed:
            return handled


def _sweep_batch(now: datetime, batch_size: int, failed: set[int]) -> tuple[int, int]:
    """Claim up to `batch_size` due games and handle them in one transaction: (claimed, handled)."""
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update(skip_locked=True)
            .filter(status=Game.Status.RUNNING, paused_at=None, deadline__lte=now)
            .exclude(pk__in=failed)
            .order_by("deadline")[:batch_size]
        )
        if not games:
            return 0, 0
        seats = _seats_by_game(games)
        absences = _absences_by_game(games)
        changes = []
        for game in games:
            change = begin(game, now, seats[game.pk])
            try:
                apply_timeout(change, absences[game.pk], moment=game.deadline)
                finish(change)  # here, so that a game whose next deadline cannot be computed fails alone
            except Exception:
                # One broken game must not hold up the others: it is logged, left as it was, and shows as
                # overdue to the moderators.
                log.exception("the deadline of game %s could not be applied", game.pk)
                failed.add(game.pk)
                continue
            changes.append(change)
        persist(changes)
        announce(changes)
        return len(games), len(changes)


def apply_timeout(change: Change, absences: list[Absence], *, moment: datetime, actor=None) -> None:
    """The current step's deadline passes (T4). First the engine learns who was away at `moment` (E4)."""
    _sync_absences(change, absences, moment)
    source = ActionRecord.Source.MODERATOR if actor is not None else ActionRecord.Source.DEADLINE
    play(change, {"type": "timeout"}, source, actor)


def _sync_absences(change: Change, absences: list[Absence], moment: datetime) -> None:
    """E4: a miss whose deadline falls inside an announced absence is excused."""
    away_seats = {absence.seat_id for absence in absences if absence.covers(moment)}
    for engine_seat in change.state.seats:
        if engine_seat.status != SeatStatus.ALIVE:
            continue
        away = change.seat_of(engine_seat.name).pk in away_seats
        if away != engine_seat.away:
            play(change, {"type": "absence", "by": engine_seat.name, "away": away}, ActionRecord.Source.SYSTEM)


def _seats_by_game(games: list[Game]) -> dict[int, list[Seat]]:
    seats = defaultdict(list)
    for seat in Seat.objects.filter(game__in=games):
        seats[seat.game_id].append(seat)
    return seats


def _absences_by_game(games: list[Game]) -> dict[int, list[Absence]]:
    absences = defaultdict(list)
    for absence in Absence.objects.filter(seat__game__in=games, seat__active=True).select_related("seat"):
        absences[absence.seat.game_id].append(absence)
    return absences


def absences_of(game: Game) -> list[Absence]:
    return list(Absence.objects.filter(seat__game=game, seat__active=True).select_related("seat"))
