"""Issue 20: the deploy/ folder. Its systemd units pass `systemd-analyze verify` (their paths pointed at this
checkout, as they would be at /srv/sh-moderator), gunicorn accepts its configuration, and the backup script
makes a dump that pg_restore reads."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.management.chaos.services import database_url

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
