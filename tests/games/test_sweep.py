"""The deadline sweep (T4, E2-E7): due deadlines applied exactly once, time moved with time-machine."""

from datetime import timedelta

import pytest
import time_machine

from games.models import ActionRecord, Game, GameEvent, Seat, SweepRun
from games.services import (
    create_game,
    declare_absence,
    extend,
    join_game,
    make_move,
    participation_record,
    pause,
    sweep_due_deadlines,
)
from games.tasks import sweep_deadlines
from tests.factories import START, make_user, running_game, votes

from .helpers import reload, state_of, user

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def test_t4_a_passed_nomination_deadline_fails_the_candidacy():
    game = running_game()
    assert sweep_due_deadlines(now=START + 47 * HOUR) == 0
    assert sweep_due_deadlines(now=START + 48 * HOUR) == 1
    s = state_of(game)
    assert (s["round"], s["president"], s["election_tracker"]) == (2, "bob", 1)
    assert reload(game).deadline == START + 96 * HOUR
    record = ActionRecord.objects.filter(game=game).last()
    assert (record.action, record.source) == ({"type": "timeout"}, ActionRecord.Source.DEADLINE)


def test_t4_a_second_sweep_finds_nothing_to_do():
    game = running_game()
    assert sweep_due_deadlines(now=START + 49 * HOUR) == 1
    events = GameEvent.objects.filter(game=game).count()
    assert sweep_due_deadlines(now=START + 49 * HOUR) == 0
    assert GameEvent.objects.filter(game=game).count() == events


def test_t4_vote_deadline_with_missing_ballots_abstaining():
    game = running_game(7, actions=[{"type": "nominate", "by": "ann", "target": "bob"}, *votes("ann", "bob")])
    sweep_due_deadlines(now=START + 5 * 24 * HOUR)
    assert state_of(game)["step"] == "discard"


def test_t5_paused_games_are_not_swept():
    game = running_game()
    pause(game.pk, user("ann"), now=START + HOUR)
    assert sweep_due_deadlines(now=START + 100 * HOUR) == 0


def test_a_deadline_overtaken_by_a_move_is_not_applied():
    game = running_game()
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, 1, now=START + 47 * HOUR)
    assert sweep_due_deadlines(now=START + 48 * HOUR) == 0
    assert state_of(game)["step"] == "vote"


def test_a_moved_deadline_is_not_applied():
    game = running_game()
    extend(game.pk, user("ann"), hours=24, now=START + HOUR)
    assert sweep_due_deadlines(now=START + 48 * HOUR) == 0
    assert sweep_due_deadlines(now=START + 72 * HOUR) == 1


def test_e3_e6_e7_two_missed_rounds_exile_and_are_recorded():
    game = running_game()
    sweep_due_deadlines(now=START + 48 * HOUR)  # ann misses her nomination
    assert GameEvent.objects.filter(game=game, type="warned", data__player="ann").exists()
    sweep_due_deadlines(now=START + 96 * HOUR)  # bob misses; ann owed nothing: her count stays
    with time_machine.travel(START + 97 * HOUR, tick=False):
        make_move(game.pk, user("cat"), {"type": "nominate", "target": "dan"}, reload(game).step_number)
        for name in ("bob", "cat", "dan", "eve"):
            make_move(game.pk, user(name), {"type": "vote", "vote": "nein"}, reload(game).step_number)
    sweep_due_deadlines(now=START + (96 + 168) * HOUR)  # ann misses her ballot: second round in a row
    s = state_of(game)
    assert s["exiled"] == ["ann"]
    seat = Seat.objects.get(game=game, user__username="ann")
    assert (seat.active, seat.exile_reason, seat.rounds_missed) == (False, "missed_rounds", 2)
    assert participation_record(user("ann")) == {"games": 1, "rounds_missed": 2, "exiles": 1}
    assert participation_record(user("bob"))["rounds_missed"] == 1


def test_e4_a_miss_inside_an_announced_absence_is_excused():
    game = running_game()
    declare_absence(game.pk, user("ann"), START + 30 * HOUR, START + 60 * HOUR, now=START)
    sweep_due_deadlines(now=START + 48 * HOUR)
    assert state_of(game)["missed"]["ann"] == 0
    types = [r.action["type"] for r in ActionRecord.objects.filter(game=game).order_by("index")]
    assert types[-2:] == ["absence", "timeout"]


def test_e5_a_substitute_takes_the_exiled_seat():
    game = running_game()
    join_game(game.pk, make_user("sam"), as_substitute=True, now=START)
    sweep_due_deadlines(now=START + 48 * HOUR)  # ann misses
    sweep_due_deadlines(now=START + 96 * HOUR)  # bob misses
    with time_machine.travel(START + 97 * HOUR, tick=False):
        make_move(game.pk, user("cat"), {"type": "nominate", "target": "dan"}, reload(game).step_number)
        for name in ("bob", "cat", "dan", "eve"):
            make_move(game.pk, user(name), {"type": "vote", "vote": "ja"}, reload(game).step_number)
    sweep_due_deadlines(now=START + (96 + 168) * HOUR)  # ann misses her ballot; the government is elected
    with time_machine.travel(START + 265 * HOUR, tick=False):
        make_move(game.pk, user("cat"), {"type": "discard", "policy": "F"}, reload(game).step_number)
        make_move(game.pk, user("dan"), {"type": "enact", "policy": "F"}, reload(game).step_number)
    s = state_of(game)
    assert s["alive"] == ["sam", "bob", "cat", "dan", "eve"]
    sam = Seat.objects.get(game=game, user__username="sam")
    assert (sam.number, sam.active, sam.is_substitute) == (0, True, True)


def test_the_task_is_safe_to_deliver_twice_and_records_its_run():
    game = running_game()
    with time_machine.travel(START + 49 * HOUR, tick=False):
        assert sweep_deadlines() == 1
        assert sweep_deadlines() == 0
        assert SweepRun.objects.get(task="deadlines").finished_at == START + 49 * HOUR
    assert state_of(game)["round"] == 2


def test_a_finished_game_has_no_deadline():
    actions = [{"type": "cancel"}]
    game = running_game(actions=actions)
    assert (game.status, game.deadline) == (Game.Status.CANCELLED, None)


def test_durations_are_bounded_and_one_broken_game_does_not_stop_the_sweep():
    with pytest.raises(Exception, match="less than or equal to 1440"):
        create_game(make_user("ann"), election_hours=100_000_000)
    broken, fine = running_game(), running_game()
    Game.objects.filter(pk=broken.pk).update(nomination_hours=10**9)  # as if it got past the checks
    assert sweep_due_deadlines(now=START + timedelta(hours=49)) == 1
    assert state_of(fine)["round"] == 2 and state_of(broken)["round"] == 1
