"""Issue 30: on PostgreSQL a page's queries are prepared on their connection from their second run, so that a page
read again is not planned again (the thread's fingerprint: 2 ms planned, 0.6 ms run); through PgBouncer in
transaction mode nothing is prepared (sh_site/env.py)."""

from pathlib import Path

import pytest
from django.db import connection

from sh_site.env import database_from_url
from tests.factories import running_game

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_a_thread_page_read_again_runs_its_queries_prepared(client_for):
    game = running_game(actions=[{"type": "timeout"}])
    client = client_for("zed")
    for _ in range(3):
        assert client.get(f"/games/{game.pk}/").status_code == 200
    statements = prepared()
    assert any("live_posts" in text or "p.hidden" in text for text in statements), statements  # the fingerprint
    assert any('FROM "games_post"' in text and "LIMIT" in text for text in statements), statements  # the page


def test_queries_are_prepared_on_a_direct_connection_only():
    direct = database_from_url("postgres://sh@db:5432/sh", ROOT)["OPTIONS"]
    pooled = database_from_url("postgres://sh@pgbouncer:6432/sh", ROOT, behind_pgbouncer=True).get("OPTIONS", {})
    assert direct["server_side_binding"] is True and direct["prepare_threshold"] == 2
    assert "prepare_threshold" not in pooled and "server_side_binding" not in pooled
