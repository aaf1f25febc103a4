"""Each game's rules page: the rules as this game plays them (its table size, variants and durations), in the
reader's language, linked from the game's page whatever its status."""

import json
from pathlib import Path

import pytest
from django.test import Client

from games.services import create_game
from games.services.transfer import import_script
from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
REBALANCED_SIX = SCENARIOS / "rebalanced-6-players-one-fascist-policy-on-the-board-hitler-elected-after-two-more.json"


def rules_page(game, language: str = "en") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/games/{game.pk}/rules/")
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def powers(page: str) -> list[str]:
    table = page.split("<tbody>")[1].split("</tbody>")[0]
    return [row.split("</td><td>")[1].split("</td>")[0].strip() for row in table.split("<tr><td>")[1:]]


def test_r1_r3_r20_a_five_player_game_s_rules():
    page = rules_page(running_game(5))
    assert "5 players: 3 liberals, 1 fascist and Hitler." in page
    assert "In this game Hitler knows the fascists too." in page
    assert powers(page) == ["—", "—", "Peek", "Execution", "Execution · veto unlocked", "the fascists win"]
    assert "A ballot not cast is not counted." in page and "The vote closes as soon as everyone has voted." in page
    assert "the thread is closed to players during the session" in page
    assert "The candidate has 48 hours from the start of the round to nominate" in page


def test_r3_r20_t4_a_ten_player_game_with_every_variant():
    game = create_game(
        make_user("ann"),
        player_count=10,
        hitler_blind_small=True,
        execution_vote=True,
        tracker_resets_on_election=True,
        missing_vote="nein",
        close_vote_early=False,
        quiet_legislature=False,
        nomination_timeout="random",
        power_timeout="random",
        exile_lookback_games=3,
    )
    page = rules_page(game)
    assert "10 players: 6 liberals, 3 fascists and Hitler." in page
    assert "In this game Hitler does not know who the fascists are." in page  # from 7 players, whatever the variant
    assert powers(page)[:3] == ["Investigate", "Investigate", "Special election"]
    for sentence in (
        "A ballot not cast counts as Nein.",
        "The vote stays open until its deadline, even when everyone has voted.",
        "In this game it also goes back to 0 when a government is elected.",
        "In this game players may talk in the thread during the session.",
        "every living player first votes on the execution",
        "a missing nomination is made at random among the eligible players",
        "an unused power goes to a random legal target.",
        "This game refuses players exiled in any of their last 3 games.",
    ):
        assert sentence in page, sentence


def test_r3_hitler_blind_in_a_small_game_only_with_the_variant():
    assert "Hitler does not know who the fascists are." in rules_page(running_game(5, hitler_blind_small=True))


@pytest.mark.parametrize("players", [6, 7, 9])
def test_r4_rebalanced_policies_are_said_at_6_7_and_9_players(players):
    page = rules_page(create_game(make_user("ann"), player_count=players, rebalanced=True))
    assert "In this game the policies are rebalanced for the table size" in page
    assert "with 6 players one fascist policy is on the board from the start (it grants no power)" in page


@pytest.mark.parametrize("players", [5, 8, 10])
def test_r4_rebalanced_says_nothing_where_it_changes_nothing(players):
    page = rules_page(create_game(make_user("ann"), player_count=players, rebalanced=True))
    assert "17 policies, 6 liberal and 11 fascist" in page
    assert "rebalanced for the table size" not in page


def test_r4_a_rebalanced_six_player_game_shows_its_first_fascist_policy_on_the_board():
    written = json.loads(REBALANCED_SIX.read_text())
    game = import_script({**written, "actions": []})
    assert Client().get(f"/api/v1/games/{game.pk}").json()["public"]["fascist_policies"] == 1


@pytest.mark.parametrize(("language", "sentence"), [
    ("fr", "5 joueurs"),
    ("es", "5 jugadores"),
    ("pl", "5 graczy"),
])  # fmt: skip
def test_the_rules_in_each_language(language, sentence):
    page = rules_page(running_game(5), language)
    assert f'<html lang="{language}">' in page and sentence in page


def test_every_game_page_links_to_its_rules(client):
    lobby = create_game(make_user("ann"), player_count=5)
    running = running_game(5)
    for game in (lobby, running):
        assert f'href="/games/{game.pk}/rules/"' in client.get(f"/games/{game.pk}/").content.decode()
    assert client.get("/games/999999/rules/").status_code == 404


def test_t1_a_minute_game_s_rules_page_speaks_minutes_only():
    game = create_game(make_user("ann"), player_count=5, minute_durations=True, nomination_hours=1, election_hours=3)
    page = rules_page(game)
    assert "The candidate has 1 minute from the start of the round to nominate" in page
    assert "Minutes to nominate" in page and "Minutes for an execution vote" in page
    for hours in ("hours to", "hours from", "hours for", "in exact hours"):
        assert hours not in page.lower(), hours
    assert "the days in between" not in page


def test_an_hour_game_s_settings_keep_their_hour_labels():
    page = rules_page(running_game(5))
    assert "Hours to nominate" in page and "minutes" not in page.lower()


def test_the_spanish_rules_page_calls_the_peek_by_one_name():
    game = running_game()
    page = Client(HTTP_ACCEPT_LANGUAGE="es").get(f"/games/{game.pk}/rules/").content.decode()
    assert "Vistazo" in page and "Espiar" not in page
