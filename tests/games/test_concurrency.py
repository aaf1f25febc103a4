"""Faults and races on PostgreSQL, with real threads and processes: each deadline is resolved exactly once."""

import signal
from datetime import timedelta
from functools import partial

import pytest

from games.models import ActionRecord, Game
from games.services import GameError, make_move, sweep_due_deadlines
from tests.factories import START, running_game

from .helpers import in_threads, reload, state_of, user
from .processes import python

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
DUE = START + timedelta(hours=48)


def timeouts(game) -> int:
    return ActionRecord.objects.filter(game=game, action={"type": "timeout"}).count()


def test_two_sweeps_at_once_handle_every_deadline_once():
    games = [running_game() for _ in range(40)]
    handled = in_threads(
        lambda: sweep_due_deadlines(now=DUE, batch_size=5), lambda: sweep_due_deadlines(now=DUE, batch_size=5)
    )
    assert sum(handled) == 40
    assert [timeouts(game) for game in games] == [1] * 40
    assert {state_of(game)["round"] for game in games} == {2}


def test_a_move_at_the_second_the_deadline_passes_is_resolved_once():
    for attempt in range(8):
        game = running_game()
        step = reload(game).step_number
        just_before = DUE - timedelta(microseconds=1)
        move = partial(make_move, game.pk, user("ann"), {"type": "nominate", "target": "bob"}, step, now=just_before)
        results = in_threads(move, partial(sweep_due_deadlines, now=DUE))
        nominated = not isinstance(results[0], Exception)
        swept = results[1] == 1
        assert nominated != swept, (attempt, results)
        if not nominated:
            assert isinstance(results[0], GameError) and "moved on" in str(results[0])
        assert timeouts(game) == (1 if swept else 0)
        assert state_of(game)["step"] == ("nominate" if swept else "vote")


def test_a_worker_killed_mid_sweep_loses_nothing_and_applies_nothing():
    game = running_game()
    killed = python(
        "import os, signal\n"
        "from datetime import datetime, UTC\n"
        "from games.services import deadlines\n"
        "write = deadlines.persist\n"
        "def write_then_die(changes):\n"
        "    write(changes)\n"
        "    os.kill(os.getpid(), signal.SIGKILL)  # before the transaction commits\n"
        "deadlines.persist = write_then_die\n"
        f"deadlines.sweep_due_deadlines(now=datetime.fromisoformat('{DUE.isoformat()}'))\n"
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert timeouts(game) == 0
    assert state_of(game)["round"] == 1
    assert sweep_due_deadlines(now=DUE) == 1
    assert timeouts(game) == 1
    assert Game.objects.get(pk=game.pk).deadline == DUE + timedelta(hours=48)


def test_e4_a_player_and_a_moderator_ending_one_absence_at_once_never_deadlock():
    """Both lock the game before the absence: one ends it, the other finds it ended; neither gets an error."""
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from games.models import Absence
    from games.services.absences import withdraw_absence
    from moderation.services import end_absence
    from tests.factories import make_user

    moderator = make_user("zoe")
    moderator.groups.add(Group.objects.get(name="moderators"))
    for attempt in range(6):
        game = running_game(now=timezone.now())
        absence = Absence.objects.create(
            seat=game.seats.get(name="ann"),
            starts_at=timezone.now() - timedelta(hours=1),
            ends_at=timezone.now() + timedelta(days=1),
        )
        results = in_threads(
            partial(withdraw_absence, absence.pk, user("ann")),
            partial(end_absence, moderator, absence.pk, "back early"),
        )
        failures = [r for r in results if isinstance(r, Exception) and not isinstance(r, GameError)]
        assert failures == [], f"attempt {attempt}: {failures}"
        absence.refresh_from_db()
        assert absence.ended_early_at is not None
