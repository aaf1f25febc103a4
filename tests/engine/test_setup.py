from collections import Counter

import pytest

from games.engine import InvalidSetup, Role, new_game, player_view, summary

from .helpers import NAMES, make_game


@pytest.mark.parametrize(
    ("players", "liberals", "fascists"), [(5, 3, 1), (6, 4, 1), (7, 4, 2), (8, 5, 2), (9, 5, 3), (10, 6, 3)]
)
def test_r1_roles_dealt_by_player_count(players, liberals, fascists):
    for seed in range(20):
        g = new_game(NAMES[:players], seed=seed)
        counts = Counter(seat.role for seat in g.seats)
        assert counts == {Role.LIBERAL: liberals, Role.FASCIST: fascists, Role.HITLER: 1}


@pytest.mark.parametrize("players", [4, 11])
def test_r1_five_to_ten_players(players):
    names = [f"p{i}" for i in range(players)]
    with pytest.raises(InvalidSetup, match="5 to 10 players"):
        new_game(names)


def test_r1_roles_must_match_the_table():
    roles = dict.fromkeys(NAMES[:5], "liberal")
    roles["bob"] = "hitler"
    with pytest.raises(InvalidSetup, match="R1"):
        new_game(NAMES[:5], roles=roles)


def test_r2_party_membership_of_each_role():
    g = make_game(7)
    assert player_view(g, 0)["party"] == "liberal"
    assert player_view(g, 1)["party"] == "fascist"
    assert player_view(g, 2)["role"] == "hitler"
    assert player_view(g, 2)["party"] == "fascist"


def test_r4_deck_is_six_liberal_eleven_fascist():
    for seed in range(20):
        g = new_game(NAMES[:5], seed=seed)
        assert Counter(g.draw_pile) == {"L": 6, "F": 11}


def test_r4_a_given_deck_must_hold_the_right_cards():
    with pytest.raises(InvalidSetup, match="17 cards"):
        make_game(deck="L" * 17)


def test_r8_first_candidate_is_random_and_fixed_by_the_seed():
    firsts = {summary(new_game(NAMES[:7], seed=seed))["president"] for seed in range(40)}
    assert len(firsts) > 3
    assert summary(new_game(NAMES[:7], seed=5)) == summary(new_game(NAMES[:7], seed=5))


def test_game_starts_with_the_first_nomination():
    g = make_game(first="cat")
    s = summary(g)
    assert (s["round"], s["step"], s["waiting_for"], s["president"]) == (1, "nominate", ["cat"], "cat")
    assert s["draw_pile"] == 17
    assert g.events[0].type == "game_started"


def test_names_must_be_distinct():
    with pytest.raises(InvalidSetup, match="distinct"):
        new_game(["a", "a", "b", "c", "d"])
