"""E1-E5, E8: missed rounds, exile, absences, substitutes and the moderators' interventions."""

import pytest

from games.engine import IllegalAction, player_view

from .helpers import act, elect, fail_election, govern, make_game, public, seat, state


def test_e2_missing_a_ballot_is_a_miss_counted_when_the_round_ends():
    g = make_game()
    act(g, "nominate", "ann", "bob")
    for name in ("ann", "bob", "cat", "eve"):
        act(g, "vote", name, choice="ja")
    act(g, "timeout")  # dan missed the ballot
    assert state(g)["missed"]["dan"] == 0  # the round is still under way
    act(g, "discard", "ann", choice="F")
    act(g, "enact", "bob", choice="F")
    assert state(g)["missed"] == {"ann": 0, "bob": 0, "cat": 0, "dan": 1, "eve": 0}


def test_e3_making_every_owed_action_resets_the_count():
    g = make_game()
    act(g, "timeout")  # ann misses the nomination
    assert state(g)["missed"]["ann"] == 1
    fail_election(g, "cat")  # ann votes in bob's round
    assert state(g)["missed"]["ann"] == 0


def test_e3_owing_nothing_keeps_the_count():
    g = make_game()
    act(g, "timeout")  # round 1: ann misses the nomination
    act(g, "timeout")  # round 2: bob misses the nomination; ann owed nothing
    assert state(g)["missed"] == {"ann": 1, "bob": 1, "cat": 0, "dan": 0, "eve": 0}


def test_e3_two_missed_rounds_in_a_row_exile():
    g = make_game()
    act(g, "timeout")  # ann misses round 1
    act(g, "nominate", "bob", "cat")
    for name in ("bob", "cat", "dan", "eve"):
        act(g, "vote", name, choice="nein")
    act(g, "timeout")  # ann misses her ballot in round 2
    s = state(g)
    assert s["exiled"] == ["ann"]
    assert s["alive"] == ["bob", "cat", "dan", "eve"]
    assert "ann" not in s["missed"]
    assert s["president"] == "cat"


def test_e3_exiles_in_seat_order_before_the_next_candidate():
    g = make_game()
    act(g, "timeout")  # ann misses
    act(g, "nominate", "bob", "dan")
    act(g, "timeout")  # nobody votes: everyone misses round 2
    s = state(g)
    assert s["exiled"] == ["ann"]
    assert s["missed"] == {"bob": 1, "cat": 1, "dan": 1, "eve": 1}


def test_e4_miss_inside_an_absence_is_excused():
    g = make_game()
    act(g, "absence", "ann", choice=True)
    act(g, "timeout")
    assert state(g)["missed"]["ann"] == 0
    act(g, "absence", "ann", choice=False)
    act(g, "timeout")  # bob misses; ann owed nothing
    assert state(g)["missed"]["ann"] == 0


def test_e4_excused_miss_keeps_the_count_even_with_actions_made():
    g = make_game()
    act(g, "timeout")  # ann misses round 1
    elect(g, "ann")  # bob's round: ann votes
    act(g, "absence", "ann", choice=True)
    act(g, "discard", "bob", choice="F")
    act(g, "timeout")  # ann's enactment is missed while she is away
    assert state(g)["missed"]["ann"] == 1


def test_e4_absence_is_idempotent_and_only_for_the_living():
    g = make_game()
    act(g, "absence", "ann", choice=True)
    events = len(g.events)
    act(g, "absence", "ann", choice=True)
    act(g, "absence", "bob", choice=False)
    assert len(g.events) == events


def test_e5_substitute_takes_the_exiled_seat_with_everything():
    g = make_game(deck="FFL" + "L" * 5 + "F" * 9)
    act(g, "substitute", name="zed")
    act(g, "timeout")  # ann misses round 1
    act(g, "nominate", "bob", "cat")
    for name in ("bob", "cat", "dan", "eve"):
        act(g, "vote", name, choice="ja")
    act(g, "timeout")  # ann misses her ballot
    act(g, "discard", "bob", choice="F")
    act(g, "enact", "cat", choice="F")
    s = state(g)
    assert s["alive"] == ["zed", "bob", "cat", "dan", "eve"]
    assert s["exiled"] == ["ann"]
    assert s["missed"]["zed"] == 0
    assert player_view(g, seat(g, "zed"))["role"] == "liberal"
    assert any(e.type == "substituted" and e.player == "zed" for e in g.events)


def test_e5_hitler_exiled_without_substitute_wins_for_the_liberals():
    g = make_game(first="cat")
    act(g, "timeout")  # cat misses
    act(g, "nominate", "dan", "eve")
    for name in ("ann", "bob", "dan", "eve"):
        act(g, "vote", name, choice="nein")
    act(g, "timeout")
    s = state(g)
    assert (s["winner"], s["win_reason"], s["exiled"]) == ("liberal", "hitler_exiled", ["cat"])


