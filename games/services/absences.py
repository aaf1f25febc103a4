"""Absences announced in advance (E4): declared by the player, no approval, within the game's limits."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.constants import SeatStatus
from games.models import Absence, Game

from .errors import GameError
from .notify import notify_absence
from .play import lock_game


def declare_absence(game_id: int, user, starts_at: datetime, ends_at: datetime, *, now: datetime | None = None):
    """E4: an absence from `starts_at` to `ends_at`, at least the game's notice ahead, within its cap."""
    now = now or timezone.now()
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
        if ends_at <= starts_at:
            raise GameError(_("An absence must end after it starts."), code="invalid_dates")
        notice = timedelta(hours=game.absence_notice_hours)
        if starts_at < now + notice:
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
    changes nothing in another."""
    now = now or timezone.now()
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
