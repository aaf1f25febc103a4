"""Absences announced in advance (E4): declared by the player, no approval, within the game's limits."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

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
            raise GameError(_("Only a player seated in a running game can announce an absence."))
        if ends_at <= starts_at:
            raise GameError(_("An absence must end after it starts."))
        notice = timedelta(hours=game.absence_notice_hours)
        if starts_at < now + notice:
            raise GameError(
                _("An absence must be announced at least %(hours)s hours before it starts.")
                % {"hours": game.absence_notice_hours}
            )
        cap = timedelta(days=game.absence_max_days)
        used = sum((a.effective_end - a.starts_at for a in seat.absences.all()), timedelta())
        if used + (ends_at - starts_at) > cap:
            raise GameError(
                _("Absences in this game may last %(days)s days in all; you have %(left)s hours left.")
                % {"days": game.absence_max_days, "left": int(max(cap - used, timedelta()).total_seconds() // 3600)}
            )
        overlapping = seat.absences.filter(starts_at__lt=ends_at, ends_at__gt=starts_at, ended_early_at=None)
        if overlapping.exists():
            raise GameError(_("This absence overlaps one you have already announced."))
        absence = Absence.objects.create(seat=seat, starts_at=starts_at, ends_at=ends_at)
        notify_absence(absence, now)
        return absence


def end_absence(absence_id: int, *, now: datetime | None = None) -> Absence:
    """An absence ends now (a moderator's decision, or the player back early); one not yet begun is withdrawn."""
    now = now or timezone.now()
    with transaction.atomic():
        absence = Absence.objects.select_for_update().get(pk=absence_id)
        if absence.effective_end <= now:
            raise GameError(_("This absence is already over."))
        if absence.starts_at >= now:
            absence.delete()
        else:
            absence.ended_early_at = now
            absence.save(update_fields=["ended_early_at"])
        return absence