def test_e5_exiled_special_election_pick_loses_that_candidacy():
    g = make_game(7)
    govern(g, "dan")
    govern(g, "eve")
    act(g, "investigate", "bob", "ann")
    govern(g, "fay")
    act(g, "exile", target="gus")
    act(g, "special_election", "cat", "gus")
    s = state(g)
    assert s["exiled"] == ["gus"]
    assert s["president"] == "dan"


def test_e8_excuse_covers_the_misses_of_the_round():
    g = make_game()
    act(g, "excuse", target="ann")
    act(g, "timeout")
    assert state(g)["missed"]["ann"] == 0


def test_e8_moderator_exile_at_the_end_of_the_round():
    g = make_game()
    act(g, "exile", target="dan")
    assert state(g)["alive"] == ["ann", "bob", "cat", "dan", "eve"]
    fail_election(g)
    assert state(g)["exiled"] == ["dan"]


def test_e8_replace_keeps_the_seat_and_marks_nobody():
    g = make_game()
    act(g, "timeout")  # ann: 1 miss
    act(g, "replace", target="ann", name="amy")
    fail_election(g)
    s = state(g)
    assert s["alive"][0] == "amy"
    assert s["exiled"] == []
    assert s["missed"]["amy"] == 0
    assert player_view(g, 0)["name"] == "amy"


def test_e3_e8_a_seat_replaced_in_the_round_it_reaches_two_misses_is_not_exiled():
    """The moderators' replacement comes first at the round's end (E8), then E3's exiles: the newcomer starts
    with no misses, so the seat that reached two misses that round is not exiled."""
    g = make_game()
    act(g, "timeout")  # round 1: ann misses the nomination
    act(g, "nominate", "bob", "cat")
    act(g, "replace", target="ann", name="amy")
    for name in ("bob", "cat", "dan", "eve"):
        act(g, "vote", name, choice="nein")
    act(g, "timeout")  # ann misses her ballot too: her second round, but she is replaced at its end
    s = state(g)
    assert (s["exiled"], s["alive"][0], s["missed"]["amy"]) == ([], "amy", 0)


def test_e8_second_exile_or_replace_for_a_seat_in_one_round_is_illegal():
    g = make_game()
    act(g, "exile", target="dan")
    with pytest.raises(IllegalAction, match="already has an exile or replacement"):
        act(g, "replace", target="dan", name="zed")


def test_e8_name_already_in_the_game_is_illegal():
    g = make_game()
    act(g, "substitute", name="zed")
    with pytest.raises(IllegalAction, match="zed is already in this game"):
        act(g, "replace", target="dan", name="zed")
    with pytest.raises(IllegalAction, match="bob is already in this game"):
        act(g, "substitute", name="bob")


def test_e8_cancel_ends_the_game_with_no_winner():
    g = make_game()
    act(g, "cancel")
    s = state(g)
    assert (s["step"], s["winner"], s["win_reason"]) == ("game_over", None, "cancelled")
    with pytest.raises(IllegalAction, match="over"):
        act(g, "substitute", name="zed")


def test_e7_warning_after_the_first_miss():
    g = make_game()
    act(g, "timeout")
    assert {"type": "warned", "round": 1, "player": "ann", "missed_rounds": 1} in public(g.events)


def test_e1_round_counts_candidacies():
    g = make_game()
    elect(g, "bob")
    assert state(g)["round"] == 1
    act(g, "discard", "ann", choice="F")
    act(g, "enact", "bob", choice="F")
    assert state(g)["round"] == 2


def test_e4_absence_must_say_start_or_end():
    g = make_game()
    with pytest.raises(IllegalAction, match="either starts or ends"):
        act(g, "absence", "ann", choice="no")


def test_e5_a_withdrawn_substitute_takes_no_seat():
    g = make_game()
    act(g, "substitute", name="zoe")
    act(g, "substitute", name="yan")
    events = act(g, "withdraw", name="zoe")
    assert [event.type for event in events] == ["substitute_withdrawn"]
    act(g, "exile", target="dan")
    act(g, "timeout")  # the round ends: yan, not zoe, takes dan's seat
    assert "yan" in state(g)["alive"] and "zoe" not in state(g)["alive"]


def test_e8_a_withdrawn_replacement_leaves_the_seat_to_its_player():
    g = make_game()
    act(g, "replace", target="dan", name="zoe")
    events = act(g, "withdraw", name="zoe")
    assert public(events) == [{"type": "replacement_withdrawn", "player": "dan", "round": 1}]
    act(g, "timeout")
    assert "dan" in state(g)["alive"] and "zoe" not in state(g)["alive"]
    act(g, "substitute", name="zoe")  # the name is free again


@pytest.mark.parametrize("name", ["nobody", "dan"])
def test_withdraw_names_someone_waiting_for_a_seat(name):
    g = make_game()
    with pytest.raises(IllegalAction, match="not waiting to take a seat"):
        act(g, "withdraw", name=name)
