"""Issue 19: outages of the broker, the database and the mail server, with real services the tests start on
free ports and stop themselves, and the site's real processes (gunicorn, Celery worker, beat). Outages of
seconds here; `make chaos` runs the long ones (devtools/chaos)."""

import pytest

from devtools.chaos import scenarios

pytestmark = [pytest.mark.chaos, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_t4_broker_down_moves_keep_working_and_every_deadline_and_email_is_handled_once_after():
    figures = scenarios.broker_outage(outage=6, games=8, moves=3, interval=1)
    print(figures)
    assert figures["move_errors"] == 0 and figures["moves_during_outage"] == 3
    assert figures["deadlines_handled"] == figures["deadlines_due"] == 8
    assert figures["deadlines_doubled"] == figures["deadlines_lost"] == 0
    assert figures["emails_sent"] == figures["emails_due"] > 0 and figures["emails_doubled"] == 0
    assert figures["ok"]


def test_t4_database_restarted_mid_sweep_and_mid_move_leaves_nothing_half_done_and_loses_no_deadline():
    figures = scenarios.database_restart(games=20)
    print(figures)
    assert figures["games_half_written_errors"] == 0  # the sweep's half-written batch rolled back
    assert figures["deadlines_handled"] == figures["deadlines_due"] == 20
    assert figures["deadlines_doubled"] == figures["deadlines_lost"] == 0
    assert figures["move_answer_during_restart"] == 503 and figures["move_recorded_during_restart"] == 0
    assert figures["page_after_restart"] == 200  # the web process reconnected by itself
    assert figures["move_after_restart"] == 302 and figures["move_recorded_after_restart"] == 1
    assert figures["processes_restarted"] == 0 and figures["ok"]


def test_mail_server_down_emails_wait_and_go_once_a_refused_address_is_marked_and_health_stays_true():
    figures = scenarios.mail_outage(outage=6, games=8, interval=1)
    print(figures)
    assert figures["deadlines_handled"] == figures["deadlines_due"] == 8 and figures["deadlines_doubled"] == 0
    assert figures["emails_sent"] == figures["emails_due"] > 0 and figures["emails_doubled"] == 0
    assert figures["healthz_checks"] > 0 and figures["healthz_errors"] == 0
    assert figures["outbox_sweep_recorded_meanwhile"]
    assert figures["refused_address_tries"] == 1 and figures["refused_address_marked"]
    assert figures["ok"]


def test_production_shape_50_players_20_games_a_worker_killed_nothing_lost_doubled_or_5xx():
    """Issue 19: gunicorn (4 workers), 2 Celery workers and beat, PostgreSQL and Redis; 50 players through the
    API with minute-long steps; one worker killed with SIGKILL and started again."""
    figures = scenarios.production_shape(players=50, games=20, seconds=150, interval=2)
    print(figures)
    assert figures["server_errors"] == 0, figures["statuses"]
    assert figures["moves_accepted"] > 50 and figures["moves_lost"] == figures["moves_doubled"] == 0
    assert figures["deadlines_handled"] > 0 and figures["deadlines_stuck"] == 0
    assert figures["replay_errors"] == 0
    assert 0 < figures["emails_sent"] <= figures["emails_delivered"] and figures["emails_doubled"] == 0
    assert figures["ok"]
