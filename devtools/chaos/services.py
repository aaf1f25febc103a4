"""Real services on free ports, owned by whoever starts them: Redis, a PostgreSQL cluster made with initdb, an
SMTP server, and the site's own processes (gunicorn, Celery workers, beat) pointed at them."""

import contextlib
import email
import glob
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from email import policy
from pathlib import Path

import redis
from aiosmtpd.controller import Controller
from django.conf import settings
from django.db import connections

from devtools.bench.http import database_url, free_port

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def wait_until(condition, seconds: float, step: float = 0.1) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())


class RedisServer:
    """A redis-server of our own, keeping nothing on disk (as production's broker may lose its queue)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="sh-redis-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen([*command, "--dir", self.folder], stdout=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        if not wait_until(lambda: _answers(client), 10):
            raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.thaw()  # a frozen server would hold SIGTERM until it runs again
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def freeze(self) -> None:
        """The server stops running but its port stays open: the kernel still accepts connections and takes what
        is sent, and nothing ever answers, as a hung host or a lost route shows itself to a client."""
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)

    def kill(self) -> None:
        """Gone at once, frozen or not, as in an out-of-memory kill: every connection to it is reset."""
        self.process.kill()
        self.process.wait(10)
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def _answers(client) -> bool:
    try:
        return client.ping()
    except redis.RedisError:
        return False


def _postgres_program(name: str) -> str:
    found = shutil.which(name) or max(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), default=None)
    if found is None:
        raise RuntimeError(f"{name} not found: PostgreSQL's server programs are needed")
    return found


class PostgresCluster:
    """A PostgreSQL cluster of our own (initdb in a temporary folder), to restart at will. initdb and pg_ctl
    refuse to run as root: as root they run as the `postgres` user, in a folder it owns."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="sh-pg-"))
        self.data = self.folder / "data"
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    def _run(self, program: str, *arguments: str) -> None:
        command = [_postgres_program(program), *arguments]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.folder, timeout=120)

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options, "-w", "start")

    def restart(self) -> None:
        """A fast restart: every session is ended, its transaction rolled back; the server is back when this
        returns."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-m", "fast", "-w", "restart")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # not running
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def copy_schema(self, name: str, source: dict) -> str:
        """A new database `name` holding the source database's tables and its migration records (no other
        rows): what `migrate` would make, in a second. Returns its URL."""
        subprocess.run(["psql", "-q", self.url(), "-c", f'CREATE DATABASE "{name}"'], check=True, capture_output=True)
        source_url = database_url(source)
        dump = [shutil.which("pg_dump") or _postgres_program("pg_dump"), "--no-owner", "--no-privileges"]
        tables = ["django_migrations", "django_content_type", "auth_permission"]
        for arguments in (["--schema-only"], ["--data-only", *(f"--table={table}" for table in tables)]):
            schema = subprocess.run([*dump, *arguments, source_url], check=True, capture_output=True).stdout
            subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", self.url(name)], input=schema, check=True,
                           capture_output=True)  # fmt: skip
        return self.url(name)


class MailServer:
    """An SMTP server of our own that keeps every message it takes, and refuses some addresses for good (550).
    Stopped and started again on the same port, as a mail server restarts."""

    def __init__(self, refused: tuple[str, ...] = ()) -> None:
        self.port, self.refused = free_port(), set(refused)
        self.messages: list[tuple[str, str, str]] = []  # (to, subject, text)
        self.arrivals: list[tuple[str, float]] = []  # (to, time.monotonic() when the message was taken)
        self.refusals: Counter = Counter()  # address: times refused
        self.controller: Controller | None = None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            self.refusals[address] += 1
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        text = message.get_body(("plain",))
        for to in envelope.rcpt_tos:
            self.messages.append((to, str(message["Subject"]), text.get_content() if text else ""))
            self.arrivals.append((to, time.monotonic()))
        return "250 OK"

    def start(self) -> None:
        logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd tells every command at INFO
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def doubled(self) -> int:
        """Messages taken more than once: the same text, subject and recipient."""
        return sum(count - 1 for count in Counter(self.messages).values())


class Site:
    """The site's processes, as production runs them: gunicorn, Celery workers, one beat; one environment
    (database, broker, mail server, sweep interval) for all. Each process's output goes to a log file."""

    def __init__(self, **environment: str) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="sh-site-"))
        self.environment = {
            **{key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"},
            "DJANGO_SETTINGS_MODULE": "sh_site.settings",
            "PYTHONPATH": str(ROOT),
            "DEBUG": "0",
            "SECRET_KEY": settings.SECRET_KEY,  # sessions made by the caller are signed with it
            "ALLOWED_HOSTS": "127.0.0.1",
            "SITE_URL": "http://127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": database_url(),
            "BEAT_SCHEDULE_FILE": str(self.folder / "beat-schedule"),
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_USE_TLS": "0",
            "EMAIL_TIMEOUT": "5",
            **environment,
        }
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str, *command: str) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "ab")  # noqa: SIM115 (the process writes it until it stops)
        process = subprocess.Popen(
            command, cwd=ROOT, env=self.environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.processes[name] = process
        return process

    def web(self, port: int, workers: int = 1) -> subprocess.Popen:
        process = self.start("web", str(BIN / "gunicorn"), "sh_site.wsgi", "-w", str(workers),
                             "-b", f"127.0.0.1:{port}", "--log-level", "warning")  # fmt: skip
        if not wait_until(lambda: _listening(port), 60):
            raise RuntimeError(f"gunicorn did not start:\n{self.log('web')}")
        return process

    def worker(self, name: str = "worker", concurrency: int = 2) -> subprocess.Popen:
        command = [str(BIN / "celery"), "-A", "sh_site", "worker", "-n", f"{name}@%h", f"--concurrency={concurrency}"]
        return self.start(name, *command, "--loglevel=INFO", "--without-gossip", "--without-mingle")

    def beat(self) -> subprocess.Popen:
        return self.start("beat", str(BIN / "celery"), "-A", "sh_site", "beat", "--loglevel=INFO")

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """A process's whole group killed at once (a Celery worker's pool with it), as an OOM kill or a lost
        machine would."""
        process = self.processes.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        process.wait(30)

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def close(self) -> None:
        for name in list(self.processes):
            process = self.processes[name]
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(20)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                self.kill(name)
        self.processes.clear()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def own_database(name: str, **environment: str):
    """A PostgreSQL cluster of our own holding a copy of this database's schema (database `name`), a redis-server,
    and a Site pointed at both whose processes the caller starts: (cluster, its URL, the site). Everything is
    stopped afterwards."""
    cluster, broker, site = PostgresCluster(), RedisServer(), None
    try:
        cluster.start()
        broker.start()
        url = cluster.copy_schema(name, connections["default"].settings_dict)
        site = Site(DATABASE_URL=url, REDIS_URL=broker.url, **environment)
        yield cluster, url, site
    finally:
        if site is not None:
            site.close()
        broker.close()
        cluster.close()


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False
