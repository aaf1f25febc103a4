"""The house rule `rebalanced` (R4, R16, R20): at 6 players a fascist policy is on the board from the start, at 7 the
deck holds one fascist policy fewer, at 9 two fewer; at 5, 8 and 10 players it changes nothing."""

from collections import Counter

import pytest

from games.engine import InvalidSetup, Settings, new_game, summary
from games.replay import replay_script

from .helpers import NAMES, act, elect, govern, make_game, state

REBALANCED = Settings(rebalanced=True)
SIX = "FFFFFL" + "LLLLL" + "FFFFF"  # 6 liberal and 10 fascist policies, top first


@pytest.mark.parametrize(("players", "cards", "enacted"), [(6, {"L": 6, "F": 10}, 1), (7, {"L": 6, "F": 10}, 0),
                                                           (9, {"L": 6, "F": 9}, 0)])  # fmt: skip
def test_r4_rebalanced_deck_and_board_at_6_7_and_9_players(players, cards, enacted):
    for seed in range(10):
        g = new_game(NAMES[:players], seed=seed, settings=REBALANCED)
        assert Counter(g.draw_pile) == cards
        assert summary(g)["fascist_policies"] == enacted
        assert summary(g)["liberal_policies"] == 0


@pytest.mark.parametrize("players", [5, 8, 10])
def test_r4_rebalanced_changes_nothing_at_5_8_and_10_players(players):
    for seed in range(10):
        rebalanced = new_game(NAMES[:players], seed=seed, settings=REBALANCED)
        plain = new_game(NAMES[:players], seed=seed)
        assert rebalanced.draw_pile == plain.draw_pile
        assert summary(rebalanced) == summary(plain)


def test_r4_rebalanced_deck_is_fixed_by_the_seed():
    first = new_game(NAMES[:7], seed=11, settings=REBALANCED)
    again = new_game(NAMES[:7], seed=11, settings=REBALANCED)
    assert first.draw_pile == again.draw_pile
    assert summary(first) == summary(again)


@pytest.mark.parametrize(("players", "deck", "message"), [
    (6, "LLLLLL" + "F" * 11, "16 cards: 6 L and 10 F \\(rebalanced for 6 players\\)"),
    (7, "LLLLLL" + "F" * 11, "16 cards: 6 L and 10 F \\(rebalanced for 7 players\\)"),
    (9, "LLLLLL" + "F" * 10, "15 cards: 6 L and 9 F \\(rebalanced for 9 players\\)"),
    (8, "LLLLLL" + "F" * 10, "17 cards: 6 L and 11 F \\(R4\\)"),
])  # fmt: skip
def test_r4_a_given_deck_must_be_the_rebalanced_one_of_its_table_size(players, deck, message):
    with pytest.raises(InvalidSetup, match=message):
        make_game(players, deck=deck, rebalanced=True)


@pytest.mark.parametrize(("players", "deck"), [(6, SIX), (7, SIX), (9, "LLLLLL" + "F" * 9), (10, "LLLLLL" + "F" * 11)])
def test_r4_a_given_rebalanced_deck_is_dealt_as_given(players, deck):
    assert make_game(players, deck=deck, rebalanced=True).draw_pile == list(deck)


def test_r20_rebalanced_six_players_the_first_policy_in_play_takes_the_second_slot_with_no_power():
    g = make_game(6, deck=SIX, rebalanced=True)
    govern(g, "bob")
    assert state(g)["fascist_policies"] == 2
    assert state(g)["step"] == "nominate"
    assert not [e for e in g.events if e.type in ("power_granted", "policy_peeked")]


def test_r20_rebalanced_six_players_the_second_policy_in_play_grants_the_peek():
    g = make_game(6, deck=SIX, rebalanced=True)
    govern(g, "bob")
    govern(g, "dan", discard="L", enact="F")
    assert state(g)["fascist_policies"] == 3
    assert [e.type for e in g.events if e.type == "policy_peeked"] == ["policy_peeked"]


def test_r16_rebalanced_six_players_hitler_elected_after_two_fascist_policies_in_play_wins():
    g = make_game(6, deck=SIX, rebalanced=True)
    govern(g, "bob")
    govern(g, "dan", discard="L", enact="F")
    elect(g, "eve", "nein")
    elect(g, "cat")
    assert (state(g)["winner"], state(g)["win_reason"]) == ("fascist", "hitler_elected")


def test_r26_rebalanced_six_players_five_fascist_policies_in_play_win():
    g = make_game(6, deck="FFL" * 5 + "L", rebalanced=True)
    govern(g, "bob", discard="L")
    govern(g, "dan", discard="L")  # the 3rd slot: a peek, and the round goes on
    govern(g, "eve", discard="L")
    act(g, "execute", "cat", "fay")
    govern(g, "ann", discard="L")
    act(g, "execute", "dan", "ann")
    govern(g, "bob", discard="L")
    assert (state(g)["fascist_policies"], state(g)["win_reason"]) == (6, "fascist_policies")


def test_r6_rebalanced_six_players_reshuffle_holds_the_sixteen_cards_not_enacted():
    g = make_game(6, deck="FFFFFLLLFLLFLFFF", rebalanced=True)
    govern(g, "bob")
    govern(g, "dan", discard="L")
    govern(g, "eve", enact="L")
    govern(g, "fay", enact="L")
    govern(g, "ann", enact="L")
    assert (state(g)["liberal_policies"], state(g)["fascist_policies"]) == (3, 3)
    assert g.reshuffles_done == 1
    assert Counter(g.draw_pile) == {"L": 3, "F": 8}


def test_rebalanced_as_played_is_off_where_it_changes_nothing():
    assert [n for n in range(5, 11) if REBALANCED.as_played(n).rebalanced] == [6, 7, 9]
    assert Settings().as_played(6).rebalanced is False


def test_replay_script_with_rebalanced_replays_the_same():
    script = {"players": NAMES[:6], "seed": 4, "settings": {"rebalanced": True}}
    first, again = replay_script(script), replay_script(script)
    assert first == again
    assert first[1]["state"]["fascist_policies"] == 1
    assert first[1]["state"]["draw_pile"] == 16


def test_replay_script_setting_rebalanced_must_be_true_or_false():
    status, output = replay_script({"players": NAMES[:6], "settings": {"rebalanced": "yes"}})
    assert status == 2
    assert "rebalanced" in output["error"]["message"]
