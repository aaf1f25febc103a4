"""`waiting`, the seats that owe a move, is a list of seat numbers: converted from the comma-joined string it was
and back (games/migrations/0024_game_waiting_a_list.py), and written by every change of a game."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Game
from games.services import make_move
from tests.factories import START, make_user, running_game

BEFORE = [("games", "0023_bans_kept_by_games")]
AFTER = [("games", "0024_game_waiting_a_list")]


def games_at(target: list) -> type:
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps.get_model("games", "Game")


@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_the_string_into_a_list_and_back():
    owner = make_user("ann")
    old = games_at(BEFORE)
    common = {"name": "g", "created_by_id": owner.pk, "setup": {}}
    rows = [old.objects.create(waiting=text, **common).pk for text in ("", "2", "0,1,3,4")]
    new = games_at(AFTER)
    assert [new.objects.get(pk=pk).waiting for pk in rows] == [[], [2], [0, 1, 3, 4]]
    old = games_at(BEFORE)
    assert [old.objects.get(pk=pk).waiting for pk in rows] == ["", "2", "0,1,3,4"]
    games_at(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_a_move_writes_who_owes_the_next_one_as_seat_numbers():
    game = running_game()
    assert Game.objects.get(pk=game.pk).waiting == [0]  # ann, the first president, nominates
    make_move(
        game.pk, game.seats.get(number=0).user, {"type": "nominate", "target": "bob"}, game.step_number, now=START
    )
    assert Game.objects.get(pk=game.pk).waiting == [0, 1, 2, 3, 4]  # everyone votes
