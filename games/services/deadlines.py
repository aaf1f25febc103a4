"""The deadline sweep: every due deadline's outcome applied exactly once, however many workers run it.

Due games are claimed with SELECT ... FOR UPDATE SKIP LOCKED inside the transaction that handles them, so two
sweeps never take the same game, a player's move and the sweep never both apply to the same step (the move
carries its step number and is refused once the step has moved on), and a worker killed mid-way rolls back
and leaves the game to the next sweep.
"""

import logging
from collections import defaultdict
from datetime import datetime, timedelta
from itertools import count, takewhile

from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from games.engine import SeatStatus
from games.models import Absence, ActionRecord, Game, Seat
from sh_site.logs import log_context

from .play import Change, announce, begin, finish, persist, play

log = logging.getLogger(__name__)

BATCH_SIZE = 100
MAX_RETRY_AFTER = timedelta(hours=1)


def sweep_due_deadlines(*, now: datetime | None = None, batch_size: int = BATCH_SIZE) -> int:
    """Apply the outcome (T4) of every deadline that has passed. Returns how many were handled.

    A game whose deadline cannot be applied is set aside with the error recorded on it, and retried after a
    back-off; it never holds up the other games.
    """
    now = now or timezone.now()
    handled = 0
    failed: set[int] = set()
    while True:
        claimed, count = _sweep_batch(now, batch_size, failed)
        handled += count
        if not claimed:
            return handled


def _sweep_batch(now: datetime, batch_size: int, failed: set[int]) -> tuple[int, int]:
    """Claim up to `batch_size` due games and handle them: (claimed, handled).

    The fast path handles and writes the whole batch in one transaction (one executemany for the games).
    Should writing fail, that transaction rolls back and each game of the batch is handled again in a
    transaction of its own, so that only the game at fault is set aside. (No savepoint on the fast path:
    rows locked by a transaction and updated inside its savepoint cost PostgreSQL a multixact each.)
    """
    claimed: list[int] = []
    try:
        with transaction.atomic():
            games = _claim(now, batch_size, failed)
            claimed = [game.pk for game in games]
            if not games:
                return 0, 0
            seats, absences = _seats_by_game(games), _absences_by_game(games)
            changes, errors = [], {}
            for game in games:
                try:
                    with log_context(game=game.pk):
                        changes.append(_handle(game, now, seats[game.pk], absences[game.pk]))
                except Exception as error:
                    errors[game.pk] = error
            persist(changes)
            _set_aside(errors, now)
            failed.update(errors)
            announce(changes)
            return len(games), len(changes)
    except Exception:
        if not claimed:
            raise
        log.exception("writing a batch of %s deadlines failed: each game is handled alone", len(claimed))
    return len(claimed), sum(_handle_alone(game_id, now, failed) for game_id in claimed)


def _claim(now: datetime, batch_size: int, failed: set[int], game_id: int | None = None) -> list[Game]:
    """Due games, locked; those another sweep holds are skipped, and so are those set aside until later."""
    due = Q(sweep_retry_at=None) | Q(sweep_retry_at__lte=now)
    games = (
        Game.objects.select_for_update(skip_locked=True)
        .filter(due, status=Game.Status.RUNNING, paused_at=None, deadline__lte=now)
        .exclude(pk__in=failed)
    )
    if game_id is not None:
        games = games.filter(pk=game_id)
    return list(games.order_by("deadline")[:batch_size])


def _handle(game: Game, now: datetime, seats: list[Seat], absences: list[Absence]) -> Change:
    change = begin(game, now, seats)
    apply_timeout(change, absences, moment=game.deadline)
    if game.sweep_failures:
        game.sweep_failures, game.sweep_error, game.sweep_retry_at = 0, "", None
    finish(change)  # here, so that a game whose next deadline cannot be computed fails alone
    return change


def _handle_alone(game_id: int, now: datetime, failed: set[int]) -> bool:
    """The slow path: one game in a transaction of its own, if it is still due (another sweep may have taken
    it since the batch rolled back). Returns whether it was handled."""
    try:
        with transaction.atomic():
            games = _claim(now, 1, failed, game_id)
            if not games:
                return False
            (game,) = games
            change = _handle(game, now, list(game.seats.all()), absences_of(game))
            persist([change])
            announce([change])
            return True
    except Exception as error:
        with transaction.atomic():
            _set_aside({game_id: error}, now)
        failed.add(game_id)
        return False


def _set_aside(errors: dict[int, Exception], now: datetime) -> None:
    """Each failed game: the error on record for the moderators, and its next try after a back-off."""
    for game_id, error in errors.items():
        log.error("the deadline of game %s could not be applied", game_id, exc_info=error, extra={"game_id": game_id})
        Game.objects.filter(pk=game_id).update(
            sweep_failures=F("sweep_failures") + 1,
            sweep_error=f"{type(error).__name__}: {error}"[:2000],
            sweep_retry_at=_next_try(now),
        )


def _next_try(now: datetime) -> Case:
    """The next try after one more failure, worked out from the count the UPDATE finds in the row: two sweeps that set
    the same game aside at once (the slow path holds no claim on it) both count, the second on top of the first."""
    backed_off = takewhile(lambda failures: retry_after(failures) < MAX_RETRY_AFTER, count(1))
    tries = [When(sweep_failures=failures - 1, then=Value(now + retry_after(failures))) for failures in backed_off]
    return Case(*tries, default=Value(now + MAX_RETRY_AFTER))


def retry_after(failures: int) -> timedelta:
    """1, 2, 4, ... minutes after each failure in a row, at most an hour: a broken game costs the sweep little,
    and one mended by a deploy is caught within the hour."""
    return min(timedelta(minutes=2 ** min(failures - 1, 10)), MAX_RETRY_AFTER)  # 2**10 minutes > the cap


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
