"""The docs' Postfix wiring for replies by email (docs/running/mail.md), followed literally with Debian's Postfix.

The lines are read from that page itself, so that it cannot drift again: `postconf` reads them without a
warning, `postmap` resolves the reply domain through the page's `transport_maps` to the site's transport,
the pipe's user and paths are the systemd units' (docs/running/index.md), and the pipe's command, run as written with
Postfix's empty environment, posts a reply.
"""

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from games.models import Post
from tests.conftest import _missing
from tests.factories import reply_to, running_game, your_move_email
from tests.games.processes import environment
from tests.notify.conftest import REPLY, reply_players  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = "reply.example.org"
TRANSPORTS = {"pipe": "sh-reply:", "LMTP": "lmtp:inet:127.0.0.1:8025"}
MAIL_DOCS = ROOT / "docs" / "running" / "mail.md"
UNIT = ROOT / "deploy" / "systemd" / "sh-web.service"
# Postfix's own binaries run for each test (about 2 s each): not in `make test-fast`.
pytestmark = pytest.mark.slow
POSTCONF = shutil.which("postconf", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"]))


@pytest.fixture(autouse=True)
def _postfix():
    """Skipped where Postfix is missing, except in CI (.ci/run installs it), where it fails, as Chromium's tests."""
    if POSTCONF is None:
        _missing("needs Postfix's postconf and postmap (Debian's postfix package; .ci/run installs it)")


def readme_blocks() -> dict[str, str]:
    """The mail page's code blocks that start with `# /etc/postfix/...`, by that first line."""
    blocks, block = {}, None
    for line in MAIL_DOCS.read_text().splitlines():
        if line.strip().startswith("```"):
            block = [] if block is None else _keep(blocks, block)
        elif block is not None:
            block.append(line)
    return blocks


def _keep(blocks: dict[str, str], block: list[str]) -> None:
    text = textwrap.dedent("\n".join(block) + "\n")
    if text.startswith("# /etc/postfix/"):
        first, _, rest = text.partition("\n")
        blocks[first.removeprefix("# /etc/postfix/")] = rest


def configured(tmp_path: Path, variant: str) -> Path:
    """A Postfix configuration directory holding the mail page's lines for `variant` (pipe or LMTP)."""
    blocks = readme_blocks()
    (tmp_path / "main.cf").write_text(blocks[f"main.cf ({variant})"])
    (tmp_path / "master.cf").write_text(blocks["master.cf"] if variant == "pipe" else "")
    return tmp_path


def postfix(program: str, *args: str) -> subprocess.CompletedProcess:
    path = Path(POSTCONF).with_name(program)
    return subprocess.run([str(path), *args], capture_output=True, text=True, timeout=60, check=False)


def unit_setting(name: str) -> str:
    return re.search(rf"^{name}=(.+)$", UNIT.read_text(), re.M).group(1).strip()


def pipe_command(directory: Path) -> tuple[dict[str, str], list[str]]:
    """The mail page's pipe entry as Postfix reads it: its attributes and its argv."""
    command = postfix("postconf", "-c", str(directory), "-F", "sh-reply/unix/command").stdout
    words = command.split("=", 1)[1].split()
    assert words[0] == "pipe", command
    at = next(i for i, word in enumerate(words) if word.startswith("argv="))
    attributes = dict(word.split("=", 1) for word in words[1:at])
    return attributes, [words[at].removeprefix("argv="), *words[at + 1 :]]


def test_the_readme_gives_both_ways_in():
    assert set(readme_blocks()) == {"main.cf (pipe)", "main.cf (LMTP)", "master.cf"}


@pytest.mark.parametrize("variant", TRANSPORTS)
def test_postfix_reads_the_readmes_lines_without_a_warning(tmp_path, variant):
    directory = str(configured(tmp_path, variant))
    for args in (["-n"], ["-M"]):
        read = postfix("postconf", "-c", directory, *args)
        assert (read.returncode, read.stderr) == (0, ""), read.stderr


@pytest.mark.parametrize("variant", TRANSPORTS)
def test_the_reply_domain_is_relayed_from_outside_mynetworks(tmp_path, variant):
    relayed = postfix("postconf", "-c", str(configured(tmp_path, variant)), "-h", "relay_domains").stdout
    assert DOMAIN in re.split(r"[\s,]+", relayed.strip())


@pytest.mark.parametrize("variant, transport", TRANSPORTS.items())
def test_postmap_maps_the_reply_domain_to_the_sites_transport(tmp_path, variant, transport):
    directory = str(configured(tmp_path, variant))
    maps = postfix("postconf", "-c", directory, "-h", "transport_maps").stdout.strip()
    looked_up = postfix("postmap", "-c", directory, "-q", DOMAIN, maps)
    assert (looked_up.returncode, looked_up.stdout.strip()) == (0, transport), looked_up.stderr
    if variant == "pipe":
        service = transport.removesuffix(":")
        assert postfix("postconf", "-c", directory, "-M", f"{service}/unix").stdout.startswith(service)
        limit = postfix("postconf", "-c", directory, "-h", f"{service}_destination_recipient_limit")
        assert limit.stdout.strip() == "1"  # ${recipient} is then always one address


def test_the_pipe_runs_as_the_systemd_units_user_with_their_code_and_environment_file(tmp_path):
    attributes, argv = pipe_command(configured(tmp_path, "pipe"))
    code = unit_setting("WorkingDirectory")
    assert attributes["user"] == unit_setting("User") and attributes["directory"] == code
    assert argv[:2] == [f"{code}/.venv/bin/python", f"{code}/deploy/receive_email.py"]
    assert argv[argv.index("--env-file") + 1] == unit_setting("EnvironmentFile")
    assert argv[-2:] == ["--recipient", "${recipient}"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("reply_players")
def test_the_pipes_command_as_written_posts_a_reply_from_postfixs_empty_environment(tmp_path, settings):
    settings.SECRET_KEY = "the-sites-own-key-" + "k" * 40
    game = running_game()
    message = your_move_email(game)
    env_file, site = tmp_path / "env", environment()
    env_file.write_text(
        f"DATABASE_URL={site['DATABASE_URL']}\nREDIS_URL={site.get('REDIS_URL', '')}\n"
        f"SECRET_KEY={settings.SECRET_KEY}\nREPLY_ADDRESS={REPLY}\n"
        "ALLOWED_HOSTS=sh.example.org\nSITE_URL=https://sh.example.org\n"
    )
    _attributes, argv = pipe_command(configured(tmp_path, "pipe"))
    code, written = unit_setting("WorkingDirectory"), unit_setting("EnvironmentFile")
    here = {
        f"{code}/.venv/bin/python": sys.executable,
        written: str(env_file),
        "${recipient}": message.extra_headers["Reply-To"],
    }
    argv = [here.get(word, word.replace(code, str(ROOT))) for word in argv]
    piped = subprocess.run(argv, input=reply_to(message, "Through Postfix's pipe."), env={}, cwd=ROOT,
                           capture_output=True, timeout=120, check=False)  # fmt: skip
    assert piped.returncode == 0, piped.stderr.decode()[-800:]
    assert list(Post.objects.values_list("body", flat=True)) == ["Through Postfix's pipe."]
