"""R26: the game ends at once when a side wins; R7, R18: what the views say along the way."""

import pytest

from games.engine import IllegalAction, public_view, secret_view

from .helpers import act, elect, fail_election, govern, legislate, make_game, state


def test_r26_five_liberal_policies_win():
    g = make_game(deck="LFF" * 5 + "LF")
    for chancellor in ("bob", "cat", "dan", "eve", "ann"):
        govern(g, chancellor, discard="F", enact="L")
    s = state(g)
    assert (s["winner"], s["win_reason"], s["step"], s["waiting_for"]) == (
        "liberal",
        "liberal_policies",
        "game_over",
        [],
    )


def test_r26_six_fascist_policies_win():
    g = make_game()
    g.fascist_policies = 5
    govern(g, "bob")
    assert (state(g)["winner"], state(g)["win_reason"]) == ("fascist", "fascist_policies")


def test_r26_a_chaos_policy_can_win():
    g = make_game()
    g.fascist_policies = 5
    for _ in range(3):
        fail_election(g)
    assert (state(g)["winner"], state(g)["win_reason"]) == ("fascist", "fascist_policies")


def test_r26_game_over_keeps_the_round_and_government_it_ended_in():
    g = make_game()
    g.fascist_policies = 5
    govern(g, "bob")
    s = state(g)
    assert (s["round"], s["president"], s["chancellor"], s["elected"]) == (1, "ann", "bob", True)


def test_r26_every_move_after_the_end_is_refused():
    g = make_game()
    g.fascist_policies = 5
    govern(g, "bob")
    assert g.events[-1].type == "game_over"
    assert g.events[-1].roles["cat"] == "hitler"  # R27
    before = g.to_dict()
    for move in (("nominate", "bob", "cat"), ("timeout",), ("absence", "ann", None, True)):
        with pytest.raises(IllegalAction, match="over"):
            act(g, *move)
    assert g.to_dict() == before


def test_r7_peek_leaves_the_order_of_the_pile():
    g = make_game(5, deck="FFF" * 3 + "LFL" + "FLLLL")
    govern(g, "bob")
    govern(g, "dan")
    elect(g, "eve")
    pile = list(g.draw_pile)
    legislate(g, "F", "F")  # the third fascist policy: cat peeks
    assert g.peeks[0].cards == pile[:3] == ["L", "F", "L"]
    assert secret_view(g)["draw_pile"] == pile


def test_r18_thread_closed_from_the_draw_until_enactment():
    g = make_game()
    assert public_view(g)["legislative_session"] is False
    elect(g, "bob")
    assert public_view(g)["legislative_session"] is True
    act(g, "discard", "ann", choice="F")
    assert public_view(g)["legislative_session"] is True
    act(g, "enact", "bob", choice="F")
    assert public_view(g)["legislative_session"] is False
