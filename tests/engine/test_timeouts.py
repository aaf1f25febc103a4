"""T4, T6: what each passed deadline does."""

import pytest

from games.engine import IllegalAction, Settings, new_game
from games.engine.constants import SeatStatus

from .helpers import NAMES, act, elect, govern, make_game, public, roles_for, state, vote_all


def test_t4_nomination_timeout_fail_loses_the_candidacy():
    g = make_game()
    act(g, "timeout")
    s = state(g)
    assert (s["election_tracker"], s["president"], s["round"]) == (1, "bob", 2)
    assert s["missed"]["ann"] == 1


def test_t4_nomination_timeout_random_nominates_an_eligible_player():
    g = make_game(nomination_timeout="random")
    act(g, "timeout")
    s = state(g)
    assert s["step"] == "vote"
    assert s["chancellor"] in ("bob", "cat", "dan", "eve")
    act(g, "timeout")  # nobody voted: the election fails and the round ends
    assert state(g)["missed"]["ann"] == 1


def test_t4_nomination_timeout_random_is_determined_by_the_seed():
    def nominee(seed):
        g = new_game(NAMES[:7], seed=seed, roles=roles_for(7), settings=Settings(nomination_timeout="random"))
        act(g, "timeout")
        return state(g)["chancellor"]

    assert nominee(3) == nominee(3)
    assert len({nominee(seed) for seed in range(30)}) > 2


def test_t4_president_timeout_discards_at_random():
    g = make_game()
    elect(g, "bob")
    act(g, "timeout")
    s = state(g)
    assert (s["step"], s["discard_pile"], s["waiting_for"]) == ("enact", 1, ["bob"])


def test_t4_chancellor_timeout_enacts_at_random():
    g = make_game(deck="LLF" + "LLLL" + "F" * 10)
    elect(g, "bob")
    act(g, "discard", "ann", choice="F")
    act(g, "timeout")
    s = state(g)
    assert (s["liberal_policies"], s["step"], s["president"]) == (1, "nominate", "bob")


def test_t4_veto_reply_timeout_refuses():
    g = make_game()
    g.fascist_policies = 5  # arrange: the veto is unlocked
    elect(g, "bob")
    act(g, "discard", "ann", choice="F")
    act(g, "veto", "bob")
    act(g, "timeout")
    s = state(g)
    assert (s["step"], s["waiting_for"]) == ("enact", ["bob"])
    with pytest.raises(IllegalAction, match="refused"):
        act(g, "veto", "bob")


def test_t4_power_timeout_forfeits_by_default():
    g = make_game(9)
    govern(g, "dan")
    act(g, "timeout")
    s = state(g)
    assert (s["step"], s["president"]) == ("nominate", "bob")
    assert not any(e.type == "investigated" for e in g.events)


def test_t4_power_timeout_random_uses_a_legal_target():
    g = make_game(9, power_timeout="random")
    govern(g, "dan")
    act(g, "timeout")
    investigated = [e for e in g.events if e.type == "investigated"]
    assert len(investigated) == 1 and investigated[0].target != "ann"


def test_t4_power_timeout_random_goes_to_the_execution_vote():
    g = make_game(5, power_timeout="random", execution_vote=True)
    for chancellor in ("bob", "dan", "eve", "ann"):
        govern(g, chancellor)
    act(g, "timeout")
    assert state(g)["step"] == "execution_vote"


def test_t4_execution_vote_timeout_counts_missing_ballots_as_set():
    g = make_game(5, execution_vote=True, missing_vote="nein")
    for chancellor in ("bob", "dan", "eve", "ann"):
        govern(g, chancellor)
    act(g, "execute", "dan", "eve")
    act(g, "vote", "ann", choice="ja")
    act(g, "vote", "bob", choice="ja")
    act(g, "timeout")
    assert state(g)["dead"] == []


