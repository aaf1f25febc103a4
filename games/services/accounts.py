"""Deleting an account: posts stay under "deleted user"; seats in running games leave without an exile mark; the
ratings are made again without the account."""

from django.db import transaction
from django.db.models import Q

from games.models import ActionRecord, Game, Seat

from .play import changing, play
from .ratings import recompute


def delete_account(user) -> None:
    """Sign-ups to unstarted games are withdrawn, and so is waiting for a seat in a running game (as a
    substitute, or named to take one); a living seat in a running game is exiled when the round ends (a
    substitute takes it if one waits, E5), recorded against nobody since the account is gone."""
    with transaction.atomic():
        for game_id in Seat.objects.filter(user=user, game__status=Game.Status.OPEN).values_list("game_id", flat=True):
            Game.objects.select_for_update().get(pk=game_id)  # as leave_game: never under a starting game
            Seat.objects.filter(user=user, game_id=game_id).delete()
        waiting = Q(pending=True) | Q(is_substitute=True, active=True, number__isnull=True)
        for seat in Seat.objects.filter(waiting, user=user, game__status=Game.Status.RUNNING):
            with changing(seat.game_id) as change:
                play(change, {"type": "withdraw", "name": seat.name}, ActionRecord.Source.SYSTEM)
        running = Seat.objects.filter(user=user, game__status=Game.Status.RUNNING, active=True, number__isnull=False)
        for seat in running:
            with changing(seat.game_id) as change:
                engine_seat = change.state.seats[seat.number]
                scheduled = any(entry.seat == seat.number for entry in change.state.pending)
                if engine_seat.status == "alive" and not scheduled:
                    play(change, {"type": "exile", "player": seat.name}, ActionRecord.Source.SYSTEM)
        rated = user.rating_changes.exists()
        # Every running game they ever sat in, locked before their rows go: a game ending meanwhile writes its seats,
        # then the ratings; deleting writes the ratings, then the seats; in that order, they would wait on each other.
        for game_id in sorted(set(Seat.objects.filter(user=user, game__status=Game.Status.RUNNING)
                                  .values_list("game_id", flat=True))):  # fmt: skip
            Game.objects.select_for_update().get(pk=game_id)
        user.delete()
        if rated:  # their games now count them as a newcomer each: every rating is made again without them
            recompute()
