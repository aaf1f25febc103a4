"""The panel's move form: a move that names a player is refused, with its reason, until a player is chosen."""

import pytest

from games.forms import MoveForm

TARGETED = ["nominate", "investigate", "special_election", "execute"]


@pytest.mark.parametrize("kind", TARGETED)
@pytest.mark.parametrize("target", [None, ""])
def test_a_move_naming_nobody_is_refused_with_its_reason(kind, target):
    data = {"type": kind, "step_number": 3, "confirmed": "yes"}
    form = MoveForm({**data, "target": target} if target is not None else data)
    assert not form.is_valid()
    assert form.errors["target"] == ["Choose a player first: nothing was done."]


@pytest.mark.parametrize("kind", TARGETED)
def test_a_move_naming_a_player_is_read(kind):
    form = MoveForm({"type": kind, "step_number": 3, "target": "bob"})
    assert form.is_valid(), form.errors
    assert form.move() == {"type": kind, "target": "bob"}


@pytest.mark.parametrize(("kind", "field"), [("vote", "vote"), ("discard", "policy"), ("enact", "policy")])
def test_moves_that_name_no_player_need_no_target(kind, field):
    value = "ja" if field == "vote" else "F"
    assert MoveForm({"type": kind, "step_number": 3, field: value}).is_valid()
