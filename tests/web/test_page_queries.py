"""Pages cost the same number of queries however many games, players and posts there are (issue 14): the lobby as
games are added, a player's page (the thread with their panel) as players and moves are added."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.services import create_game
from tests.factories import governments, make_user, running_game

pytestmark = pytest.mark.django_db


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_lobby_costs_the_same_with_more_games(client_for):
    reader = client_for("zed")
    owner = make_user("owner")

    def lobby_with(count: int) -> int:
        for _ in range(count):
            create_game(owner, player_count=7)
            running_game()
        return queries(reader, "/")

    assert lobby_with(3) == lobby_with(15)


def test_a_players_page_costs_the_same_with_more_players_and_moves(client_for):
    small = running_game(5)
    large = running_game(7, actions=governments(("ann", "bob"), ("bob", "cat"), players=7))
    ann = client_for("ann")
    queries(ann, f"/games/{small.pk}/")  # the first visit makes the read marker
    queries(ann, f"/games/{large.pk}/")
    assert queries(ann, f"/games/{small.pk}/") == queries(ann, f"/games/{large.pk}/")
