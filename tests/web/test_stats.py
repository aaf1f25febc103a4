"""Issue 31: the statistics, against games made here with known outcomes: site-wide by table size and by setting,
each way of winning, rounds and chaos, the 95% interval; per player on the profile, their claims only if they show
them; the API's figures the page's; one query a page whatever the number of games; a game that ends is counted at
once; cancelled, unlisted and running games are not."""

import importlib
import json
from pathlib import Path

import pytest
from django.apps import apps
from django.test import Client

from games.engine import secret_view
from games.models import Claim, Game, Profile, Seat
from games.replay import parse_script, play
from games.services import cancel
from games.stats import wilson
from tests.factories import (
    SHARED_SCENARIOS,
    Api,
    make_user,
    played_to_the_end,
    running_game,
    script,
    token_for,
    votes,
)

pytestmark = pytest.mark.django_db
OURS = Path(__file__).resolve().parents[1] / "scenarios"
REBALANCED_SIX = OURS / "rebalanced-6-players-one-fascist-policy-on-the-board-hitler-elected-after-two-more.json"
LIBERAL_WIN = json.loads((SHARED_SCENARIOS / "liberal-policies-win.json").read_text())  # 5 players, policies
HITLER_ELECTED = json.loads((SHARED_SCENARIOS / "hitler-chancellor-after-three.json").read_text())  # 5 players


def finished(script: dict, **options) -> Game:
    from games.services.transfer import import_script

    game = import_script(script, **options)
    assert game.status == Game.Status.FINISHED
    return game


def expected(scripts: list[dict]) -> dict:
    """What the engine says of each game's end: (players, win_reason) counted, rounds, policies, chaos."""
    ends = []
    for written in scripts:
        state, error = play(parse_script(written))
        assert error is None and state.over
        chaos = sum(1 for event in state.events if event.type == "chaos")
        ends.append((len(written["players"]), state.win_reason, state.round, state.liberal_policies +
                     state.fascist_policies, chaos))  # fmt: skip
    return ends


def test_the_interval_is_wilsons():
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert wilson(0, 4)[0] == 0.0 and 0.0 < wilson(0, 4)[1] < 0.6
    assert wilson(0, 0) == (0.0, 1.0)


def test_figures_by_table_size_and_by_way_of_winning_are_the_games_own():
    scripts = [LIBERAL_WIN, HITLER_ELECTED, *(played_to_the_end(players, seed=players) for players in (5, 7, 10))]
    for written in scripts:
        finished(written)
    ends = expected(scripts)
    figures = Api(token_for("reader", "read")).get("/stats").json()
    assert figures["overall"]["games"] == len(scripts)
    for row in figures["by_table_size"]:
        mine = [end for end in ends if end[0] == row["players"]]
        assert row["games"] == len(mine)
        for way, count in row["wins_by_way"].items():
            assert count == sum(1 for end in mine if end[1] == way), (row["players"], way)
        if mine:
            assert row["average_rounds"] == pytest.approx(sum(end[2] for end in mine) / len(mine))
            assert row["chaos_share"] == pytest.approx(sum(end[4] for end in mine) / sum(end[3] for end in mine))
            liberal = sum(1 for end in mine if end[1] in ("liberal_policies", "hitler_executed", "hitler_exiled"))
            assert row["liberal_wins"] == liberal and row["liberal_win_rate"] == pytest.approx(liberal / len(mine))
            assert row["liberal_win_rate_interval"] == pytest.approx(list(wilson(liberal, len(mine))))
    five = next(row for row in figures["by_table_size"] if row["players"] == 5)
    assert five["wins_by_way"]["liberal_policies"] >= 1 and five["wins_by_way"]["hitler_elected"] >= 1


