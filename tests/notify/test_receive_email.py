"""The MTA's ways in (`deploy/receive_email.py`, `manage.py receive_email`, `manage.py lmtp_server`) when the
site cannot judge a message: the MTA must keep it and try again (exit 75, LMTP 451), and nothing is recorded.

Run as an MTA runs them: real processes, against the test database, with the environment an MTA gives.
"""

import smtplib
import subprocess
import sys

import pytest

from games.management.commands.lmtp_server import lmtp_controller
from games.models import InboundEmail, Post
from tests.factories import reply_to, running_game, your_move_email
from tests.games.processes import ROOT, environment
from tests.notify.conftest import REPLY
from tests.services import free_port

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("reply_players"),
]
SITE_KEY = "the-sites-own-key-" + "k" * 40
OTHER_KEY = "another-sites-key-" + "x" * 40
WRAPPER = [sys.executable, "deploy/receive_email.py"]
COMMAND = [sys.executable, "manage.py", "receive_email"]
CANNOT_JUDGE = {
    "reply-address-unset": ({"SECRET_KEY": SITE_KEY}, "REPLY_ADDRESS is not set"),
    "secret-key-missing": ({"REPLY_ADDRESS": REPLY}, "another key than the site's"),
    "another-secret-key": ({"REPLY_ADDRESS": REPLY, "SECRET_KEY": OTHER_KEY}, "another key than the site's"),
}
CANNOT_START = {
    "email-port-not-a-number": (
        {"REPLY_ADDRESS": REPLY, "SECRET_KEY": SITE_KEY, "EMAIL_PORT": "abc"},
        "EMAIL_PORT must be an integer",
    ),
    "production-without-secret-key": (
        {"REPLY_ADDRESS": REPLY, "DEBUG": "0", "ALLOWED_HOSTS": "sh.example.org", "SITE_URL": "https://sh.example.org"},
        "missing: SECRET_KEY",
    ),
}


@pytest.fixture
def reply(settings) -> tuple[bytes, str]:
    """A genuine reply to ann's "your move" email, signed with the site's key, and its reply address."""
    settings.SECRET_KEY = SITE_KEY
    message = your_move_email(running_game())
    return reply_to(message, "Genuine words."), message.extra_headers["Reply-To"]


def pipe(entry: list[str], raw: bytes, recipient: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*entry, "--recipient", recipient], input=raw, cwd=ROOT, env=env, capture_output=True, check=False, timeout=120
    )


def mta_environment(**extra: str) -> dict:
    """The test database, and none of the settings under test unless given."""
    env = environment(**extra)
    for name in ("REPLY_ADDRESS", "SECRET_KEY", "DEBUG", "EMAIL_PORT", "ALLOWED_HOSTS", "SITE_URL"):
        if name not in extra:
            env.pop(name, None)
    return env


def assert_kept_for_a_retry(piped: subprocess.CompletedProcess, reason: str) -> None:
    stderr = piped.stderr.decode()
    assert piped.returncode == 75, stderr[-800:]
    assert reason in stderr and "tries again" in stderr
    assert not InboundEmail.objects.exists() and not Post.objects.exists()


@pytest.mark.parametrize("entry", [WRAPPER, COMMAND], ids=["wrapper", "command"])
@pytest.mark.parametrize("env, reason", CANNOT_JUDGE.values(), ids=CANNOT_JUDGE.keys())
def test_a_site_that_cannot_judge_a_reply_exits_75_and_records_nothing(reply, entry, env, reason):
    raw, address = reply
    assert_kept_for_a_retry(pipe(entry, raw, address, mta_environment(**env)), reason)


@pytest.mark.parametrize("env, reason", CANNOT_START.values(), ids=CANNOT_START.keys())
def test_a_site_that_cannot_start_exits_75_through_the_mtas_entry_point(reply, env, reason):
    raw, address = reply
    assert_kept_for_a_retry(pipe(WRAPPER, raw, address, mta_environment(**env)), reason)


def test_with_postfixs_empty_environment_the_env_file_gives_the_site_its_settings(reply, tmp_path):
    raw, address = reply
    site = environment()
    env_file = tmp_path / "env"
    env_file.write_text(
        "# the site's settings, as the systemd units read them\n"
        f"DATABASE_URL={site['DATABASE_URL']}\n"
        f"REDIS_URL={site.get('REDIS_URL', '')}\n"
        f'SECRET_KEY="{SITE_KEY}"\n'
        f"REPLY_ADDRESS={REPLY}\n"
    )
    piped = pipe([*WRAPPER, "--env-file", str(env_file)], raw, address, env={})
    assert piped.returncode == 0, piped.stderr.decode()[-800:]
    assert list(Post.objects.values_list("body", flat=True)) == ["Genuine words."]


def test_an_unreadable_env_file_exits_75(reply, tmp_path):
    raw, address = reply
    piped = pipe([*WRAPPER, "--env-file", str(tmp_path / "missing")], raw, address, env={})
    assert_kept_for_a_retry(piped, "No such file or directory")


@pytest.mark.parametrize("case", ["reply-address-unset", "another-secret-key"])
def test_the_lmtp_server_answers_451_when_the_site_cannot_judge_a_reply(reply, settings, case):
    raw, address = reply
    if case == "reply-address-unset":
        settings.REPLY_ADDRESS = ""
    else:
        settings.SECRET_KEY = OTHER_KEY
    controller = lmtp_controller("127.0.0.1", free_port())
    controller.start()
    try:
        with smtplib.LMTP("127.0.0.1", controller.port) as lmtp, pytest.raises(smtplib.SMTPDataError) as refused:
            lmtp.sendmail("ann@example.com", [address], raw)
    finally:
        controller.stop()
    assert refused.value.smtp_code == 451
    assert not InboundEmail.objects.exists() and not Post.objects.exists()