def test_t6_candidate_with_nobody_eligible_loses_the_candidacy_at_once():
    g = make_game(5)
    for seat in (1, 3, 4):
        g.seats[seat].status = SeatStatus.EXILED  # arrange: only ann and cat are left
    g.living_count = 2
    govern(g, "cat", enact="F")  # ann's government: cat is term-limited
    act(g, "nominate", "cat", "ann")
    vote_all(g, "nein")  # cat's candidacy fails; ann may nominate nobody but cat
    s = state(g)
    assert (s["round"], s["president"], s["election_tracker"], s["step"]) == (4, "cat", 2, "nominate")
    lost = [e for e in g.events if e.type == "candidacy_lost"]
    assert public(lost) == [{"type": "candidacy_lost", "round": 3, "president": "ann", "reason": "nobody_eligible"}]


def test_t6_chaos_moves_a_game_with_only_hitler_left_to_its_end():
    g = make_game(5)
    for seat in (0, 1, 3, 4):
        g.seats[seat].status = SeatStatus.EXILED
    g.living_count = 1
    act(g, "timeout")  # ann's nomination deadline passes
    s = state(g)
    assert s["step"] == "game_over"
    assert s["winner"] == "fascist"


def test_t6_no_state_waits_forever():
    g = make_game(5)
    for _ in range(200):
        if state(g)["step"] == "game_over":
            break
        act(g, "timeout")
    assert state(g)["step"] == "game_over"


def test_timeout_after_the_game_is_illegal():
    g = make_game()
    act(g, "cancel")
    with pytest.raises(IllegalAction, match="over"):
        act(g, "timeout")


def _outcome_of_timeout(g) -> dict:
    """The event right after `deadline_passed`: the one the deadline applied."""
    events = public(act(g, "timeout"))
    assert events[0]["type"] == "deadline_passed" and "by_deadline" not in events[0]
    assert [e for e in events if e.get("by_deadline")] == [events[1]]
    return events[1]


def _at_the_discard(**settings):
    g = make_game(**settings)
    elect(g, "bob")
    return g


def _at_the_enactment(**settings):
    g = _at_the_discard(**settings)
    act(g, "discard", "ann", choice="F")
    return g


def _at_the_veto_reply(**settings):
    g = _at_the_enactment(**settings)
    g.fascist_policies = 5  # arrange: the veto is unlocked
    act(g, "veto", "bob")
    return g


def _at_the_power(**settings):
    g = make_game(9, **settings)
    govern(g, "dan")
    return g


def _at_the_vote(**settings):
    g = make_game(**settings)
    act(g, "nominate", "ann", "bob")
    act(g, "vote", "ann", choice="ja")
    return g


@pytest.mark.parametrize(
    ("arrange", "settings", "marked"),
    [
        (make_game, {}, "candidacy_lost"),
        (make_game, {"nomination_timeout": "random"}, "nominated"),
        (_at_the_vote, {}, "vote_closed"),
        (_at_the_vote, {"missing_vote": "nein"}, "vote_closed"),
        (_at_the_discard, {}, "president_discarded"),
        (_at_the_enactment, {}, "policy_enacted"),
        (_at_the_veto_reply, {}, "veto_answered"),
        (_at_the_power, {}, "power_forfeited"),
        (_at_the_power, {"power_timeout": "random"}, "investigated"),
    ],
)
def test_t4_the_outcome_a_deadline_applied_is_marked_by_deadline(arrange, settings, marked):
    outcome = _outcome_of_timeout(arrange(**settings))
    assert outcome["type"] == marked


def test_t4_a_move_the_player_made_is_never_marked_by_deadline():
    g = _at_the_discard()
    events = act(g, "discard", "ann", choice="F")
    assert not any("by_deadline" in event for event in public(events))


def test_t4_a_random_discard_s_event_names_no_card():
    g = _at_the_discard()
    outcome = _outcome_of_timeout(g)
    assert outcome == {"type": "president_discarded", "round": 1, "president": "ann", "by_deadline": True}
