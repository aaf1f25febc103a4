"""One outage each, with the site's real processes: what was due while a service was away, what became of it
after, and how long catching up took. Each returns its figures and `ok`: nothing lost, doubled or stuck.

The games step in minutes (`minute_durations`, STEP_MINUTES a step), so that the deadlines meant to pass in an
outage pass then and the next ones fall after the scenario: every due deadline must have been handled exactly
once (one timeout on record), every email made meanwhile sent exactly once (the SMTP server counts what it got).
"""

import asyncio
import json
import random
import threading
import time
from collections import Counter
from contextlib import contextmanager
from datetime import timedelta

import psycopg
from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone

from devtools.bench.http import BrowserClient, free_port, move_form, run, signed_in_sessions
from games.engine import codec, legal_actions, waiting_for
from games.models import ActionRecord, ApiToken, Game, Notification, SentEmail, SweepRun
from games.replay import parse_script, play, start
from games.services.transfer import export_script, import_script
from sh_site.env import database_from_url

from .services import ROOT, MailServer, PostgresCluster, RedisServer, Site, own_database, wait_until

STEP_MINUTES = 30
DURATIONS = ("nomination", "election", "discard", "legislative", "veto_reply", "veto_enact", "power", "execution_vote")


class Games:
    """Running 5-player games made for a scenario, their players with email addresses; deleted afterwards."""

    def __init__(self, prefix: str) -> None:
        self.prefix, self.made = prefix, []

    def make(self, deadlines: list) -> list[Game]:
        """One game per deadline, its first step (the nomination) due then."""
        User = get_user_model()
        games = []
        for deadline in deadlines:
            data = self.script(len(self.made))
            User.objects.bulk_create([User(username=name, email=f"{name}@example.org") for name in data["players"]])
            game = import_script(
                data,
                now=deadline - timedelta(minutes=STEP_MINUTES),
                name=self.prefix,
                minute_durations=True,
                **{f"{name}_hours": STEP_MINUTES for name in DURATIONS},
            )
            self.made.append(game)
            games.append(game)
        return games

    def script(self, number: int) -> dict:
        return {"players": [f"{self.prefix}-{number}-{seat}" for seat in range(5)], "seed": number, "actions": []}

    def first_to_move(self, number: int) -> str:
        """The player who will owe the first move of the `number`th game made (its deal is the seed's)."""
        script = self.script(number)
        return script["players"][waiting_for(start(parse_script(script)))[0]]

    def users(self):
        return get_user_model().objects.filter(username__startswith=f"{self.prefix}-")

    def delete(self) -> None:
        Game.objects.filter(name=self.prefix).delete()
        self.users().delete()
        SentEmail.objects.filter(to__startswith=f"{self.prefix}-").delete()  # kept by the site when a user goes


def timeouts(games: list[Game]) -> Counter:
    """Deadlines handled, by game: the timeouts the sweep recorded."""
    records = ActionRecord.objects.filter(game__in=games, source=ActionRecord.Source.DEADLINE)
    return Counter(records.values_list("game_id", flat=True))


def deadline_figures(due: list[Game], back: float, limit: float) -> dict:
    """Wait (up to `limit` seconds) for every due game's deadline to be handled: how many were, how many twice,
    how many not at all, and the seconds from `back` (the service's return) until the last one was."""
    wait_until(lambda: len(timeouts(due)) == len(due), limit, step=0.2)
    caught_up = time.monotonic() - back
    handled = timeouts(due)
    return {
        "deadlines_due": len(due),
        "deadlines_handled": len(handled),
        "deadlines_doubled": sum(1 for count in handled.values() if count > 1),
        "deadlines_lost": len(due) - len(handled),
        "deadline_catch_up_seconds": round(caught_up, 1) if len(handled) == len(due) else None,
    }


