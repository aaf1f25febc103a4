"""Each user's participation record (E6): games played, rounds missed, exiles."""

from django.db.models import Count, Q, Sum

from games.models import Game, Seat

STARTED = (Game.Status.RUNNING, Game.Status.FINISHED, Game.Status.CANCELLED)


NO_RECORD = {"games": 0, "rounds_missed": 0, "exiles": 0}


def participation_record(user) -> dict:
    """Games played (seated in a game that started), rounds missed and exiles, over the user's history."""
    return participation_records([user.pk])[user.pk]


def participation_records(user_ids: list[int]) -> dict[int, dict]:
    """`participation_record` of each of these users, in one query (a lobby lists everyone who joined)."""
    seats = Seat.objects.filter(user_id__in=user_ids, game__status__in=STARTED, number__isnull=False)
    totals = (
        seats.order_by()
        .values("user_id")
        .annotate(  # no ordering: it would join the GROUP BY
            games=Count("game", distinct=True),
            rounds_missed=Sum("rounds_missed", default=0),
            exiles=Count("pk", filter=Q(exiled_at__isnull=False)),
        )
    )
    found = {row.pop("user_id"): row for row in totals}
    return {user_id: found.get(user_id, dict(NO_RECORD)) for user_id in user_ids}


def has_recent_exile(user, games: int) -> bool:
    """E6: was the user exiled in any of their last `games` games (by start)?"""
    recent = (
        Seat.objects.filter(user=user, game__status__in=STARTED, number__isnull=False)
        .order_by("-game__started_at")
        .values_list("exiled_at", flat=True)[:games]
    )
    return any(exiled is not None for exiled in recent)
