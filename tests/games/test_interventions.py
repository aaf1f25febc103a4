"""Moderators' interventions (T5, E8) through the service layer, and what they leave in the log."""

from datetime import timedelta

import pytest

from games.models import ActionRecord, Game, Seat
from games.services import GameError, cancel, end_now, excuse, exile, replace, resume, sweep_due_deadlines
from games.services.transfer import export_script
from tests.factories import START, make_user, running_game

from .helpers import reload, state_of

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


@pytest.fixture
def moderator():
    return make_user("mod")


def test_t5_end_now_applies_the_outcome_at_once(moderator):
    game = running_game()
    end_now(game.pk, moderator, now=START + HOUR)
    s = state_of(game)
    assert (s["round"], s["president"], s["missed"]["ann"]) == (2, "bob", 1)
    record = ActionRecord.objects.filter(game=game).last()
    assert (record.source, record.actor_name) == (ActionRecord.Source.MODERATOR, "mod")
    assert reload(game).deadline == START + 49 * HOUR


def test_t5_resume_needs_a_pause(moderator):
    with pytest.raises(GameError, match="not paused"):
        resume(running_game().pk, moderator)


def test_e8_excuse_keeps_the_count(moderator):
    game = running_game()
    excuse(game.pk, moderator, "ann", now=START + HOUR)
    sweep_due_deadlines(now=START + 48 * HOUR)
    assert state_of(game)["missed"]["ann"] == 0


def test_e8_exile_at_the_end_of_the_round_recorded_against_the_player(moderator):
    game = running_game()
    exile(game.pk, moderator, "dan", now=START + HOUR)
    assert Seat.objects.get(game=game, user__username="dan").active
    end_now(game.pk, moderator, now=START + 2 * HOUR)
    seat = Seat.objects.get(game=game, user__username="dan")
    assert (seat.active, seat.exile_reason) == (False, "moderator")
    assert state_of(game)["exiled"] == ["dan"]


def test_e8_replace_hands_the_seat_over_held_against_nobody(moderator):
    game = running_game()
    make_user("zoe")
    replace(game.pk, moderator, "cat", "zoe", now=START + HOUR)
    end_now(game.pk, moderator, now=START + 2 * HOUR)
    old = Seat.objects.get(game=game, user__username="cat")
    new = Seat.objects.get(game=game, user__username="zoe")
    assert (old.active, old.exiled_at, old.replaced_at) == (False, None, START + 2 * HOUR)
    assert (new.active, new.number) == (True, 2)
    assert state_of(game)["alive"] == ["ann", "bob", "zoe", "dan", "eve"]
    assert {"type": "replace", "player": "cat", "name": "zoe"} in export_script(reload(game))["actions"]


def test_e8_replace_needs_an_account_not_already_in_the_game(moderator):
    game = running_game()
    with pytest.raises(GameError, match="no account named"):
        replace(game.pk, moderator, "cat", "nobody")
    with pytest.raises(GameError, match="bob is already in this game"):
        replace(game.pk, moderator, "cat", "bob")


def test_e8_cancel_ends_the_game_with_no_winner(moderator):
    game = running_game()
    cancel(game.pk, moderator, now=START + HOUR)
    game = reload(game)
    assert (game.status, game.winner, game.win_reason, game.deadline) == (Game.Status.CANCELLED, "", "cancelled", None)
    with pytest.raises(GameError, match="not running"):
        end_now(game.pk, moderator)


def test_interventions_on_a_missing_game(moderator):
    with pytest.raises(GameError, match="no such game"):
        end_now(12345, moderator)
