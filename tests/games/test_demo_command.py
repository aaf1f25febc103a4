"""`manage.py demo` (README, "Try it"): it prints where `make run` serves the site, and its fast game moves on by
itself within two minutes of its start, as the README promises ("as you watch"); its rated games make a
leaderboard."""

import shutil
import subprocess
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from games.management.commands.demo import PLAYERS, RATED_TABLES
from games.models import Game, RatedGame
from games.services.deadlines import sweep_due_deadlines
from games.services.ratings import leaderboard

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def load_demo() -> str:
    out = StringIO()
    with override_settings(DEBUG=True):
        call_command("demo", stdout=out)
    return out.getvalue()


@override_settings(SITE_URL="http://127.0.0.1:8311")
def test_the_demo_prints_the_sign_in_url_of_site_url():
    assert "Sign in at http://127.0.0.1:8311/accounts/login/" in load_demo()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_passes_host_and_site_url_to_the_demo_step():
    dry = subprocess.run(
        ["make", "-n", "-W", ".venv/.installed", "run", "HOST=127.0.0.1:8311"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    ).stdout
    demo = next(line for line in dry.splitlines() if "manage.py demo" in line)
    assert "HOST=127.0.0.1:8311" in demo and 'SITE_URL="${SITE_URL:-http://127.0.0.1:8311}"' in demo


def test_t1_the_demo_s_fast_game_times_out_within_two_minutes_of_its_start():
    started = timezone.now()
    load_demo()
    game = Game.objects.get(name="Demo: minute-long deadlines")
    assert game.status == Game.Status.RUNNING
    assert game.deadline <= started + timedelta(minutes=2)
    step = game.step_number
    assert sweep_due_deadlines(now=started + timedelta(minutes=2)) >= 1
    game.refresh_from_db()
    assert game.step_number > step  # the game moved on by itself: nobody played


def test_r23_the_demo_has_a_president_choosing_whom_to_execute():
    load_demo()
    state = Game.objects.get(name="Demo: an execution to choose").load_state()
    assert state.step == "execute" and state.seats[state.president].name == "dan"
    assert state.fascist_policies == 4 and all(seat.status == "alive" for seat in state.seats)


def test_the_demo_has_a_leaderboard_of_every_demo_player():
    load_demo()
    board = leaderboard()
    assert sorted(rating.user.username for rating in board) == sorted(PLAYERS)
    assert load_demo() and RatedGame.objects.count() == RATED_TABLES + 1  # loaded twice: rated once
