"""Absences announced in advance (E4): declared by the player, no approval, within the game's limits."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.constants import SeatStatus
from games.models import Absence, Game
from games.models.game import MAX_ABSENCE_DAYS
from games.notify import notify_absence

from .errors import GameError
from .play import lock_game

MAX_AHEAD = timedelta(days=365)  # E4: an absence is announced at most a year before it starts
MAX_OFFSET = timedelta(hours=14)  # the farthest any place's clock is from UTC (Kiribati); PostgreSQL holds ±15:59


def check_dates(starts_at: datetime, ends_at: datetime, now: datetime) -> None:
    """What no game allows, whatever its settings: times without their offset or with one no place uses (Python
    takes up to ±23:59, PostgreSQL refuses more than ±15:59 in a query), an end before the start, a start more than
    a year ahead (which also keeps every date of an absence far from the calendar's end: a year 9999 with +14:00
    would be year 10000 in UTC, which neither the database nor the time zones can hold)."""
    if timezone.is_naive(starts_at) or timezone.is_naive(ends_at):
        raise GameError(_("Give times with their UTC offset (2026-12-01T18:00:00+01:00)."), code="invalid_dates")
    if any(abs(moment.utcoffset()) > MAX_OFFSET for moment in (starts_at, ends_at)):
        raise GameError(_("A UTC offset is between -14:00 and +14:00."), code="invalid_dates")
    if ends_at <= starts_at:
        raise GameError(_("An absence must end after it starts."), code="invalid_dates")
    if starts_at - now > MAX_AHEAD:  # a difference, never a conversion: it cannot overflow
        raise GameError(_("An absence may start at most a year from now."), code="absence_too_far")
    if ends_at - starts_at > timedelta(days=MAX_ABSENCE_DAYS):
        raise GameError(
            _("An absence may last at most %(days)s days.") % {"days": MAX_ABSENCE_DAYS}, code="absence_too_long"
        )


def check_absence(game: Game, seat, starts_at: datetime, ends_at: datetime, now: datetime) -> None:
    """E4 in this game: its notice, its cap on the total length, no overlap. Call with the game row locked, after
    `check_dates`."""
    if starts_at - now < timedelta(hours=game.absence_notice_hours):
        raise GameError(
            _("An absence must be announced at least %(hours)s hours before it starts.")
            % {"hours": game.absence_notice_hours},
            code="absence_too_late",
        )
    cap = timedelta(days=game.absence_max_days)
    used = sum((a.effective_end - a.starts_at for a in seat.absences.all()), timedelta())
    if used + (ends_at - starts_at) > cap:
        raise GameError(
            _("Absences in this game may last %(days)s days in all; you have %(left)s hours left.")
            % {"days": game.absence_max_days, "left": int(max(cap - used, timedelta()).total_seconds() // 3600)},
            code="absence_too_long",
        )
    overlapping = seat.absences.filter(starts_at__lt=ends_at, ends_at__gt=starts_at, ended_early_at=None)
    if overlapping.exists():
        raise GameError(_("This absence overlaps one you have already announced."), code="absence_overlaps")


def declare_absence(game_id: int, user, starts_at: datetime, ends_at: datetime, *, now: datetime | None = None):
    """E4: an absence from `starts_at` to `ends_at`, at least the game's notice ahead, within its cap."""
    now = now or timezone.now()
    check_dates(starts_at, ends_at, now)  # before any query: a date out of range never reaches the database
    with transaction.atomic():
        game = lock_game(game_id)
        seat = game.seats.filter(user=user, active=True, number__isnull=False).first()
        if game.status != Game.Status.RUNNING or seat is None:
            raise GameError(_("Only a player seated in a running game can announce an absence."), code="not_seated")
        if game.load_state().seats[seat.number].status != SeatStatus.ALIVE:
            raise GameError(
                _("You are out of play in this game: you owe no move, so there is nothing to excuse."),
                code="out_of_play",
            )
        check_absence(game, seat, starts_at, ends_at, now)
        absence = Absence.objects.create(seat=seat, starts_at=starts_at, ends_at=ends_at)
        notify_absence(absence, now)
        return absence


def end_absence(absence_id: int, *, now: datetime | None = None) -> Absence:
    """An absence ends now (a moderator's decision); one not yet begun is withdrawn."""
    return _end(Absence.objects.filter(pk=absence_id), now or timezone.now())


def withdraw_absence(absence_id: int, user, *, now: datetime | None = None) -> Absence:
    """The player's own absence: withdrawn before it starts, ended now once under way (back early)."""
    return _end(Absence.objects.filter(pk=absence_id, seat__user=user), now or timezone.now())


def _end(absences, now: datetime) -> Absence:
    game_id = absences.values_list("seat__game_id", flat=True).first()
    if game_id is None:
        raise GameError(_("There is no such absence."), code="no_such_absence")
    with transaction.atomic():
        game = lock_game(game_id)  # the sweep reads absences under this lock: never beside it
        absence = absences.select_for_update(of=("self",)).first()
        if absence is None:
            raise GameError(_("There is no such absence."), code="no_such_absence")
        if game.status != Game.Status.RUNNING:
            raise GameError(_("This game is over: its absences stay as they were."), code="game_over")
        if absence.effective_end <= now:
            raise GameError(_("This absence is already over."), code="absence_over")
        if absence.starts_at >= now:
            absence.delete()
        else:
            absence.ended_early_at = now
            absence.save(update_fields=["ended_early_at"])
        return absence


def declare_vacation(user, starts_at: datetime, ends_at: datetime, *, now: datetime | None = None) -> list[dict]:
    """One absence in each running game where the user holds a seat, each under that game's own notice and cap
    (E4): per game, the absence declared or the reason it was refused. Games are independent: a refusal in one
    changes nothing in another. Dates no game would allow are refused for all at once (GameError)."""
    now = now or timezone.now()
    check_dates(starts_at, ends_at, now)  # refused in every game alike: refused once, for all of them
    seats = user.seats.filter(game__status=Game.Status.RUNNING, active=True, number__isnull=False)
    results = []
    for game in Game.objects.filter(pk__in=seats.values("game_id")).order_by("name", "pk"):
        try:
            absence = declare_absence(game.pk, user, starts_at, ends_at, now=now)
        except GameError as error:
            results.append({"game": game, "absence": None, "refusal": str(error)})
        else:
            results.append({"game": game, "absence": absence, "refusal": ""})
    return results
