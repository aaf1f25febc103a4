"""One bad game never stops the others: a game whose deadline cannot be applied, whether in the engine, while
writing or while notifying, is set aside with its error on record and retried after a back-off; the rest of
its batch, the other periodic tasks and the emails go on. A mail server that refuses connections stops nothing."""

import re
import socket
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from games.models import Game, Notification, SweepRun
from games.services import play as play_module
from games.services import sweep_due_deadlines
from games.services.deadlines import retry_after
from games.tasks import send_emails, sweep_deadlines
from tests.factories import START, make_user, running_game, with_second_factor

from .helpers import reload, state_of

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)
DUE = START + 48 * HOUR  # every game's nomination deadline


def games(count: int = 5) -> list[Game]:
    made = [running_game() for _ in range(count)]
    for number, game in enumerate(made):
        Game.objects.filter(pk=game.pk).update(name=f"game {number}")
    return [reload(game) for game in made]


def test_a_game_whose_state_cannot_be_read_is_set_aside_and_the_others_handled():
    made = games()
    Game.objects.filter(pk=made[2].pk).update(state='{"broken": true}')
    assert sweep_due_deadlines(now=DUE, batch_size=100) == 4
    for game in made[:2] + made[3:]:
        assert state_of(game)["round"] == 2
    broken = reload(made[2])
    assert (broken.sweep_failures, broken.sweep_retry_at) == (1, DUE + timedelta(minutes=1))
    assert broken.sweep_error.startswith("UnreadableState")  # a state no version can read


def test_a_game_failing_while_its_rows_are_written_fails_alone(monkeypatch):
    made = games()
    notify = play_module.notify_changes

    def notify_but_not_game_3(changes):
        if any(change.game.name == "game 3" for change in changes):
            raise RuntimeError("the notifications of game 3 cannot be made")
        notify(changes)

    monkeypatch.setattr(play_module, "notify_changes", notify_but_not_game_3)
    events_before = reload(made[3]).events.count()
    assert sweep_due_deadlines(now=DUE, batch_size=100) == 4  # the batch's writes failed, then game by game
    assert [state_of(game)["round"] for game in made] == [2, 2, 2, 1, 2]
    failed = reload(made[3])
    assert failed.sweep_failures == 1 and "game 3 cannot be made" in failed.sweep_error
    assert failed.events.count() == events_before  # nothing of game 3's timeout was kept


def test_a_set_aside_game_is_retried_after_a_back_off_and_cleared_when_it_succeeds(monkeypatch):
    (game,) = games(1)
    state = reload(game).state
    Game.objects.filter(pk=game.pk).update(state='{"broken": true}')
    assert sweep_due_deadlines(now=DUE) == 0
    assert sweep_due_deadlines(now=DUE + timedelta(seconds=59)) == 0  # not tried again before its time
    assert reload(game).sweep_failures == 1
    assert sweep_due_deadlines(now=DUE + timedelta(minutes=1)) == 0
    assert (reload(game).sweep_failures, reload(game).sweep_retry_at) == (2, DUE + timedelta(minutes=3))
    Game.objects.filter(pk=game.pk).update(state=state)  # mended
    assert sweep_due_deadlines(now=DUE + timedelta(minutes=3)) == 1
    mended = reload(game)
    assert (mended.sweep_failures, mended.sweep_error, mended.sweep_retry_at) == (0, "", None)


def test_a_failure_is_counted_in_the_update_that_records_it_never_read_then_written_back():
    """Two sweeps that set the same game aside at once both count: a count read first, then written back, loses
    the other's failure."""
    (game,) = games(1)
    Game.objects.filter(pk=game.pk).update(state='{"broken": true}', sweep_failures=2)
    with CaptureQueriesContext(connection) as queries:
        assert sweep_due_deadlines(now=DUE) == 0
    statements = [query["sql"] for query in queries]
    assert not [sql for sql in statements if re.match(r'SELECT "games_game"\."sweep_failures"\W', sql)]
    (counted,) = [sql for sql in statements if sql.startswith("UPDATE") and '"sweep_failures" =' in sql]
    assert '"sweep_failures" = ("games_game"."sweep_failures" + 1)' in counted
    assert (reload(game).sweep_failures, reload(game).sweep_retry_at) == (3, DUE + timedelta(minutes=4))


def test_the_back_off_doubles_up_to_an_hour():
    assert [retry_after(n) for n in (1, 2, 3, 7, 8, 20, 42, 10_000)] == [
        timedelta(minutes=1),
        timedelta(minutes=2),
        timedelta(minutes=4),
        timedelta(minutes=60),
        timedelta(minutes=60),
        timedelta(minutes=60),
        timedelta(minutes=60),  # a game that fails for days never overflows the back-off
        timedelta(minutes=60),
    ]


def test_the_dashboard_shows_a_set_aside_game(client_for):
    from django.contrib.auth.models import Group

    made = games(2)
    Game.objects.filter(pk=made[0].pk).update(state='{"broken": true}')
    sweep_due_deadlines(now=DUE)
    moderator = client_for("mod")
    from django.contrib.auth import get_user_model

    get_user_model().objects.get(username="mod").groups.add(Group.objects.get(name="moderators"))
    with_second_factor(moderator, get_user_model().objects.get(username="mod"))
    page = moderator.get("/moderation/").content.decode()
    assert "The sweep failed on this game once" in page and "UnreadableState" in page
    assert "the stored state cannot be read" in page


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once the probe is closed


def test_a_mail_server_refusing_connections_stops_neither_the_outbox_task_nor_the_sweep():
    make_user("ann")  # with an email address
    (game,) = games(1)
    due = Notification.objects.get(game=game, kind=Notification.Kind.YOUR_MOVE).email_due_at  # "your move" for ann
    smtp = {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": "127.0.0.1"}
    with override_settings(**smtp, EMAIL_PORT=_closed_port(), EMAIL_TIMEOUT=2), time_machine.travel(START + HOUR):
        assert send_emails() == 0
        assert sweep_deadlines() == 0  # the deadline is not due yet: the task ran all the same
    runs = dict(SweepRun.objects.values_list("task", "handled"))
    assert runs == {"outbox": 0, "deadlines": 0}
    waiting = Notification.objects.get(game=game, kind=Notification.Kind.YOUR_MOVE)
    # Back in the outbox as it was, for the next run: the outage uses up none of its tries.
    assert (waiting.email, waiting.attempts, waiting.email_due_at, waiting.claimed_at) == (
        Notification.Email.PENDING,
        0,
        due,
        None,
    )
    assert mail.outbox == []
