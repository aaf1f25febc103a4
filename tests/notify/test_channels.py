"""The channels' one interface: a channel listed in CHANNELS hears of every change (with the notices just made
for it), of the notices made outside a change and of every post; and an outbox's worker is woken by its task's
name, not by importing the tasks."""

import time
from datetime import timedelta

import pytest
from celery import current_app
from django.core import mail

from games import dispatch
from games.notify import Channel, channels
from games.notify.bell import queue_reminders
from games.services import make_move
from games.services.forum import post_message
from tests.factories import START, make_user, running_game
from tests.games.helpers import user

pytestmark = pytest.mark.django_db
heard: list[tuple] = []


class Recorder(Channel):
    """A channel added by a test, as a chat service or web push would be."""

    def changes(self, changes, notices):
        heard.append(("changes", [change.game.pk for change in changes], sorted(n.kind for n in notices)))

    def notices(self, notices, now):
        heard.append(("notices", sorted(n.kind for n in notices)))

    def post(self, game, post, now):
        heard.append(("post", game.pk, post.body))


@pytest.fixture
def recorder(monkeypatch):
    heard.clear()
    monkeypatch.setattr(channels, "CHANNELS", (*channels.CHANNELS, "tests.notify.test_channels.Recorder"))
    channels.channels.cache_clear()
    yield heard
    channels.channels.cache_clear()


def test_a_new_channel_hears_each_change_with_its_notices_each_mention_and_each_post(recorder):
    game = running_game()
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, 1, now=START)
    post_message(game.pk, user("bob"), "@cat, how do you vote?", now=START)
    assert recorder == [
        ("changes", [game.pk], ["your_move"]),  # the game began: ann owes a nomination
        ("changes", [game.pk], ["your_move"] * 5),  # the nomination: every living player owes a ballot
        ("notices", ["mention"]),
        ("post", game.pk, "@cat, how do you vote?"),
    ]


def test_a_new_channel_hears_the_reminders_of_the_periodic_run(recorder):
    game = running_game()
    recorder.clear()
    assert queue_reminders(now=game.deadline - timedelta(hours=2)) == 1
    assert recorder == [("notices", ["reminder"])]


@pytest.fixture
def eager(monkeypatch):
    """Tasks run in this process when asked for (CELERY_TASK_ALWAYS_EAGER), as without a worker."""
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    monkeypatch.setattr(dispatch, "_broker_failed_at", None)


def test_a_task_asked_for_by_its_name_runs_in_eager_mode(eager):
    ann = make_user("ann")
    running_game()
    dispatch.queue_now("games.send_emails")
    assert [email.to for email in mail.outbox] == [[ann.email]]


def test_after_the_broker_failed_no_request_tries_it_again_until_a_periodic_run_has_passed(eager, settings):
    make_user("ann")
    running_game()
    dispatch._broker_failed_at = time.monotonic()
    dispatch.queue_now("games.send_emails")
    assert mail.outbox == []
    dispatch._broker_failed_at = time.monotonic() - settings.SWEEP_INTERVAL_SECONDS - 1
    dispatch.queue_now("games.send_emails")
    assert len(mail.outbox) == 1 and dispatch._broker_failed_at is None
