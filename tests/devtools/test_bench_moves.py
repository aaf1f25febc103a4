"""`manage.py bench_moves`, run small: moves made through HTTP beside the one-row write, none lost or doubled, and
nothing left behind."""

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Game

# It starts gunicorn, which reads what the command made: committed rows, a server of its own.
pytestmark = [pytest.mark.processes, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_bench_moves_makes_moves_beside_the_one_row_write_and_cleans_up():
    out = StringIO()
    # Games enough that no machine ends them all within the run (the command stops if it does): a game takes 30
    # moves at least, 600 for a client's 20, past what the bare one-row write does in 2 seconds.
    call_command("bench_moves", "--games", "40", "--clients", "2", "--seconds", "2", "--workers", "1", stdout=out)
    result = json.loads(out.getvalue())
    for figures in (result["moves"], result["limit_one_row_write"]):
        assert figures["requests"] > 0 and figures["errors"] == 0
        assert figures["per_second"] > 0 and figures["p99_ms"] >= figures["p95_ms"] >= figures["p50_ms"] > 0
    # Figures to read side by side (docs/measurements.md), not bounds: a busy machine slows one more than the other.
    assert result["moves_share_of_limit"] > 0 and result["target_share"] == 0.5
    assert not Game.objects.exists() and not get_user_model().objects.exists()
