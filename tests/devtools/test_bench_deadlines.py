"""`manage.py bench_deadlines`: handles every game it made, counts queries, and leaves nothing behind."""

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def test_bench_handles_every_deadline_and_cleans_up():
    out = StringIO()
    call_command("bench_deadlines", "--games", "30", "--batch-size", "7", stdout=out)
    result = json.loads(out.getvalue())
    assert (result["games"], result["handled"]) == (30, 30)
    assert 0 < result["queries_per_deadline"] < 2
    assert not Game.objects.exists() and not Seat.objects.exists()
    assert not get_user_model().objects.filter(username__startswith="bench-").exists()
