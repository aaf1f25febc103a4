"""`manage.py bench_reminders`: one email per game step, and nothing left behind."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Notification

pytestmark = pytest.mark.django_db


def test_bench_reminders_command_sends_one_email_per_game_step_and_cleans_up():
    out = StringIO()
    call_command("bench_reminders", "--users", "20", "--per-user", "5", stdout=out)
    result = json.loads(out.getvalue())
    assert (result["users"], result["reminders"], result["emails"]) == (20, 100, 100)
    assert not Notification.objects.filter(user__username__startswith="bench-").exists()
