"""R5, R6, R17-R19, R25: the legislative session, the veto and the deck."""

import pytest

from games.engine import IllegalAction, player_view, secret_view

from .helpers import act, elect, fail_election, govern, make_game, public, seat, state


def five_fascist_policies(**settings):
    """A 5-player game at its sixth round, five fascist policies enacted, executions used."""
    g = make_game(deck="FFL" * 5 + "FL", reshuffles=["FFFFFFLLLLLL"], **settings)
    govern(g, "bob", discard="L")  # ann, F1
    govern(g, "dan", discard="L")  # bob, F2
    govern(g, "eve", discard="L")  # cat, F3: peek
    govern(g, "ann", discard="L")  # dan, F4: execution
    act(g, "execute", "dan", "ann")
    govern(g, "bob", discard="L")  # eve, F5: execution; the deck is reshuffled
    act(g, "execute", "eve", "dan")
    return g  # bob, cat and eve alive; bob is the candidate


def test_r17_president_discards_one_chancellor_enacts_one():
    g = make_game(deck="LFF" + "L" * 5 + "F" * 9)
    elect(g, "bob")
    assert state(g)["draw_pile"] == 14
    act(g, "discard", "ann", choice="F")
    assert state(g)["waiting_for"] == ["bob"]
    act(g, "enact", "bob", choice="L")
    s = state(g)
    assert (s["liberal_policies"], s["discard_pile"], s["draw_pile"]) == (1, 2, 14)


def test_r17_a_card_not_in_hand_is_refused_and_nothing_changes():
    g = make_game(deck="F" * 11 + "L" * 6)
    elect(g, "bob")
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="no liberal policy"):
        act(g, "discard", "ann", choice="L")
    assert g.to_dict() == before


def test_r17_only_the_chancellor_enacts():
    g = make_game()
    elect(g, "bob")
    act(g, "discard", "ann", choice="F")
    with pytest.raises(IllegalAction, match="Only bob, the chancellor"):
        act(g, "enact", "ann", choice="F")


def test_r5_discards_stay_secret_until_the_end():
    g = make_game(deck="LFF" + "L" * 5 + "F" * 9)
    govern(g, "bob", discard="F", enact="L")
    assert all("F" not in repr(e) or e["type"] != "president_discarded" for e in public(g.events))
    assert "policy" not in [key for e in public(g.events) if "discarded" in e["type"] for key in e]


def test_r6_reshuffle_when_fewer_than_three_cards_remain_after_enactment():
    # Five sessions draw 15 cards: 2 are left after the fifth enactment, so the 10 discards and the
    # 2 left are shuffled into a new pile of 12.
    g = make_game(deck="LFF" * 5 + "LF")
    for chancellor in ("bob", "cat", "dan", "eve"):
        govern(g, chancellor, discard="F", enact="L" if chancellor in ("bob", "cat") else "F")
    assert state(g)["draw_pile"] == 5
    govern(g, "ann", discard="F", enact="F")
    s = state(g)
    assert (s["draw_pile"], s["discard_pile"]) == (12, 0)
    assert any(e.type == "deck_reshuffled" for e in g.events)


def test_r6_peek_shows_the_real_next_three_after_a_reshuffle():
    g = make_game(deck="LFF" * 5 + "LF", reshuffles=["LLLFFFFFFFFL"])
    for chancellor in ("bob", "cat", "dan", "eve"):
        govern(g, chancellor, discard="F", enact="L" if chancellor in ("bob", "cat") else "F")
    govern(g, "ann", discard="F", enact="F")  # eve's government: the third fascist policy, a peek
    assert player_view(g, seat(g, "eve"))["peeks"][0]["cards"] == ["L", "L", "L"]
    assert secret_view(g)["draw_pile"][:3] == ["L", "L", "L"]


def test_r6_reshuffle_after_a_game_ending_policy():
    g = make_game(deck="LFF" * 5 + "LF")
    for chancellor in ("bob", "cat", "dan", "eve"):
        govern(g, chancellor, discard="F", enact="L" if chancellor in ("bob", "cat") else "F")
    g.liberal_policies = 4  # arrange: the fifth government's liberal policy wins
    govern(g, "ann", discard="F", enact="L")
    s = state(g)
    assert (s["winner"], s["draw_pile"], s["discard_pile"]) == ("liberal", 12, 0)


def test_r6_reshuffle_after_chaos():
    g = make_game(deck="F" * 11 + "L" * 6)
    g.draw_pile, g.discard_pile = list("FFF"), list("F" * 8 + "L" * 6)  # arrange: three cards left
    for _ in range(3):
        fail_election(g)
    s = state(g)
    assert (s["fascist_policies"], s["draw_pile"], s["discard_pile"]) == (1, 16, 0)


def test_r19_veto_only_after_five_fascist_policies():
    g = make_game()
    elect(g, "bob")
    act(g, "discard", "ann", choice="F")
    with pytest.raises(IllegalAction, match="fifth fascist policy"):
        act(g, "veto", "bob")


def test_r19_accepted_veto_discards_both_and_advances_the_tracker():
    g = five_fascist_policies()
    elect(g, "eve")
    act(g, "discard", "bob", choice="F")
    act(g, "veto", "eve")
    assert state(g)["waiting_for"] == ["bob"]
    discards = state(g)["discard_pile"]
    act(g, "veto_reply", "bob", choice=True)
    s = state(g)
    assert (s["election_tracker"], s["fascist_policies"], s["discard_pile"]) == (1, 5, discards + 2)
    assert (s["round"], s["president"]) == (7, "cat")


def test_r19_refused_veto_must_enact_and_cannot_ask_again():
    g = five_fascist_policies()
    elect(g, "eve")
    act(g, "discard", "bob", choice="F")
    act(g, "veto", "eve")
    act(g, "veto_reply", "bob", choice=False)
    assert state(g)["step"] == "enact"
    with pytest.raises(IllegalAction, match="refused the veto"):
        act(g, "veto", "eve")
    act(g, "enact", "eve", choice="F")
    assert state(g)["winner"] == "fascist"


def test_r19_accepted_veto_can_bring_chaos():
    g = five_fascist_policies()
    fail_election(g, "eve")  # bob's candidacy: tracker 1
    for chancellor in ("eve", "bob"):  # cat's, then eve's candidacy: both vetoed
        elect(g, chancellor)
        act(g, "discard", state(g)["president"], choice="F")
        act(g, "veto", chancellor)
        act(g, "veto_reply", state(g)["president"], choice=True)
    s = state(g)
    assert s["election_tracker"] == 0
    assert (s["liberal_policies"], s["fascist_policies"]) == (1, 5)  # chaos enacted the top card, an L
    assert [e.type for e in g.events[-4:]] == ["tracker_advanced", "chaos", "policy_enacted", "round_started"]


def test_r25_veto_unlocked_by_a_chaos_fifth_policy():
    g = five_fascist_policies()
    assert g.fascist_policies == 5
    elect(g, "eve")
    act(g, "discard", "bob", choice="F")
    act(g, "veto", "eve")
    assert state(g)["step"] == "veto_reply"