def email_figures(notices, mail: MailServer, back: float, limit: float, settle: float) -> dict:
    """Wait for these notices' emails to go out; then, after `settle` seconds more, count what the SMTP server
    took twice."""
    ids = list(notices.values_list("pk", flat=True))
    pending = Notification.objects.filter(pk__in=ids).exclude(email=Notification.Email.SENT)
    wait_until(lambda: not pending.exists(), limit, step=0.2)
    caught_up = time.monotonic() - back
    done = not pending.exists()
    time.sleep(settle)
    return {
        "emails_due": len(ids),
        "emails_sent": len(ids) - pending.count(),
        "emails_doubled": mail.doubled(),
        "email_catch_up_seconds": round(caught_up, 1) if done else None,
    }


def started(site: Site, limit: float = 90) -> None:
    """Until the worker and beat have run a sweep (the processes take seconds to start)."""
    since = timezone.now()
    if not wait_until(lambda: SweepRun.objects.filter(task="deadlines", finished_at__gt=since).exists(), limit, 0.3):
        raise RuntimeError(f"no sweep ran:\n{site.log('worker')}\n{site.log('beat')}")


class Player(BrowserClient):
    """Makes one legal move in a game through the panel's form, as the seat that owes it."""

    def health(self) -> int:
        return asyncio.run(self.exchange("GET", "/healthz", []))[0]

    def move(self, game: Game) -> int:
        state = game.load_state()
        seat = waiting_for(state)[0]
        action = legal_actions(state, seat)[0]
        return asyncio.run(self.post(f"/games/{game.pk}/move/", move_form(state, action), state.seats[seat].name))


def ok(figures: dict) -> bool:
    lost_or_doubled = [value for key, value in figures.items() if key.endswith(("_lost", "_doubled", "_errors"))]
    caught_up = [value for key, value in figures.items() if key.endswith("_catch_up_seconds")]
    due_and_done = figures.get("deadlines_due") == figures.get("deadlines_handled") and figures.get(
        "emails_due"
    ) == figures.get("emails_sent")
    return not any(lost_or_doubled) and None not in caught_up and due_and_done


@contextmanager
def whole_site(broker: RedisServer, mail: MailServer, made: "Games", interval: int, **environment: str):
    """The broker and the mail server started, then the site's web, worker and beat on them, once a sweep ran:
    (the site, its port). Afterwards everything stopped and the scenario's games and players deleted."""
    site = None
    try:
        mail.start()
        broker.start()
        site = Site(REDIS_URL=broker.url, SWEEP_INTERVAL_SECONDS=str(interval), EMAIL_HOST="127.0.0.1",
                    EMAIL_PORT=str(mail.port), **environment)  # fmt: skip
        port = free_port()
        site.web(port)
        site.worker()
        site.beat()
        started(site)
        yield site, port
    finally:
        if site is not None:
            site.close()
        broker.close()
        mail.stop()
        made.delete()


def with_logs_if_not_ok(figures: dict, site: Site) -> dict:
    """A scenario that failed says why in its own figures: the end of each process's log, read before the site
    stops (its logs go with it)."""
    if not figures["ok"]:
        figures["logs"] = {name: site.log(name)[-2000:] for name in site.processes}
    return figures


def spread(count: int, begin, seconds: float) -> list:
    """`count` moments spread evenly over `seconds` from `begin`."""
    return [begin + timedelta(seconds=seconds * (i + 0.5) / count) for i in range(count)]


