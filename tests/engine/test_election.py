"""R9-R16: nomination, term limits, the vote, the tracker, Hitler elected."""

import pytest

from games.engine import IllegalAction

from .helpers import act, elect, fail_election, govern, legislate, make_game, state, vote_all


def test_r9_candidate_cannot_nominate_themself():
    g = make_game()
    with pytest.raises(IllegalAction, match="themself"):
        act(g, "nominate", "ann", "ann")


def test_r9_only_the_candidate_nominates():
    g = make_game()
    with pytest.raises(IllegalAction, match="Only ann, the presidential candidate, can nominate"):
        act(g, "nominate", "bob", "cat")


def test_r10_last_chancellor_term_limited():
    g = make_game()
    govern(g, "cat", enact="F")
    assert state(g)["term_limited"] == ["cat"]
    with pytest.raises(IllegalAction, match="cat is term-limited and cannot be nominated"):
        act(g, "nominate", "bob", "cat")


def test_r10_last_president_term_limited_with_six_alive():
    g = make_game(6)
    govern(g, "cat")
    assert state(g)["term_limited"] == ["ann", "cat"]
    with pytest.raises(IllegalAction, match="ann is term-limited"):
        act(g, "nominate", "bob", "ann")


def test_r10_only_last_chancellor_with_five_alive():
    g = make_game(5)
    govern(g, "cat")
    assert state(g)["term_limited"] == ["cat"]
    act(g, "nominate", "bob", "ann")
    assert state(g)["step"] == "vote"


def test_r10_execution_down_to_five_frees_the_last_president():
    # 6 players: the 4th fascist policy gives an execution (R20).
    g = make_game(6)
    govern(g, "bob")  # ann president, F1
    govern(g, "dan")  # bob, F2
    govern(g, "eve")  # cat, F3: policy peek
    govern(g, "fay")  # dan, F4: execution
    assert state(g)["term_limited"] == ["dan", "fay"]
    act(g, "execute", "dan", "eve")
    s = state(g)
    assert s["president"] == "fay"  # R8: eve is dead, the candidacy passes to fay
    assert s["term_limited"] == ["fay"]
    act(g, "nominate", "fay", "dan")


def test_r10_being_only_nominated_does_not_term_limit():
    g = make_game(6)
    fail_election(g, "cat")
    assert state(g)["term_limited"] == []
    act(g, "nominate", "bob", "cat")


def test_r10_term_limits_never_apply_to_the_presidency():
    g = make_game(5)
    govern(g, "bob")  # ann president, bob chancellor
    # bob is the next candidate although he was the last chancellor.
    assert state(g)["president"] == "bob"
    assert state(g)["waiting_for"] == ["bob"]


def test_r11_ballots_secret_until_the_vote_closes_then_revealed_with_names():
    g = make_game()
    act(g, "nominate", "ann", "bob")
    act(g, "vote", "ann", choice="ja")
    assert [e for e in g.events if e.type == "vote_closed"] == []
    vote_all(g, "nein")
    closed = next(e for e in g.events if e.type == "vote_closed")
    assert closed.ballots == {"ann": "ja", "bob": "nein", "cat": "nein", "dan": "nein", "eve": "nein"}


def test_r11_ballot_may_change_until_the_vote_closes():
    g = make_game()
    act(g, "nominate", "ann", "bob")
    act(g, "vote", "ann", choice="nein")
    act(g, "vote", "ann", choice="ja")
    vote_all(g, "ja", cat="nein", dan="nein")
    assert state(g)["elected"] is True


def test_r11_dead_players_cannot_vote():
    g = make_game(6)
    for chancellor in ("bob", "dan", "eve", "fay"):
        govern(g, chancellor)
    act(g, "execute", "dan", "eve")
    act(g, "nominate", "fay", "dan")
    with pytest.raises(IllegalAction, match="eve is dead and cannot act"):
        act(g, "vote", "eve", choice="ja")


def test_r12_tie_fails():
    g = make_game(6)
    act(g, "nominate", "ann", "bob")
    vote_all(g, "ja", dan="nein", eve="nein", fay="nein")
    s = state(g)
    assert (s["elected"], s["election_tracker"], s["round"]) == (False, 1, 2)


def test_r12_strict_majority_elects():
    g = make_game(5)
    act(g, "nominate", "ann", "bob")
    vote_all(g, "ja", dan="nein", eve="nein")
    assert state(g)["elected"] is True


