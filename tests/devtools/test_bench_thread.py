"""`manage.py bench_thread`: measures a long thread's last page, and leaves nothing behind."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game

pytestmark = pytest.mark.django_db


def test_bench_thread_command_measures_and_cleans_up():
    out = StringIO()
    call_command("bench_thread", "--posts", "60", "--renders", "2", stdout=out)
    result = json.loads(out.getvalue())
    assert result["posts"] == 60 and result["median_ms"] > 0
    assert not Game.objects.exists()
