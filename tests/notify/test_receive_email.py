"""The MTA's ways in (`deploy/receive_email.py`, `manage.py receive_email`, `manage.py lmtp_server`) when the
site cannot judge a message: the MTA must keep it and try again (exit 75, LMTP 451), and nothing is recorded. A
process with another key than the site's is told by the key's fingerprint, before it reads the message; one with
the site's key drops a token that fails its check at once, never asking for a retry.

Run as an MTA runs them: real processes, against the test database, with the environment an MTA gives.
"""

import smtplib
import socket
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

from games.management.commands.lmtp_server import lmtp_controller
from games.models import Game, InboundEmail, Post
from tests.factories import reply_to, running_game, your_move_email
from tests.games.processes import ROOT, environment
from tests.notify.conftest import REPLY, one_character_changed
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
def your_move(settings):
    """ann's "your move" email, its reply address signed with the site's key (which sending it records)."""
    settings.SECRET_KEY = SITE_KEY
    return your_move_email(running_game())


@pytest.fixture
def reply(your_move) -> tuple[bytes, str]:
    """A genuine reply to ann's "your move" email, and its reply address."""
    return reply_to(your_move, "Genuine words."), your_move.extra_headers["Reply-To"]


def pipe(entry: list[str], raw: bytes, recipient: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*entry, "--recipient", recipient], input=raw, cwd=ROOT, env=env, capture_output=True, check=False, timeout=120
    )


def mta_environment(**extra: str) -> dict:
    """The test database in development mode (unless DEBUG is given), and none of the settings under test unless
    given."""
    env = environment(**{"DEBUG": "1", **extra})
    for name in ("REPLY_ADDRESS", "SECRET_KEY", "EMAIL_PORT", "ALLOWED_HOSTS", "SITE_URL"):
        if name not in extra:
            env.pop(name, None)
    return env


def site_environment(key: str) -> dict:
    """A process of the site in development mode, reading replies, with this SECRET_KEY."""
    return mta_environment(REPLY_ADDRESS=REPLY, SECRET_KEY=key, DEBUG="1")


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
        "ALLOWED_HOSTS=sh.example.org\nSITE_URL=https://sh.example.org\n"
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


def test_a_token_with_one_character_changed_is_dropped_at_once_by_the_pipe_and_by_lmtp(your_move, tmp_path):
    forged = one_character_changed(your_move.extra_headers["Reply-To"])
    piped_raw, lmtp_raw = (reply_to(your_move, "nominate bob", to=forged, message_id=f"<{n}@x>") for n in (1, 2))
    piped = pipe(COMMAND, piped_raw, forged, site_environment(SITE_KEY))
    assert (piped.returncode, piped.stdout.decode().strip()) == (0, "forged"), piped.stderr.decode()[-800:]
    with lmtp_server(tmp_path, SITE_KEY) as (lmtp, _stderr):
        assert lmtp.sendmail("ann@example.com", [forged], lmtp_raw) == {}
    assert [e.outcome for e in InboundEmail.objects.all()] == [InboundEmail.Outcome.FORGED] * 2
    assert not Post.objects.exists() and Game.objects.get().step_number == 1


def test_with_another_key_receive_email_exits_75_before_it_reads_the_message(reply, tmp_path):
    """Its standard input is never written nor closed: a process that read it first would wait for ever."""
    _raw, address = reply
    stderr = tmp_path / "stderr"
    with stderr.open("wb") as written:
        process = subprocess.Popen(
            [*COMMAND, "--recipient", address], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=written,
            cwd=ROOT, env=site_environment(OTHER_KEY),
        )  # fmt: skip
        try:
            returncode = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            returncode = process.wait()
        finally:
            process.stdin.close()
    assert returncode == 75 and "another key than the site's" in stderr.read_text()


def test_with_another_key_every_message_is_kept_for_a_retry_then_handled_once_the_keys_agree(your_move, tmp_path):
    address = your_move.extra_headers["Reply-To"]
    genuine = reply_to(your_move, "Genuine words.")
    nobodys = "reply+" + "a" * 42 + "@reply.example.org"
    forgery = reply_to(your_move, "Forged words.", to=nobodys, message_id="<f1@mail.example>")
    wrong_key = site_environment(OTHER_KEY)
    for raw, recipient in ((genuine, address), (forgery, nobodys)):
        assert_kept_for_a_retry(pipe(COMMAND, raw, recipient, wrong_key), "another key than the site's")
    with lmtp_server(tmp_path, OTHER_KEY) as (lmtp, stderr):
        for raw, recipient in ((genuine, address), (forgery, nobodys)):
            with pytest.raises(smtplib.SMTPDataError) as refused:
                lmtp.sendmail("ann@example.com", [recipient], raw)
            assert refused.value.smtp_code == 451
    assert "another key than the site's" in stderr.read_text()  # said at start, before any message
    assert not InboundEmail.objects.exists() and not Post.objects.exists()
    piped = pipe(COMMAND, genuine, address, site_environment(SITE_KEY))
    assert piped.returncode == 0, piped.stderr.decode()[-800:]
    with lmtp_server(tmp_path, SITE_KEY) as (lmtp, _stderr):
        assert lmtp.sendmail("ann@example.com", [address], genuine) == {}  # handled: delivered again, acts once
    assert list(Post.objects.values_list("body", flat=True)) == ["Genuine words."]


@contextmanager
def lmtp_server(folder, key: str):
    """`manage.py lmtp_server` in a process of its own, with this SECRET_KEY: an LMTP client to it, and the file
    of its standard error."""
    port, stderr = free_port(), folder / "lmtp.stderr"
    with stderr.open("wb") as written:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "lmtp_server", "--port", str(port)], cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=written, env=site_environment(key),
        )  # fmt: skip
    try:
        wait_for_port(port)
        with smtplib.LMTP("127.0.0.1", port) as lmtp:
            yield lmtp, stderr
    finally:
        server.terminate()
        server.wait(timeout=30)


def wait_for_port(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