def test_each_setting_that_changes_the_balance_is_counted_by_value():
    finished(LIBERAL_WIN)
    finished({**HITLER_ELECTED, "settings": {"execution_vote": True}})
    rows = Api(token_for("reader", "read")).get("/stats").json()["by_setting"]
    votes = {row["value"]: row for row in rows if row["setting"] == "execution_vote"}
    assert votes[False]["games"] == 1 and votes[False]["liberal_wins"] == 1 and votes[False]["default"]
    assert votes[True]["games"] == 1 and votes[True]["fascist_wins"] == 1 and not votes[True]["default"]
    page = Client().get("/stats/").content.decode()
    assert "Execution" in page or "execution" in page


def test_r4_rebalanced_is_its_own_setting_counted_only_where_it_changes_the_game():
    six = json.loads(REBALANCED_SIX.read_text())
    finished(six)
    finished({**LIBERAL_WIN, "settings": {"rebalanced": True}})  # 5 players: left as it was
    rows = Api(token_for("reader", "read")).get("/stats").json()["by_setting"]
    rebalanced = {row["value"]: row for row in rows if row["setting"] == "rebalanced"}
    assert rebalanced[True]["games"] == 1 and rebalanced[True]["wins_by_way"]["hitler_elected"] == 1
    assert not rebalanced[True]["default"]
    assert rebalanced[False]["games"] == 1 and rebalanced[False]["liberal_wins"] == 1 and rebalanced[False]["default"]
    assert "Rebalanced for 6, 7 and 9 players" in Client().get("/stats/").content.decode()


def test_cancelled_unlisted_and_running_games_are_not_counted():
    finished(LIBERAL_WIN)
    finished(HITLER_ELECTED, visibility=Game.Visibility.UNLISTED)
    cancelled = running_game()
    cancel(cancelled.pk, make_user("zoe"))
    running_game()
    assert Api(token_for("reader", "read")).get("/stats").json()["overall"]["games"] == 1


def test_one_query_a_page_whatever_the_number_of_games_and_an_ended_game_counted_at_once(django_assert_num_queries):
    client = Client()
    finished(LIBERAL_WIN)
    with django_assert_num_queries(1):
        first = client.get("/stats/").content.decode()
    for seed in range(5, 11):
        finished(played_to_the_end(seed, seed=seed))
    with django_assert_num_queries(1):
        later = client.get("/stats/").content.decode()
    assert "1 game: the liberals won 1, the fascists 0." in first
    assert "7 games:" in later and first != later
    assert client.get("/").content.decode().count('href="/stats/"') == 1  # the lobby links to it


def test_r27_a_players_roles_and_wins_on_their_profile_and_claims_only_if_they_show_them():
    game = finished(LIBERAL_WIN)
    state = game.load_state()
    role = next(str(seat.role) for seat in state.seats if seat.name == "ann")
    session = next(s for s in secret_view(state)["sessions"] if s["president"] == "ann")
    assert Seat.objects.get(game=game, name="ann").role == role  # written when the game ended
    truth = "".join(session["drawn"])
    Claim.objects.create(game=game, round=session["round"], office="president", author=make_user("ann"),
                         author_name="ann", cards=truth, created_at=game.finished_at, matched=True)  # fmt: skip
    api = Api(token_for("reader", "read"))
    mine = api.get("/stats/players/ann").json()
    assert mine["games"] == 1 and mine["as_role"][role] == 1 and mine["claims"] is None
    team = "liberal" if role == "liberal" else "fascist"
    assert mine["played"][team] == 1 and mine["won"][team] == (1 if team == "liberal" else 0)
    page = Client().get("/users/ann/").content.decode()
    assert "Finished games" in page and "Claims that matched" not in page
    Profile.of(make_user("ann")).__class__.objects.filter(user__username="ann").update(show_claims=True)
    assert api.get("/stats/players/ann").json()["claims"] == {"matched": 1, "did_not_match": 0}
    assert "Claims that matched the cards drawn" in Client().get("/users/ann/").content.decode()
    assert api.get("/stats/players/nobody-here").status_code == 404


