"""A move's notation: written <-> Action both ways, shapes refused with clear messages, and every way in (the
panel's form, the API, email commands, the wording of questions and answers) offering exactly the player moves."""

import random

import pytest

from games.engine import ACTION_TYPES, Action, IllegalAction, apply, legal_actions, random_move
from games.engine.notation import (
    COMMAND_WORDS,
    MOVE_FIELDS,
    MOVES_BY_A_SEAT,
    PLAYER_FIELDS,
    PLAYER_MOVES,
    BadShape,
    check_shape,
    command_for,
    player_move,
    to_action,
    write_move,
)

from .helpers import govern, make_game


def random_games(count: int = 40):
    """States met in random games of 5 to 10 players, with now and then a deadline passing or a seat replaced."""
    for seed in range(count):
        rnd = random.Random(seed)
        g = make_game(5 + seed % 6, seed=seed)
        for serial in range(400):
            if g.over:
                break
            yield g
            apply(g, _random_event(g, rnd, serial))


def _random_event(g, rnd: random.Random, serial: int) -> Action:
    roll = rnd.random()
    if roll < 0.1:
        return Action("timeout")
    if roll < 0.12 and not g.pending:
        return Action("replace", target=rnd.choice(g.living()), name=f"new{serial}")
    return random_move(g, rnd)


def test_every_legal_action_is_read_back_from_its_written_move():
    checked = 0
    for g in random_games():
        for action in legal_actions(g):
            move = write_move(g, action)
            check_shape(move)
            assert to_action(g, move) == action
            checked += 1
    assert checked > 10_000


def test_moderators_and_the_clocks_moves_are_read_back_too():
    g = make_game(7)
    for action in (
        Action("timeout"),
        Action("absence", 2, choice=True),
        Action("substitute", name="sub"),
        Action("withdraw", name="sub"),
        Action("excuse", target=3),
        Action("exile", target=4),
        Action("replace", target=5, name="new"),
        Action("cancel"),
    ):
        move = write_move(g, action)
        check_shape(move)
        assert to_action(g, move) == action


def test_a_players_move_is_written_without_by():
    g = make_game(5)
    assert player_move(g, Action("nominate", 0, 1)) == {"type": "nominate", "target": "bob"}
    assert player_move(g, Action("veto_reply", 0, choice=False)) == {"type": "veto_reply", "accept": False}


def test_the_notation_knows_every_move_the_engine_handles():
    assert set(MOVE_FIELDS) == set(ACTION_TYPES)
    assert set(PLAYER_MOVES) < MOVES_BY_A_SEAT == set(PLAYER_MOVES) | {"absence"}


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ([], "the action is not an object"),
        ({"type": "dance"}, "the action has an unknown type 'dance'"),
        ({"type": 3}, "the action has an unknown type 3"),
        ({"type": "nominate", "by": "ann"}, "the action (nominate) needs 'target'"),
        ({"type": "vote", "by": "ann", "vote": "yes"}, "the action (vote) has an invalid 'vote': 'yes'"),
        ({"type": "enact", "by": "ann", "policy": "l"}, "the action (enact) has an invalid 'policy': 'l'"),
        (
            {"type": "veto_reply", "by": "ann", "accept": "yes"},
            "the action (veto_reply) has an invalid 'accept': 'yes'",
        ),
        ({"type": "execute", "by": "ann", "target": ""}, "the action (execute) has an invalid 'target': ''"),
        ({"type": "replace", "player": "ann"}, "the action (replace) needs 'name'"),
    ],
)
def test_a_badly_shaped_move_is_refused_saying_what_is_wrong(move, message):
    with pytest.raises(BadShape) as refused:
        check_shape(move)
    assert str(refused.value) == message


def test_a_name_with_no_seat_is_illegal():
    g = make_game(5)
    with pytest.raises(IllegalAction, match="zed is not a player in this game") as refused:
        to_action(g, {"type": "nominate", "by": "ann", "target": "zed"})
    assert refused.value.code == "no_such_player"
    apply(g, Action("replace", target=4, name="new"))
    govern(g, "bob")  # E8: the replacement takes its seat when the round ends
    assert "eve" in g.former_names
    with pytest.raises(IllegalAction, match="eve no longer holds a seat") as refused:
        to_action(g, {"type": "vote", "by": "eve", "vote": "ja"})
    assert refused.value.code == "not_seated"


def test_the_panels_form_offers_the_player_moves_and_their_fields():
    from games.forms import MoveForm

    assert {choice for choice, _label in MoveForm.base_fields["type"].choices} == set(PLAYER_MOVES)
    assert set(PLAYER_FIELDS) <= set(MoveForm.base_fields)


def test_the_panels_form_sends_every_legal_move_as_written():
    from games.forms import MoveForm

    for g in random_games(10):
        for action in legal_actions(g):
            move = player_move(g, action)
            data = {
                "step_number": 0,
                **{k: ("yes" if v else "no") if v in (True, False) else v for k, v in move.items()},
            }
            form = MoveForm(data)
            assert form.is_valid(), form.errors
            assert form.move() == move


def _posted(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def test_the_api_takes_the_player_moves_and_their_fields():
    from games.api.moves import MoveIn

    schema = MoveIn.model_json_schema()
    assert tuple(schema["properties"]["type"]["enum"]) == PLAYER_MOVES
    assert set(schema["properties"]) == {"type", "step_number", *PLAYER_FIELDS}


def test_email_commands_make_exactly_the_player_moves():
    assert {command.move for command in COMMAND_WORDS} == set(PLAYER_MOVES)


def test_every_legal_move_has_an_email_command_read_back_as_that_move():
    from games.notify.commands import commands_for, read_command

    read = 0
    for g in random_games(10):
        for seat in range(len(g.seats)):
            for command in commands_for(g, seat, "fr"):
                read += 1
                names = [s.name for s in g.seats]
                assert read_command(command.english, "fr", names) == command.move
                assert read_command(command.text, "fr", names) == command.move
                assert command_for(command.move)[0].move == command.move["type"]
    assert read > 1000


def test_every_player_move_has_a_question_and_an_answer():
    from games.wording import confirm_question, done_message

    g = make_game(5)
    moves = {action.type: player_move(g, action) for action in _one_of_each_player_move(g)}
    assert set(moves) == set(PLAYER_MOVES)
    for kind, move in moves.items():
        assert done_message(move) != done_message({"type": "unknown"})
        if kind != "vote":  # R11: a ballot may change until the vote closes, so it is never confirmed
            assert confirm_question(move)


def _one_of_each_player_move(g):
    return [
        Action("nominate", 0, 1),
        Action("vote", 0, choice="ja"),
        Action("discard", 0, choice="L"),
        Action("enact", 0, choice="F"),
        Action("veto", 0),
        Action("veto_reply", 0, choice=True),
        Action("investigate", 0, 1),
        Action("special_election", 0, 1),
        Action("execute", 0, 1),
    ]