def broker_outage(*, outage: float, games: int = 20, moves: int = 5, interval: int = 1) -> dict:
    """The broker (a redis-server of our own) stopped for `outage` seconds while `games` deadlines pass and
    players make `moves` moves through HTTP; then started again, empty (it keeps nothing on disk)."""
    mail, broker, made = MailServer(), RedisServer(), Games("chaos-broker")
    with whole_site(broker, mail, made, interval) as (site, port):
        begin = timezone.now() + timedelta(seconds=3)  # the games are made before the broker stops
        due = made.make(spread(games, begin, outage))
        playing = made.make([timezone.now() + timedelta(minutes=STEP_MINUTES)] * moves)
        player = Player(port, signed_in_sessions(made.users()))
        time.sleep(max(0.0, (begin - timezone.now()).total_seconds()))
        stopped, outage_began = time.monotonic(), timezone.now()
        broker.stop()
        answers = []
        for game in playing:  # spread over the outage's first half
            answers.append(player.move(game))
            time.sleep(outage / 2 / max(1, moves))
        time.sleep(max(0.0, stopped + outage - time.monotonic()))
        outage_ended = timezone.now()
        broker.start()
        back = time.monotonic()
        figures = {"outage_seconds": outage, "sweep_interval_seconds": interval}
        figures.update(deadline_figures(due, back, limit=120 + outage))
        figures["moves_during_outage"] = len(answers)
        figures["move_errors"] = sum(1 for status in answers if status != 302)
        figures["move_p95_ms"] = round(1000 * sorted(player.latencies)[int(0.95 * (len(player.latencies) - 1))], 1)
        made_meanwhile = Notification.objects.filter(game__in=playing, created_at__range=(outage_began, outage_ended))
        notices = made_meanwhile.exclude(email=Notification.Email.NONE)  # those meant to go by email
        figures.update(email_figures(notices, mail, back, limit=120, settle=3 * interval))
        figures["ok"] = ok(figures)
        return with_logs_if_not_ok(figures, site)


@contextmanager
def using_database(url: str):
    """This process's ORM on another database for a while (a cluster of our own), then back as it was."""
    connection = connections["default"]
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(database_from_url(url, ROOT))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


def waiting_on_a_lock(url: str, statement: str) -> bool:
    """Whether a session of the site is blocked on a lock in a statement starting with `statement` (a LIKE
    pattern: % stands for any text)."""
    with psycopg.connect(url, autocommit=True) as probe:
        query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE %s"
        return probe.execute(query, (statement + "%",)).fetchone()[0] > 0


def database_restart(*, games: int = 50) -> dict:
    """PostgreSQL (a cluster of our own, made with initdb) restarted twice: once in the middle of a sweep, with
    `games` due deadlines claimed and their changes half written, and once in the middle of a move. Each time
    the interrupted transaction must leave nothing, the worker and the web process must reconnect by themselves
    (the same processes), and every deadline must be handled once."""
    dummy = "django.core.mail.backends.dummy.EmailBackend"
    with (
        own_database("chaos", SWEEP_INTERVAL_SECONDS="1", EMAIL_BACKEND=dummy) as (cluster, url, site),
        using_database(url),
    ):
        made = Games("chaos-db")
        due = made.make([timezone.now() - timedelta(seconds=1)] * games)
        (playing,) = made.make([timezone.now() + timedelta(minutes=STEP_MINUTES)])
        figures = {"games": games}
        figures.update(_restart_mid_sweep(cluster, site, url, due))
        figures.update(_restart_mid_move(cluster, site, url, made, playing))
        figures["processes_restarted"] = sum(1 for process in site.processes.values() if process.poll() is not None)
        figures["ok"] = ok(figures) and figures["processes_restarted"] == 0
        return with_logs_if_not_ok(figures, site)


def _restart_mid_sweep(cluster: PostgresCluster, site: Site, url: str, due: list[Game]) -> dict:
    # Inserting the moves' records waits on this lock: the sweep will have claimed the games, applied their
    # timeouts and written part of its changes when the restart ends its transaction.
    holder = psycopg.connect(url)
    holder.execute("LOCK TABLE games_actionrecord IN SHARE MODE")
    site.worker()
    site.beat()
    if not wait_until(lambda: waiting_on_a_lock(url, 'INSERT INTO "games_actionrecord"'), 90, 0.2):
        raise RuntimeError(f"the sweep never reached its writes:\n{site.log('worker')}")
    cluster.restart()
    back = time.monotonic()
    holder.close()
    connections["default"].close()  # this process's own connection died too
    figures = deadline_figures(due, back, limit=120)
    # Nothing half done: each game's count of moves is its records' (the batch's writes went all or nothing).
    recorded = Counter(ActionRecord.objects.filter(game__in=due).values_list("game_id", flat=True))
    stored = Game.objects.filter(pk__in=[game.pk for game in due]).values_list("pk", "action_count")
    figures["games_half_written_errors"] = sum(1 for pk, count in stored if recorded[pk] != count)
    return figures