def test_every_seat_keeps_its_role_when_the_ending_change_saves_seats_too():
    """Hitler exiled by a moderator at the round's end (E8): the change that ends the game saves the exiled seat's
    row, and that save must not write over the role the game's end gave it."""
    names = ["ann", "bob", "cat", "dan", "eve"]  # cat is Hitler (tests.factories.script's roles)
    actions = [{"type": "exile", "player": "cat"}, {"type": "nominate", "by": "ann", "target": "bob"},
               *votes(*names, ballot="nein")]  # fmt: skip
    game = finished(script(actions=actions))
    assert game.win_reason == "hitler_exiled"
    roles = dict(Seat.objects.filter(game=game).values_list("name", "role"))
    assert roles == {"ann": "liberal", "bob": "fascist", "cat": "hitler", "dan": "liberal", "eve": "liberal"}
    assert Api(token_for("reader", "read")).get("/stats/players/cat").json()["as_role"]["hitler"] == 1


def test_r27_a_claim_is_matched_against_the_cards_when_the_game_ends():
    from games.services.forum import file_claim
    from games.services.transfer import import_script

    script = {**LIBERAL_WIN, "actions": LIBERAL_WIN["actions"][:-1]}  # one action short of the end
    game = import_script(script)
    state = game.load_state()
    session = secret_view(state)["sessions"][0]
    president = make_user(session["president"])
    file_claim(game.pk, president, session["round"], "".join(reversed(session["drawn"])))  # the same cards
    from games.services import make_move

    last = LIBERAL_WIN["actions"][-1]
    make_move(game.pk, make_user(last["by"]), {k: v for k, v in last.items() if k != "by"}, state.step_number)
    assert Claim.objects.get(game=game).matched is True


def test_the_migration_fills_games_that_ended_before_it():
    game = finished(LIBERAL_WIN)
    rounds, roles = game.rounds, dict(Seat.objects.filter(game=game).values_list("name", "role"))
    Game.objects.filter(pk=game.pk).update(rounds=None, policies=None, chaos_policies=None)
    Seat.objects.filter(game=game).update(role="")
    importlib.import_module("games.migrations.0020_game_results").backfill(apps, None)
    game.refresh_from_db()
    assert game.rounds == rounds and game.policies is not None and game.chaos_policies is not None
    assert dict(Seat.objects.filter(game=game).values_list("name", "role")) == roles


@pytest.mark.parametrize("name", ["%00", "a%00b", "x" * 5000, "../ann"])
def test_a_forged_player_name_is_refused_and_changes_nothing(name):
    finished(LIBERAL_WIN)
    before = Game.objects.count()
    assert Api(token_for("reader", "read")).get(f"/stats/players/{name}").status_code in (400, 404)
    assert Client().get(f"/stats/?players={name}").status_code in (200, 400)
    assert Game.objects.count() == before


def test_e5_whoever_held_a_seat_played_its_role_and_their_profile_counts_the_game():
    """bob is exiled and zoe, waiting as a substitute, takes his seat and its role (E5): when the game ends, both
    played it, and bob's profile lists the game among his finished ones."""
    names = ["ann", "bob", "cat", "dan", "eve"]  # bob is a fascist, cat Hitler (tests.factories.script's roles)
    actions = [{"type": "substitute", "name": "zoe"}, {"type": "exile", "player": "bob"},
               {"type": "nominate", "by": "ann", "target": "dan"}, *votes(*names, ballot="nein"),
               {"type": "exile", "player": "cat"}, {"type": "nominate", "by": "zoe", "target": "ann"},
               *votes("ann", "zoe", "cat", "dan", "eve", ballot="nein")]  # fmt: skip
    game = finished(script(actions=actions))
    assert game.win_reason == "hitler_exiled"
    roles = dict(Seat.objects.filter(game=game, number=1).values_list("name", "role"))
    assert roles == {"bob": "fascist", "zoe": "fascist"}
    page = Client().get("/users/bob/").content.decode()
    assert "No finished game yet." not in page
    assert Api(token_for("reader", "read")).get("/stats/players/bob").json()["as_role"]["fascist"] == 1
