"""T1-T3, T5: every waiting step's deadline, in exact hours from when the step (or the round) began."""

from datetime import UTC, datetime, timedelta

import pytest

from games.services import extend, make_move, pause, resume
from tests.factories import START, governments, running_game, votes

from .helpers import reload, user

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)
NOMINATED = [{"type": "nominate", "by": "ann", "target": "bob"}]
ELECTED = NOMINATED + votes("ann", "bob", "cat", "dan", "eve")


def move(game, name, now, **fields):
    return make_move(game.pk, user(name), fields, reload(game).step_number, now=now)


def test_t1_two_days_to_nominate():
    assert running_game().deadline == START + 48 * HOUR


def test_t1_the_vote_closes_seven_days_after_the_round_began():
    game = running_game()
    move(game, "ann", START + 3 * HOUR, type="nominate", target="bob")
    assert reload(game).deadline == START + 7 * 24 * HOUR


def test_t1_an_imported_vote_gets_its_full_five_days():
    assert running_game(actions=NOMINATED).deadline == START + 5 * 24 * HOUR


def test_t2_president_has_the_first_day_chancellor_until_the_end_of_the_second():
    game = running_game(actions=NOMINATED)
    for name in ("ann", "bob", "cat", "dan", "eve"):
        move(game, name, START + HOUR, type="vote", vote="ja")
    assert reload(game).deadline == START + 25 * HOUR
    move(game, "ann", START + 2 * HOUR, type="discard", policy="F")
    assert reload(game).deadline == START + 49 * HOUR  # the session began at START + 1h


def test_t2_veto_answer_in_a_day_then_one_more_day_to_enact():
    game = running_game(actions=[*ELECTED, {"type": "discard", "by": "ann", "policy": "F"}])
    state = game.load_state()
    state.fascist_policies = 5  # arrange: the veto is unlocked
    game.store_state(state)
    game.save(update_fields=["state"])
    move(game, "bob", START + 5 * HOUR, type="veto")
    assert reload(game).deadline == START + 29 * HOUR
    move(game, "ann", START + 6 * HOUR, type="veto_reply", accept=False)
    assert reload(game).deadline == START + 30 * HOUR


def test_t3_two_days_for_a_power():
    game = running_game(actions=governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann")))
    assert reload(game).deadline == START + 48 * HOUR


def test_deadline_hour_moves_deadlines_to_the_next_such_hour_in_the_game_zone():
    game = running_game()
    game.deadline_hour, game.time_zone = 23, "Europe/Madrid"
    game.save()
    move(game, "ann", START + HOUR, type="nominate", target="bob")
    # START + 7 days is 2026-03-09 12:00 UTC, 13:00 in Madrid: the next 23:00 there is 22:00 UTC.
    assert reload(game).deadline == datetime(2026, 3, 9, 22, 0, tzinfo=UTC)


def test_t5_pause_freezes_and_resume_shifts_by_the_time_paused():
    game = running_game()
    pause(game.pk, user("ann"), now=START + 10 * HOUR)
    assert reload(game).deadline is None
    resume(game.pk, user("ann"), now=START + 34 * HOUR)
    assert reload(game).deadline == START + 72 * HOUR
    move(game, "ann", START + 35 * HOUR, type="nominate", target="bob")
    assert reload(game).deadline == START + (7 * 24 + 24) * HOUR  # the vote moved with the round


def test_t5_extension_moves_the_later_deadlines_of_the_round_too():
    game = running_game()
    assert extend(game.pk, user("ann"), hours=24, now=START + HOUR) == START + 72 * HOUR
    move(game, "ann", START + 2 * HOUR, type="nominate", target="bob")
    assert reload(game).deadline == START + 8 * 24 * HOUR