def test_r12_missing_ballots_abstain_by_default():
    g = make_game(7)
    act(g, "nominate", "ann", "bob")
    act(g, "vote", "ann", choice="ja")
    act(g, "vote", "bob", choice="ja")
    act(g, "vote", "cat", choice="nein")
    act(g, "timeout")
    assert state(g)["elected"] is True


def test_r12_missing_ballots_count_as_nein_with_the_setting():
    g = make_game(7, missing_vote="nein")
    act(g, "nominate", "ann", "bob")
    act(g, "vote", "ann", choice="ja")
    act(g, "vote", "bob", choice="ja")
    act(g, "vote", "cat", choice="nein")
    act(g, "timeout")
    s = state(g)
    assert (s["elected"], s["election_tracker"]) == (False, 1)


def test_r12_no_ballot_at_all_fails():
    g = make_game(5)
    act(g, "nominate", "ann", "bob")
    act(g, "timeout")
    assert state(g)["election_tracker"] == 1


def test_t1_vote_closes_at_once_when_everyone_voted():
    g = make_game(5)
    elect(g, "bob")
    assert state(g)["step"] == "discard"


def test_t1_with_close_vote_early_off_the_vote_waits_for_its_deadline():
    g = make_game(5, close_vote_early=False)
    elect(g, "bob")
    s = state(g)
    assert (s["step"], s["waiting_for"]) == ("vote", [])
    act(g, "vote", "cat", choice="nein")  # still open: a ballot may change
    act(g, "timeout")
    assert state(g)["step"] == "discard"
    assert state(g)["missed"] == {"ann": 0, "bob": 0, "cat": 0, "dan": 0, "eve": 0}


def test_r13_failed_election_advances_tracker_and_candidacy():
    g = make_game()
    fail_election(g)
    s = state(g)
    assert (s["election_tracker"], s["president"], s["round"], s["chancellor"]) == (1, "bob", 2, None)


def test_r14_chaos_enacts_the_top_card_at_three():
    g = make_game(deck="L" + "F" * 11 + "LLLLL")
    for _ in range(3):
        fail_election(g)
    s = state(g)
    assert (s["liberal_policies"], s["election_tracker"], s["draw_pile"]) == (1, 0, 16)
    assert [e.type for e in g.events if e.type in ("chaos", "policy_enacted")] == ["chaos", "policy_enacted"]


def test_r14_chaos_grants_no_power():
    g = make_game(9)  # the first fascist policy would give an investigation
    for _ in range(3):
        fail_election(g)
    s = state(g)
    assert (s["fascist_policies"], s["step"], s["round"]) == (1, "nominate", 4)


def test_r14_chaos_forgets_term_limits():
    g = make_game(6)
    govern(g, "cat")
    for _ in range(3):
        fail_election(g)
    assert state(g)["term_limited"] == []
    act(g, "nominate", state(g)["president"], "cat")


def test_r15_tracker_resets_on_enactment_not_on_election():
    g = make_game()
    fail_election(g)
    elect(g, "cat")
    assert state(g)["election_tracker"] == 1
    legislate(g, "F", "F")
    assert state(g)["election_tracker"] == 0


def test_r15_variant_tracker_resets_on_election():
    g = make_game(tracker_resets_on_election=True)
    fail_election(g)
    elect(g, "cat")
    assert state(g)["election_tracker"] == 0


def test_r16_hitler_elected_after_three_fascist_policies_wins():
    g = make_game()
    govern(g, "bob")
    govern(g, "dan")
    govern(g, "eve")
    elect(g, "cat")
    s = state(g)
    assert (s["winner"], s["win_reason"], s["step"]) == ("fascist", "hitler_elected", "game_over")


def test_r16_hitler_elected_before_three_fascist_policies_does_not_win():
    g = make_game()
    govern(g, "bob")
    govern(g, "dan")
    fail_election(g, "eve")  # cat's candidacy
    elect(g, "cat")  # dan is the candidate, two fascist policies enacted
    assert state(g)["elected"] is True
    assert state(g)["winner"] is None
    assert state(g)["confirmed_not_hitler"] == []


def test_r16_chancellor_confirmed_not_hitler_after_three_fascist_policies():
    g = make_game()
    govern(g, "bob")
    govern(g, "dan")
    govern(g, "eve")
    assert state(g)["confirmed_not_hitler"] == []  # eve was elected with two fascist policies
    elect(g, "bob")
    assert state(g)["confirmed_not_hitler"] == ["bob"]
    assert any(e.type == "confirmed_not_hitler" and e.player == "bob" for e in g.events)