def _restart_mid_move(cluster: PostgresCluster, site: Site, url: str, made: Games, game: Game) -> dict:
    port = free_port()
    site.web(port)
    player = Player(
        port, signed_in_sessions(made.users().filter(username__startswith=f"{made.prefix}-{len(made.made) - 1}-"))
    )
    user = next(iter(player.sessions))
    page = f"/games/{game.pk}/"
    if asyncio.run(player.get(page, user)) != 200:  # the web process holds a connection from now on
        raise RuntimeError(f"the game's page did not answer:\n{site.log('web')}")
    records = game.actions.count()
    holder = psycopg.connect(url)
    holder.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", (game.pk,))  # the move waits on it
    answers = []
    moving = threading.Thread(target=lambda: answers.append(player.move(game)))
    moving.start()
    # The move locks the game's row (games/models/sql.py: its columns, then FOR UPDATE).
    if not wait_until(lambda: waiting_on_a_lock(url, 'SELECT %FROM "games_game" WHERE id = % FOR UPDATE'), 30, 0.1):
        raise RuntimeError(f"the move never reached the game's row:\n{site.log('web')}")
    cluster.restart()
    holder.close()
    moving.join(30)
    connections["default"].close()
    figures = {
        "move_answer_during_restart": answers[0] if answers else None,
        "move_recorded_during_restart": game.actions.count() - records,
        "page_after_restart": asyncio.run(player.get(page, user)),
        "move_after_restart": player.move(game),
    }
    figures["move_recorded_after_restart"] = game.actions.count() - records
    figures["move_errors"] = sum(
        [figures["move_answer_during_restart"] != 503, figures["move_recorded_during_restart"] != 0,
         figures["page_after_restart"] != 200, figures["move_after_restart"] != 302,
         figures["move_recorded_after_restart"] != 1]
    )  # fmt: skip
    return figures


def mail_outage(*, outage: float, games: int = 20, interval: int = 1) -> dict:
    """The mail server (an SMTP server of our own) stopped for `outage` seconds while `games` deadlines pass,
    each making a "your move" email; one address is refused for good (550) throughout. The emails made
    meanwhile must wait and go once; the refused address must be tried once and marked; the sweep must keep
    recording its runs and /healthz must stay 200."""
    made = Games("chaos-mail")
    refused = f"{made.first_to_move(0)}@example.org"  # refused from the first game's first "your move" on
    mail, broker = MailServer(refused=(refused,)), RedisServer()
    with whole_site(broker, mail, made, interval) as (site, port):
        begin = timezone.now() + timedelta(seconds=3)
        due = made.make(spread(games, begin, outage))
        probe = Player(port, {})
        time.sleep(max(0.0, (begin - timezone.now()).total_seconds()))
        stopped, outage_began = time.monotonic(), timezone.now()
        mail.stop()
        health = []
        while time.monotonic() < stopped + outage:
            health.append(probe.health())
            time.sleep(min(1.0, outage / 10))
        sweeps_meanwhile = SweepRun.objects.filter(task=SweepRun.Task.OUTBOX, finished_at__gt=outage_began).exists()
        outage_ended = timezone.now()
        mail.start()
        back = time.monotonic()
        figures = {"outage_seconds": outage, "sweep_interval_seconds": interval}
        figures.update(deadline_figures(due, back, limit=120))
        made_meanwhile = Notification.objects.filter(game__in=due, created_at__range=(outage_began, outage_ended))
        notices = made_meanwhile.exclude(email=Notification.Email.NONE).exclude(user__email=refused)
        figures.update(email_figures(notices, mail, back, limit=120, settle=3 * interval))
        figures["healthz_checks"] = len(health)
        figures["healthz_errors"] = sum(1 for status in health if status != 200)
        figures["outbox_sweep_recorded_meanwhile"] = sweeps_meanwhile
        figures["refused_address_tries"] = mail.refusals[refused]
        figures["refused_address_marked"] = made.users().filter(profile__email_refused=refused).exists()
        figures["ok"] = (
            ok(figures)
            and sweeps_meanwhile
            and figures["refused_address_tries"] == 1
            and figures["refused_address_marked"]
        )
        return with_logs_if_not_ok(figures, site)


