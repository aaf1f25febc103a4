"""The one entry point: malformed moves are refused with a message, never crash, and change nothing."""

import random

import pytest

from bench import engine_before
from games.engine import Action, IllegalAction, apply, codec, legal_actions, new_game, random_move

from .helpers import act, make_game


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Action("dance", 0), "Unknown move"),
        (Action("nominate", None, 1), "needs the player"),
        (Action("nominate", "ann", 1), "no seat"),
        (Action("nominate", 0, 12), "no seat"),
        (Action("nominate", 0, None), "needs a player"),
        (Action("substitute", name=["zed"]), "A name is needed"),
        (Action("vote", 0, choice="yes"), "not possible now"),
    ],
)
def test_malformed_moves_are_refused(action, message):
    g = make_game()
    before = g.to_dict()
    with pytest.raises(IllegalAction, match=message):
        apply(g, action)
    assert g.to_dict() == before


def test_legal_actions_are_all_legal():
    g = make_game(7)
    rnd = random.Random(4)
    while not g.over:
        for move in legal_actions(g):
            copy = codec.from_builtins(g.to_dict())
            apply(copy, move)
        apply(g, random_move(g, rnd))


def test_random_move_after_the_game_is_refused():
    g = make_game()
    act(g, "cancel")
    with pytest.raises(IllegalAction, match="over"):
        random_move(g, random.Random(0))


@pytest.mark.parametrize("players", [5, 7, 10])
def test_r9_r11_r17_r19_legal_moves_are_those_of_the_engine_before_the_speed_up(players):
    """The moves listed now (ballots, nominations and card choices made once and shared; one seat's or everyone's)
    are exactly those the engine before issue 14's speed-up (bench/engine_before, its own code) lists for the
    same game, move after move: a card choice once per distinct card in the hand, the veto when allowed."""
    names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe"][:players]
    for seed in range(15):
        g, old = new_game(names, seed=seed), engine_before.new_game(names, seed=seed)
        rnd = random.Random(seed)
        while not g.over:
            before = [tuple(move) for move in engine_before.legal_actions(old)]
            assert [tuple(move) for move in legal_actions(g)] == before
            for seat in range(players):
                assert [tuple(move) for move in legal_actions(g, seat)] == [m for m in before if m[1] == seat]
            move = random_move(g, rnd)
            apply(g, move)
            engine_before.apply(old, engine_before.Action(*move))
