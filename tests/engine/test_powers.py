"""R20-R24: presidential powers and the execution vote variant."""

import pytest

from games.engine import IllegalAction, player_view

from .helpers import act, fail_election, govern, make_game, public, seat, state


def powers_granted(g):
    return [(e.president, e.power) for e in g.events if e.type in ("power_granted", "policy_peeked")]


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (5, ["none", "none", "peek", "execute"]),
        (6, ["none", "none", "peek", "execute"]),
        (7, ["none", "investigate", "special_election", "execute"]),
        (8, ["none", "investigate", "special_election", "execute"]),
        (9, ["investigate", "investigate", "special_election", "execute"]),
        (10, ["investigate", "investigate", "special_election", "execute"]),
    ],
)
def test_r20_power_on_each_fascist_slot_by_player_count(players, expected):
    g = make_game(players)
    seen = []
    chancellors = iter(["dan", "eve", "fay", "ann", "bob", "gus", "hal"])
    for _ in expected:
        chancellor = next(c for c in chancellors if c in state(g)["alive"])
        if chancellor == state(g)["president"]:
            chancellor = next(chancellors)
        govern(g, chancellor)
        step = state(g)["step"]
        if step == "nominate":
            peeked = g.events[-1].type == "round_started" and any(
                e.type == "policy_peeked" and e.round == g.round - 1 for e in g.events
            )
            seen.append("peek" if peeked else "none")
        else:
            seen.append(step)
            target = next(name for name in state(g)["alive"] if name not in (state(g)["president"], "cat"))
            act(g, step, state(g)["president"], target)
    assert seen == expected


def test_r20_column_chosen_by_players_at_start_not_alive():
    # 7 players: executions on slots 4 and 5 bring the living to 5, the 7-8 column still applies.
    g = make_game(7)
    assert g.players_at_start == 7
    g.fascist_policies = 2  # arrange: the next fascist policy is the third
    govern(g, "dan")
    assert state(g)["step"] == "special_election"


def test_r20_chaos_policy_grants_no_power():
    g = make_game(5)
    g.fascist_policies = 2
    for _ in range(3):
        fail_election(g)
    assert state(g)["fascist_policies"] == 3
    assert player_view(g, seat(g, "cat"))["peeks"] == []


def test_r21_investigation_shows_party_to_the_president_alone():
    g = make_game(9)
    govern(g, "dan")
    act(g, "investigate", "ann", "cat")
    assert player_view(g, seat(g, "ann"))["investigations"][0]["party"] == "fascist"  # R2: Hitler's party
    assert player_view(g, seat(g, "bob"))["investigations"] == []
    event = public(g.events)[[e.type for e in g.events].index("investigated")]
    assert "party" not in event


def test_r21_no_player_investigated_twice():
    g = make_game(9)
    govern(g, "dan")
    act(g, "investigate", "ann", "cat")
    govern(g, "eve")
    with pytest.raises(IllegalAction, match="cat has already been investigated"):
        act(g, "investigate", "bob", "cat")


def test_r21_president_cannot_investigate_themself():
    g = make_game(9)
    govern(g, "dan")
    with pytest.raises(IllegalAction, match="themself"):
        act(g, "investigate", "ann", "ann")


def test_r22_peek_shows_the_top_three_and_the_round_goes_on():
    g = make_game(5, deck="FFF" * 3 + "LFL" + "FLLLL")
    govern(g, "bob")
    govern(g, "dan")
    govern(g, "eve")  # cat's government: the third fascist policy
    assert player_view(g, seat(g, "cat"))["peeks"] == [
        {"round": 3, "president": "cat", "president_seat": 2, "cards": ["L", "F", "L"]}
    ]
    assert player_view(g, seat(g, "ann"))["peeks"] == []
    s = state(g)
    assert (s["step"], s["president"], s["draw_pile"]) == ("nominate", "dan", 8)