class ApiPlayer(BrowserClient):
    """A player with an API token (scope play): looks at one of their games' private view, and when they owe a
    move makes one of the legal moves it lists (most of the time: some are late, so deadlines pass), then waits
    a moment, as a player's bot or a phone app would. With `diligence` 0 they look but never move."""

    def __init__(self, port: int, token: str, games: list[int], seed: int, diligence: float = 0.7) -> None:
        super().__init__(port, {})
        self.token, self.games, self.random, self.diligence = token, games, random.Random(seed), diligence
        self.statuses: Counter = Counter()
        self.accepted: Counter = Counter()  # game id: moves answered 200

    async def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = [f"Authorization: Bearer {self.token}"]
        payload = json.dumps(body).encode() if body is not None else b""
        if body is not None:
            headers += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        status, _headers, answer = await self.fetch(method, path, headers, payload)
        self.statuses[status] += 1
        return status, json.loads(answer) if status == 200 else {}

    async def step(self) -> None:
        game = self.random.choice(self.games)
        status, view = await self.call("GET", f"/api/v1/games/{game}/me")
        if status == 200 and view["owes"] and view["moves"] and self.random.random() < self.diligence:
            move = {**self.random.choice(view["moves"]), "step_number": view["step_number"]}
            if (await self.call("POST", f"/api/v1/games/{game}/moves", move))[0] == 200:
                self.accepted[game] += 1
        await asyncio.sleep(self.random.uniform(0.5, 2.0))


