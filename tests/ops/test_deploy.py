"""Issue 20: the deploy/ folder. Its systemd units pass `systemd-analyze verify` (their paths pointed at this
checkout, as they would be at /srv/sh-moderator), gunicorn accepts its configuration, and the backup script
makes a dump that pg_restore reads."""

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from devtools.bench.http import BrowserClient, free_port
from devtools.chaos.services import Site, database_url, wait_until

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"


def installed(tmp_path: Path) -> Path:
    """The units as installed from this checkout: /srv/sh-moderator is here, its .venv this one's."""
    target = tmp_path / "units"
    target.mkdir()
    venv = Path(sys.executable).parent.parent
    for unit in UNITS.iterdir():
        text = unit.read_text().replace("/srv/sh-moderator/.venv", str(venv)).replace("/srv/sh-moderator", str(ROOT))
        (target / unit.name).write_text(text)
    # A template is verified through an instance of it.
    shutil.copy(target / "sh-worker@.service", target / "sh-worker@1.service")
    return target


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_the_systemd_units_verify(tmp_path):
    target = installed(tmp_path)
    names = sorted(p.name for p in target.iterdir() if p.name != "sh-worker@.service")
    assert {"sh-web.service", "sh-worker@1.service", "sh-beat.service", "sh-check-health.timer"} <= set(names)
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", *names], cwd=target, capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stdout + result.stderr


def test_exactly_one_beat_unit_and_the_health_timer_runs_check_health():
    beats = [unit.name for unit in UNITS.iterdir() if "celery" in unit.read_text() and " beat" in unit.read_text()]
    assert beats == ["sh-beat.service"]
    assert "manage.py check_health" in (UNITS / "sh-check-health.service").read_text()
    assert "OnUnitActiveSec=5min" in (UNITS / "sh-check-health.timer").read_text()


def test_gunicorn_accepts_its_configuration():
    gunicorn = Path(sys.executable).with_name("gunicorn")
    config = ROOT / "deploy" / "gunicorn.conf.py"
    result = subprocess.run([str(gunicorn), "--check-config", "--config", str(config), "sh_site.wsgi"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


# Issue 27: addresses that are secrets themselves, as a request line shows them.
SECRET_ADDRESSES = {
    "/calendar/Qw3rTyUiOpAsDfGhJkLzXcVbNm.ics": "Qw3rTyUiOp",
    "/unsubscribe/eyJ1IjoxLCJjIjpbIm1vdmVzIl19:1tXyZa:Qw3rTyUi0pAsDf/": "eyJ1IjoxLCJj",
    "/accounts/password/reset/key/1b-c3k2ub-7d4e2d0a1b5f4c5e2a7f/": "c3k2ub-7d4e",
    "/accounts/confirm-email/MQ:1tXyZa:k7Qm2vX9pLr4sTuVwXyZ/": "k7Qm2vX9",
}


@pytest.mark.processes
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_gunicorns_access_log_masks_secret_addresses():
    """gunicorn writes each request line itself (accesslog in deploy/gunicorn.conf.py), not through the site's
    logging: a calendar feed, an unsubscribe link, a password reset or an email confirmation key must not reach
    the journal through it either."""
    port = free_port()
    site = Site(BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1", REDIS_URL="")
    try:
        gunicorn = Path(sys.executable).with_name("gunicorn")
        site.start("web", str(gunicorn), "--config", str(ROOT / "deploy" / "gunicorn.conf.py"), "sh_site.wsgi")
        client = BrowserClient(port, {})
        assert wait_until(lambda: asyncio.run(client.exchange("GET", "/healthz", []))[0] != 0, 60), site.log("web")
        for path in SECRET_ADDRESSES:
            assert asyncio.run(client.exchange("GET", path, []))[0] in (200, 302, 404)
        access = [line for line in site.log("web").splitlines() if line.startswith("127.0.0.1 ")]
        assert len([line for line in access if "/***" in line]) == len(SECRET_ADDRESSES), access
        assert not [secret for secret in SECRET_ADDRESSES.values() if secret in site.log("web")], site.log("web")
    finally:
        site.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_backup_script_makes_a_dump_pg_restore_reads(tmp_path):
    from tests.factories import running_game

    running_game()
    env = {**os.environ, "DATABASE_URL": database_url(), "BACKUP_DIR": str(tmp_path), "BACKUP_KEEP_DAYS": "14"}
    result = subprocess.run([str(ROOT / "deploy" / "backup.sh")], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    (dump,) = tmp_path.glob("sh-moderator-*.dump")
    listing = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True, check=True).stdout
    assert "TABLE DATA public games_game" in listing
