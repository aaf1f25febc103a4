"""Each user's participation record (E6): games played, rounds missed, exiles."""

from django.db.models import Count, Q, Sum

from games.models import Game, Seat

STARTED = (Game.Status.RUNNING, Game.Status.FINISHED, Game.Status.CANCELLED)


def participation_record(user) -> dict:
    """Games played (seated in a game that started), rounds missed and exiles, over the user's history."""
    seats = Seat.objects.filter(user=user, game__status__in=STARTED, number__isnull=False)
    totals = seats.aggregate(
        games=Count("game", distinct=True),
        rounds_missed=Sum("rounds_missed", default=0),
        exiles=Count("pk", filter=Q(exiled_at__isnull=False)),
    )
    return totals


def has_recent_exile(user, games: int) -> bool:
    """E6: was the user exiled in any of their last `games` games (by start)?"""
    recent = (
        Seat.objects.filter(user=user, game__status__in=STARTED, number__isnull=False)
        .order_by("-game__started_at")
        .values_list("exiled_at", flat=True)[:games]
    )
    return any(exiled is not None for exiled in recent)