def test_r23_execution_kills_and_does_not_reveal():
    g = make_game(5)
    for chancellor in ("bob", "dan", "eve", "ann"):
        govern(g, chancellor)
    act(g, "execute", "dan", "eve")
    s = state(g)
    assert (s["dead"], s["alive"]) == (["eve"], ["ann", "bob", "cat", "dan"])
    executed = next(e for e in public(g.events) if e["type"] == "executed")
    assert "role" not in executed
    act(g, "nominate", "ann", "bob")
    with pytest.raises(IllegalAction, match="eve is dead"):
        act(g, "vote", "eve", choice="ja")


def test_r23_executing_hitler_wins_for_the_liberals():
    g = make_game(5)
    for chancellor in ("bob", "dan", "eve", "ann"):
        govern(g, chancellor)
    act(g, "execute", "dan", "cat")
    assert (state(g)["winner"], state(g)["win_reason"]) == ("liberal", "hitler_executed")


def test_r23_dead_player_skipped_in_rotation():
    g = make_game(5)
    for chancellor in ("bob", "dan", "eve", "ann"):
        govern(g, chancellor)
    act(g, "execute", "dan", "eve")
    assert state(g)["president"] == "ann"


def test_r23_variant_execution_vote_passes():
    g = make_game(5, execution_vote=True)
    for chancellor in ("bob", "dan", "eve", "ann"):
        govern(g, chancellor)
    act(g, "execute", "dan", "eve")
    assert state(g)["step"] == "execution_vote"
    assert state(g)["waiting_for"] == ["ann", "bob", "cat", "dan", "eve"]
    for name in ("ann", "bob", "cat"):
        act(g, "vote", name, choice="ja")
    act(g, "timeout")
    assert state(g)["dead"] == ["eve"]


def test_r23_variant_execution_vote_fails_and_nobody_dies():
    g = make_game(5, execution_vote=True)
    for chancellor in ("bob", "dan", "eve", "ann"):
        govern(g, chancellor)
    act(g, "execute", "dan", "eve")
    for name, ballot in (("ann", "ja"), ("bob", "nein"), ("cat", "ja"), ("dan", "nein"), ("eve", "nein")):
        act(g, "vote", name, choice=ballot)
    s = state(g)
    assert (s["dead"], s["step"], s["president"]) == ([], "nominate", "eve")


def test_r24_special_election_then_back_to_the_player_after_the_caller():
    g = make_game(7)
    govern(g, "dan")  # ann
    govern(g, "eve")  # bob: investigate on F2
    act(g, "investigate", "bob", "ann")
    govern(g, "fay")  # cat: special election on F3
    act(g, "special_election", "cat", "gus")
    assert state(g)["president"] == "gus"
    fail_election(g)
    assert state(g)["president"] == "dan"


def test_r24_pick_may_be_candidate_twice_in_a_row():
    g = make_game(7)
    govern(g, "dan")
    govern(g, "eve")
    act(g, "investigate", "bob", "ann")
    govern(g, "fay")
    act(g, "special_election", "cat", "dan")
    assert state(g)["president"] == "dan"
    fail_election(g)
    assert state(g)["president"] == "dan"
    fail_election(g)
    assert state(g)["president"] == "eve"


def test_r24_president_cannot_pick_themself():
    g = make_game(7)
    govern(g, "dan")
    govern(g, "eve")
    act(g, "investigate", "bob", "ann")
    govern(g, "fay")
    with pytest.raises(IllegalAction, match="themself"):
        act(g, "special_election", "cat", "cat")


def test_power_held_by_the_president_only():
    g = make_game(9)
    govern(g, "dan")
    with pytest.raises(IllegalAction, match="Only ann, the president"):
        act(g, "investigate", "bob", "cat")
    with pytest.raises(IllegalAction, match="No one holds this power"):
        act(g, "execute", "ann", "cat")
    assert state(g)["step"] == "investigate"


def test_power_without_a_legal_target_is_forfeited():
    g = make_game(9)
    for seat_ in g.seats[1:]:
        seat_.investigated = True  # arrange: everybody else has been investigated
    govern(g, "dan")
    s = state(g)
    assert (s["step"], s["president"]) == ("nominate", "bob")
    assert [e.type for e in g.events[-3:]] == ["policy_enacted", "power_forfeited", "round_started"]