def production_shape(*, players: int = 50, games: int = 20, seconds: float = 150, interval: int = 2) -> dict:
    """The production shape on one machine: gunicorn with 4 workers, two Celery workers and one beat, on
    PostgreSQL and Redis; `players` simulated players play `games` 5-player games through the API, every step a
    minute long, for `seconds`; a third of the way in one Celery worker is killed (SIGKILL, its pool with it)
    and started again 5 seconds later. Afterwards every game must replay from its export to its stored state,
    every move answered 200 must be on record once, no deadline may be left overdue, no email sent twice, and
    no answer may have been a 5xx."""
    mail, broker, prefix = MailServer(), RedisServer(), "chaos-prod"
    began = timezone.now()
    mail.start()
    broker.start()
    site = Site(REDIS_URL=broker.url, SWEEP_INTERVAL_SECONDS=str(interval), EMAIL_HOST="127.0.0.1",
                EMAIL_PORT=str(mail.port), API_REQUESTS_PER_MINUTE="100000")  # fmt: skip
    port = free_port()
    User = get_user_model()
    try:
        names = [f"{prefix}-{number}" for number in range(players)]
        users = User.objects.bulk_create([User(username=name, email=f"{name}@example.org") for name in names])
        tokens = {}
        for user in users:
            secret = ApiToken.new_secret()
            ApiToken.objects.create(user=user, name="chaos", digest=ApiToken.digest_of(secret), prefix=secret[:8],
                                    scope=ApiToken.Scope.PLAY, created_at=timezone.now())  # fmt: skip
            tokens[user.username] = secret
        seating = random.Random(0)
        order = [*names, *seating.sample(names, len(names))]  # everyone in about games * 5 / players games
        tables = [order[(5 * number) % len(order) :][:5] for number in range(games)]
        made = [
            import_script({"players": table, "seed": number, "actions": []}, name=prefix, minute_durations=True,
                          **{f"{name}_hours": 1 for name in DURATIONS})
            for number, table in enumerate(tables)
        ]  # fmt: skip
        games_of = {
            name: [game.pk for game, table in zip(made, tables, strict=True) if name in table] for name in names
        }
        site.web(port, workers=4)
        site.worker("worker-1", concurrency=1)
        site.worker("worker-2", concurrency=1)
        site.beat()
        started(site)
        # One player in five never acts (away without notice): their steps end by deadline, as forum games do.
        clients = [
            ApiPlayer(port, tokens[name], games_of[name] or [made[0].pk], seed, diligence=0.0 if seed % 5 == 4 else 0.7)
            for seed, name in enumerate(names)
        ]
        kill_at = seconds / 3
        killer = threading.Timer(kill_at, site.kill, args=("worker-1",))
        restarter = threading.Timer(kill_at + 5, site.worker, args=("worker-1",), kwargs={"concurrency": 1})
        killer.start()
        restarter.start()
        load = run(players, seconds, lambda i: clients[i])
        restarter.join()
        # The players stop; the sweep goes on: whatever fell due must be handled within a few runs.
        time.sleep(3 * interval + 2)
        overdue = Game.objects.filter(
            pk__in=[game.pk for game in made], status=Game.Status.RUNNING, paused_at=None,
            deadline__lt=timezone.now() - timedelta(seconds=2 * interval + 2),
        ).count()  # fmt: skip
        site.close()  # nothing moves from here on
        statuses = sum((client.statuses for client in clients), Counter())
        accepted = sum((client.accepted for client in clients), Counter())
        records = ActionRecord.objects.filter(game__in=made)
        recorded = Counter(records.filter(source=ActionRecord.Source.PLAYER).values_list("game", flat=True))
        stored = list(Game.objects.filter(pk__in=[game.pk for game in made]))
        figures = {
            "players": players, "games": games, "seconds": seconds, "gunicorn_workers": 4, "celery_workers": 2,
            "requests": load["requests"], "requests_per_second": load["per_second"], "p95_ms": load["p95_ms"],
            "statuses": {str(status): count for status, count in sorted(statuses.items())},
            "server_errors": sum(count for status, count in statuses.items() if status >= 500 or status == 0),
            "moves_accepted": sum(accepted.values()),
            "moves_lost": sum(max(0, accepted[pk] - recorded[pk]) for pk in accepted),
            "moves_doubled": sum(max(0, recorded[pk] - accepted[pk]) for pk in recorded),
            "deadlines_handled": records.filter(source=ActionRecord.Source.DEADLINE).count(),
            "deadlines_stuck": overdue,
            "games_finished": sum(1 for game in stored if game.load_state().over),
            "replay_errors": sum(1 for game in stored if not _replays(game)),
            "emails_sent": SentEmail.objects.filter(to__startswith=f"{prefix}-", sent_at__gte=began).count(),
            "emails_delivered": len(mail.messages),  # more than sent: a worker killed after the SMTP server took
            "emails_doubled": mail.doubled(),  # them and before it recorded them (sent again 10 minutes later)
            "worker_killed_after_seconds": round(kill_at),
        }  # fmt: skip
        figures["ok"] = (
            figures["server_errors"] == figures["moves_lost"] == figures["moves_doubled"] == 0
            and figures["deadlines_stuck"] == figures["replay_errors"] == figures["emails_doubled"] == 0
            and figures["emails_sent"] <= figures["emails_delivered"]
        )
        return with_logs_if_not_ok(figures, site)
    finally:
        site.close()
        broker.close()
        mail.stop()
        Game.objects.filter(name=prefix).delete()
        User.objects.filter(username__startswith=f"{prefix}-").delete()
        SentEmail.objects.filter(to__startswith=f"{prefix}-").delete()  # kept by the site when a user goes


def _replays(game: Game) -> bool:
    """Whether the game's export, replayed by the engine alone, ends in the state stored."""
    replayed, error = play(parse_script(export_script(game)))
    stored = game.load_state()
    replayed.events.clear()
    stored.events.clear()
    return error is None and codec.encode(replayed) == codec.encode(stored)
