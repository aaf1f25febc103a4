"""Players' moves through the service layer: applied once, refused with a message, stale steps caught."""

from datetime import timedelta

import pytest

from games.models import ActionRecord, GameEvent
from games.services import GameError, make_move, pause
from tests.factories import START, governments, make_user, running_game

from .helpers import reload, state_of, user

pytestmark = pytest.mark.django_db
SOON = START + timedelta(hours=1)


def nominate(game, by="ann", target="bob", now=SOON):
    return make_move(game.pk, user(by), {"type": "nominate", "target": target}, reload(game).step_number, now=now)


def test_a_move_is_applied_recorded_and_announced():
    game = running_game()
    events = nominate(game)
    assert [e.type for e in events] == ["nominated"]
    game = reload(game)
    assert state_of(game)["step"] == "vote"
    record = game.actions.get(index=game.action_count - 1)
    assert (record.action, record.source, record.actor.username) == (
        {"type": "nominate", "target": "bob", "by": "ann"},
        ActionRecord.Source.PLAYER,
        "ann",
    )
    assert GameEvent.objects.filter(game=game, type="nominated").count() == 1


def test_r9_illegal_move_gets_the_rules_message_and_changes_nothing():
    game = running_game()
    before = (reload(game).state, ActionRecord.objects.count(), GameEvent.objects.count())
    with pytest.raises(GameError, match=r"Only ann, the presidential candidate, can nominate now\."):
        nominate(game, by="bob", target="cat")
    with pytest.raises(GameError, match="ann cannot nominate themself"):
        nominate(game, by="ann", target="ann")
    assert (reload(game).state, ActionRecord.objects.count(), GameEvent.objects.count()) == before


def test_a_move_for_a_stale_step_is_refused():
    game = running_game()
    stale = reload(game).step_number
    nominate(game)
    with pytest.raises(GameError, match="moved on"):
        make_move(game.pk, user("ann"), {"type": "nominate", "target": "cat"}, stale, now=SOON)


def test_r11_ballots_leave_the_step_number_as_it_is():
    game = running_game(actions=[{"type": "nominate", "by": "ann", "target": "bob"}])
    step = reload(game).step_number
    make_move(game.pk, user("ann"), {"type": "vote", "vote": "ja"}, step, now=SOON)
    make_move(game.pk, user("bob"), {"type": "vote", "vote": "nein"}, step, now=SOON)
    make_move(game.pk, user("bob"), {"type": "vote", "vote": "ja"}, step, now=SOON)  # a changed ballot
    assert reload(game).step_number == step
    assert state_of(game)["waiting_for"] == ["cat", "dan", "eve"]


def test_moves_after_the_deadline_are_refused():
    game = running_game()
    with pytest.raises(GameError, match="deadline for this step has passed"):
        nominate(game, now=START + timedelta(hours=48))
    nominate(game, now=START + timedelta(hours=47, minutes=59))


def test_t5_moves_are_closed_while_paused():
    game = running_game()
    pause(game.pk, user("ann"), now=SOON)
    with pytest.raises(GameError, match="paused"):
        nominate(game)


def test_only_seated_players_move():
    game = running_game()
    with pytest.raises(GameError, match="do not hold a seat"):
        make_move(game.pk, make_user("zed"), {"type": "vote", "vote": "ja"}, reload(game).step_number, now=SOON)


def test_r23_the_dead_cannot_move():
    actions = governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann"))
    actions.append({"type": "execute", "by": "dan", "target": "eve"})
    game = running_game(actions=actions)
    step = reload(game).step_number
    with pytest.raises(GameError, match="eve is dead"):
        make_move(game.pk, user("eve"), {"type": "nominate", "target": "bob"}, step, now=SOON)


def test_unknown_moves_are_refused():
    game = running_game()
    with pytest.raises(GameError, match="Unknown move"):
        make_move(game.pk, user("ann"), {"type": "cancel"}, reload(game).step_number, now=SOON)
