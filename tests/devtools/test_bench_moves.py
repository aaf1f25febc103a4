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
    call_command("bench_moves", "--games", "4", "--clients", "2", "--seconds", "2", "--workers", "1", stdout=out)
    result = json.loads(out.getvalue())
    assert result["moves"]["requests"] > 0 and result["moves"]["errors"] == 0
    assert result["limit_one_row_write"]["requests"] > 0 and result["limit_one_row_write"]["errors"] == 0
    assert 0 < result["moves_share_of_limit"] < 1 and result["target_share"] == 0.5
    assert not Game.objects.exists() and not get_user_model().objects.exists()
