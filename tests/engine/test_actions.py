"""The one entry point: malformed moves are refused with a message, never crash, and change nothing."""

import random

import pytest

from games.engine import Action, IllegalAction, apply, codec, legal_actions, random_move

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
