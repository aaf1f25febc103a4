"""`make run`'s worker on the embedded defaults (SQLite, the filesystem broker, the console email backend): its
console shows the emails it sends as they are, not as warnings, and no warning about the broker's URL."""

import re
import subprocess
import sys
import time

import pytest

from .processes import ROOT, environment, python

pytestmark = [pytest.mark.processes, pytest.mark.slow]

QUEUE_AN_EMAIL = """
import django
django.setup()
from django.contrib.auth.models import User
from games.tasks import send_emails
for user in User.objects.all():
    user.email = f"{user.username}@example.org"
    user.save(update_fields=["email"])
send_emails.delay()
"""


def run(*args: str, env: dict) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result


def test_the_worker_prints_emails_as_they_are_and_no_broker_warning(tmp_path):
    env = environment(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", REDIS_URL="", EMAIL_HOST="", DEBUG="1")
    env.pop("EMAIL_BACKEND", None)
    run("manage.py", "migrate", "-v0", env=env)
    scenario = str(ROOT.parent / "shared" / "scenarios" / "abstain-elects.json")
    sender = run("manage.py", "import_replay", scenario, env=env).stderr
    sender += run("-c", QUEUE_AN_EMAIL, env=env).stderr
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "sh_site", "worker", "--concurrency=1", "--loglevel=INFO"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        output = ""
        while time.monotonic() < deadline and not re.search(r"games\.send_emails\[.*\] succeeded", output):
            output += worker.stdout.readline()
    finally:
        worker.terminate()
        output += worker.communicate(timeout=20)[0]
    assert "Subject: Your move in Imported game" in output, output
    assert "WARNING celery.redirected" not in output, output
    assert "No hostname was supplied" not in output + sender, output + sender


def test_production_settings_keep_their_broker_and_the_stdout_redirect():
    settings = python(
        "from django.conf import settings as s\n"
        "print(s.CELERY_BROKER_URL, s.EMAIL_BACKEND, s.CELERY_WORKER_REDIRECT_STDOUTS)",
        REDIS_URL="redis://127.0.0.1:6379/14",
        EMAIL_HOST="smtp.example.org",
    )
    assert settings.returncode == 0, settings.stderr
    assert settings.stdout.split() == [
        "redis://127.0.0.1:6379/14",
        "django.core.mail.backends.smtp.EmailBackend",
        "True",
    ]
