"""Web Push out: the channel and its outbox. A notice a person wants pushed (their push preferences) becomes one
row per device of theirs, made in the transaction of the notice; the outbox sends them after commit, at least once.

What is pushed: "your move" and the deadline reminders (one notification for every game waiting on the reader:
its tag and Topic are the same, so a newer push replaces the older one, shown or still undelivered), missed-round
warnings and exiles, mentions, and a game's end. A push says what a stranger reading the phone's lock screen may
read: the game, what is asked and by when; never a role, a card or a ballot.

When: at once, or at the end of the reader's quiet hours (in their time zone) unless they marked the kind urgent.
A push to a "your move" carries a TTL that ends at the deadline, and the device asks the site (`holds`) whether
the move is still owed before showing it.

Sending, as the other outboxes do: rows claimed with SELECT ... FOR UPDATE SKIP LOCKED and marked `sending` in a
short transaction; the HTTP request outside any transaction; a row a dead worker left `sending` claimed again after
CLAIM_TIMEOUT. The push service's answer decides: 201 sent; 404 or 410 the subscription is gone (the device is
removed, and its rows with it); 429 and 5xx again after Retry-After when it says, else after a growing delay; 413
and other refusals failed for good. One row that cannot be sent fails alone.
"""

import http.client
import logging
from collections import defaultdict
from datetime import datetime, timedelta

from django.core import signing
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.announcements import describe_stored
from games.dispatch import queue_now
from games.engine import waiting_for
from games.models import Game, Notification, Profile, PushDevice, PushMessage, PushPreferences, Seat
from games.wording import colon, when

from .bell import owed_data
from .channels import Channel
from .failures import Failures
from .messages import describe_notification, owed
from .outbox import claim_due
from .webhook_targets import BlockedAddress
from .webpush import Answer, configured, public_key, redacted_error, send

log = logging.getLogger(__name__)

PREFERENCE = {
    Notification.Kind.YOUR_MOVE: "moves",
    Notification.Kind.REMINDER: "reminders",
    Notification.Kind.WARNING: "warnings",
    Notification.Kind.EXILED: "warnings",
    Notification.Kind.MENTION: "mentions",
    Notification.Kind.GAME_OVER: "endings",
}
URGENT_KINDS = (Notification.Kind.WARNING, Notification.Kind.EXILED)  # and moves: RFC 8030's "high"
MOVES = "moves"  # the tag, and Topic, of every "your move" and reminder: one notification for all the games
BATCH = 50
CLAIM_TIMEOUT = timedelta(minutes=10)
MAX_ATTEMPTS = 8
MAX_DELAY = timedelta(hours=1)
MIN_DELAY = timedelta(seconds=30)
NO_DEADLINE_TTL = int(timedelta(days=7).total_seconds())  # what waits for no deadline waits a week at most
LISTED = 6  # games a "your move" names; the rest are counted, so that the push stays within its size
MAX_HELD = 50  # moves a push's token speaks for
HOLDS_SALT = "games.push.holds"
HOLDS_MAX_AGE = NO_DEADLINE_TTL  # a token outlives no push
SENT_STATUSES = (200, 201, 202)
GONE_STATUSES = (404, 410)


class Push(Channel):
    """The notices its readers want pushed become rows of its outbox, one per device."""

    def changes(self, changes, notices: list[Notification]) -> None:
        if notices:
            enqueue(notices, changes[0].now)

    def notices(self, notices: list[Notification], now: datetime) -> None:
        enqueue(notices, now)


def enqueue(notices: list[Notification], now: datetime) -> int:
    """A row per device for each notice its reader wants pushed, due now or when their quiet hours end; a notice
    enqueued twice is one row (its key). Returns how many rows were asked for."""
    notices = [notice for notice in notices if notice.kind in PREFERENCE]
    if not notices or not configured():
        return 0
    readers = {notice.user_id for notice in notices}
    devices = defaultdict(list)
    for device in PushDevice.objects.filter(user_id__in=readers, server_key=public_key()).only("pk", "user_id"):
        devices[device.user_id].append(device)
    if not devices:
        return 0
    preferences = {p.user_id: p for p in PushPreferences.objects.filter(user_id__in=devices)}
    zones = dict(Profile.objects.filter(user_id__in=devices).values_list("user_id", "time_zone"))
    rows = []
    for notice in notices:
        wanted = preferences.get(notice.user_id) or PushPreferences(user_id=notice.user_id)
        choice = getattr(wanted, PREFERENCE[notice.kind])
        if choice == PushPreferences.Choice.OFF:
            continue
        due = now
        if choice == PushPreferences.Choice.ON:
            due = wanted.quiet_until(now, zones.get(notice.user_id, "UTC")) or now
        for device in devices.get(notice.user_id, []):
            rows.append(
                PushMessage(
                    device=device,
                    game_id=notice.game_id,
                    key=notice.key,
                    kind=notice.kind,
                    data=notice.data,
                    tag=tag_of(notice.kind, notice.game_id),
                    created_at=now,
                    due_at=due,
                )
            )
    if rows:
        PushMessage.objects.bulk_create(rows, ignore_conflicts=True)
        transaction.on_commit(_send_soon)
    return len(rows)


def tag_of(kind: str, game_id: int | None) -> str:
    """The notification a push shows as: one for every move owed, one per game for the rest."""
    if kind in (Notification.Kind.YOUR_MOVE, Notification.Kind.REMINDER):
        return MOVES
    return f"{PREFERENCE[kind]}-{game_id}"


def _send_soon() -> None:
    queue_now("games.send_pushes")


# Sent outside any transaction, at least once


def send_due_pushes(*, now: datetime | None = None, failures: Failures | None = None) -> int:
    """Send every push due; returns how many pushes the push services took. Rows of one device and tag due together
    are one push."""
    failures = Failures() if failures is None else failures
    sent = 0
    while claimed := claim_due(PushMessage, now=now or timezone.now(), timeout=CLAIM_TIMEOUT, batch=BATCH,
                               related="device"):  # fmt: skip
        batch = _Batch(claimed)
        for rows in batch.groups():
            try:
                sent += _push(rows, batch, now or timezone.now())
            except Exception as error:
                text = failures.add(f"push {rows[0].pk}", redacted_error(error, rows[0].device.endpoint))
                _settle(rows, PushMessage.Status.FAILED, now=now or timezone.now(), error=text)
        batch.write(now or timezone.now())
    return sent


class _Batch:
    """A claim's rows with what their pushes read, read once for them all: each reader's profile, the moves each owes
    now (every game's state loaded once), the games named. What became of each push is written as soon as its
    answer came, so that a worker that dies mid-claim sends nothing twice but the push it was sending."""

    def __init__(self, rows: list[PushMessage]) -> None:
        self.rows = rows
        readers = {row.device.user_id for row in rows}
        self.profiles = {profile.user_id: profile for profile in Profile.objects.filter(user_id__in=readers)}
        self.owing = owed_by({row.device.user_id for row in rows if row.tag == MOVES})
        self.games = Game.objects.defer("state").in_bulk({row.game_id for row in rows if row.tag != MOVES})
        self.sent_to: set[int] = set()
        self.gone: set[int] = set()  # devices removed during the claim: their other rows went with them

    def groups(self) -> list[list[PushMessage]]:
        grouped = defaultdict(list)
        for row in self.rows:
            grouped[(row.device_id, row.tag)].append(row)
        return list(grouped.values())

    def profile(self, user_id: int) -> Profile:
        return self.profiles.get(user_id) or Profile(user_id=user_id)

    def write(self, now: datetime) -> None:
        """The devices' last push, once for the claim: what the list of devices shows, no outbox's state."""
        if self.sent_to:
            PushDevice.objects.filter(pk__in=self.sent_to).update(last_sent_at=now)


def _settle(rows: list[PushMessage], status: str, *, now: datetime, error: str = "") -> None:
    """What became of these rows, written at once."""
    PushMessage.objects.filter(pk__in=[row.pk for row in rows]).update(
        status=status,
        error=error[:200],
        sent_at=now if status == PushMessage.Status.SENT else None,
        attempts=F("attempts") + 1,
    )


def _push(rows: list[PushMessage], batch: _Batch, now: datetime) -> int:
    """One push for these rows (one device, one tag); 1 if the push service took it."""
    device = rows[0].device
    if device.pk in batch.gone:
        return 0
    if device.server_key != public_key():  # subscribed with an older key: its next visit subscribes it again
        _settle(rows, PushMessage.Status.SKIPPED, now=now, error="the device subscribed with an older key")
        return 0
    profile = batch.profile(device.user_id)
    with translation.override(profile.language), timezone.override(profile.time_zone):
        message, ttl = compose(rows, batch, now)
    if message is None:
        _settle(rows, PushMessage.Status.SKIPPED, now=now)
        return 0
    tag = rows[0].tag
    urgency = "high" if tag == MOVES or rows[0].kind in URGENT_KINDS else "normal"
    try:
        answer = send(device.endpoint, device.p256dh, device.auth, message, ttl=ttl, topic=tag, urgency=urgency)
    except (OSError, http.client.HTTPException, BlockedAddress) as error:  # the connection's: tried again
        answer, error_text = None, redacted_error(error, device.endpoint)
    else:
        error_text = f"HTTP {answer.status}"
    return _answered(rows, batch, answer, error_text, ttl, now)


def _answered(rows: list[PushMessage], batch: _Batch, answer: Answer | None, error: str, ttl: int, now) -> int:
    device = rows[0].device
    if answer is not None and answer.status in SENT_STATUSES:
        _settle(rows, PushMessage.Status.SENT, now=now)
        batch.sent_to.add(device.pk)
        return 1
    if answer is not None and answer.status in GONE_STATUSES:
        log.info("push subscription %s is gone (%s): device removed", device.pk, answer.status)
        batch.gone.add(device.pk)
        batch.sent_to.discard(device.pk)
        device.delete()  # and its rows
        return 0
    retried = answer is None or answer.status == 429 or answer.status >= 500
    attempts = rows[0].attempts + 1
    if not retried or attempts >= MAX_ATTEMPTS:
        _settle(rows, PushMessage.Status.FAILED, now=now, error=error)
        return 0
    delay = min(timedelta(minutes=2 ** (attempts - 1)), MAX_DELAY)
    if answer is not None and answer.retry_after is not None:  # as it says, but never at once again
        delay = max(timedelta(seconds=answer.retry_after), MIN_DELAY)
    if delay.total_seconds() >= ttl:  # it would arrive after it stops being true
        _settle(rows, PushMessage.Status.SKIPPED, now=now, error=error)
        return 0
    PushMessage.objects.filter(pk__in=[row.pk for row in rows]).update(
        status=PushMessage.Status.PENDING, due_at=now + delay, attempts=F("attempts") + 1, error=error[:200]
    )
    return 0


# What a push says


def compose(rows: list[PushMessage], batch: _Batch, now: datetime) -> tuple[dict | None, int]:
    """The push for these rows, in the active language and zone, and its TTL in seconds; None when nothing of them
    is still true (every move they announced was made)."""
    if rows[0].tag == MOVES:
        reminder = any(row.kind == Notification.Kind.REMINDER for row in rows)
        user_id = rows[0].device.user_id
        return _moves(batch.owing.get(user_id, []), user_id, now, reminder=reminder)
    row = max(rows, key=lambda r: (r.created_at, r.pk))  # the newest of a game's tag says it
    game = batch.games.get(row.game_id)
    if game is None:
        return None, 0
    if row.kind == Notification.Kind.GAME_OVER:
        title = _("%(game)s is over") % {"game": game.name}
        body = describe_stored(row.data["event"], row.data)  # who won and how: no role
        url = reverse("games:secret_history", args=[game.pk])
    else:
        title = game.name
        body = describe_notification(Notification(kind=row.kind, data=row.data, user_id=row.device.user_id), game)
        url = reverse("games:thread", args=[game.pk])
    return {"tag": row.tag, "title": title, "body": body, "url": url}, NO_DEADLINE_TTL


def _moves(owing: list[tuple[Game, dict]], user_id: int, now: datetime, *, reminder: bool) -> tuple[dict | None, int]:
    """Every move the reader owes now, as one notification: the games, what each asks and by when (the first
    LISTED of them, and how many more), and a token the device shows the site to ask whether it still holds."""
    if not owing:
        return None, 0
    deadlines = [game.deadline for game, _data in owing if game.deadline is not None]
    ttl = int((max(deadlines) - now).total_seconds()) if len(deadlines) == len(owing) else NO_DEADLINE_TTL
    if ttl <= 0:  # every deadline passed: what it would say is no longer true
        return None, 0
    if len(owing) == 1:
        game, data = owing[0]
        title = (_("Reminder: your move in %(game)s") if reminder else _("Your move in %(game)s")) % {"game": game.name}
        lines = [_sentence(owed(data), game)]
        url = reverse("games:thread", args=[game.pk]) + "#panel"
    else:
        title = ngettext("Your move in %(count)s game", "Your move in %(count)s games", len(owing)) % {
            "count": len(owing)
        }
        lines = [f"{game.name}{colon()} {_sentence(owed(data), game)}" for game, data in owing[:LISTED]]
        if len(owing) > LISTED:
            more = len(owing) - LISTED
            lines.append(ngettext("and %(count)s more game", "and %(count)s more games", more) % {"count": more})
        url = reverse("games:home")
    moves = ",".join(f"{game.pk}.{data['step_number']}" for game, data in owing[:MAX_HELD])
    holds = signing.dumps({"user": user_id, "moves": moves}, salt=HOLDS_SALT, compress=True)
    message = {"tag": MOVES, "title": title, "body": "\n".join(lines), "url": url, "holds": holds}
    return message, ttl


def _sentence(asked: str, game: Game) -> str:
    if game.deadline is None:
        return asked
    return _("%(owed)s, by %(deadline)s") % {"owed": asked, "deadline": when(game.deadline)}


def owed_by(user_ids: set[int]) -> dict[int, list[tuple[Game, dict]]]:
    """For each of these readers, each running game that waits for a move of theirs, with what it asks (a
    notice's data), soonest deadline first: one query, and each game's state read once whoever sits in it."""
    seats = Seat.objects.filter(
        user_id__in=user_ids, active=True, pending=False, number__isnull=False, game__status=Game.Status.RUNNING,
        game__paused_at=None,
    ).select_related("game")  # fmt: skip
    owing, states = defaultdict(list), {}
    for seat in seats.order_by("game__deadline", "game_id"):
        game = seat.game
        if game.pk not in states:
            states[game.pk] = game.load_state()
        state = states[game.pk]
        if seat.number in waiting_for(state):
            owing[seat.user_id].append((game, owed_data(game, state, seat.number)))
    return owing


def still_owed(holds: str) -> bool:
    """Whether any of the moves a push announced is still its reader's to make: the device shows the push's token
    (signed here, so it speaks for the reader without their session, which may have ended) before it shows a "your
    move" that may have waited in the push service. A token that is not ours, or too old, holds nothing."""
    try:
        said = signing.loads(holds, salt=HOLDS_SALT, max_age=HOLDS_MAX_AGE)
    except signing.BadSignature:
        return False
    announced = set()
    for item in str(said.get("moves", "")).split(",")[:MAX_HELD]:
        game, _dot, step = item.partition(".")
        if game.isdigit() and step.isdigit():
            announced.add((int(game), int(step)))
    user_id = said.get("user")
    owing = owed_by({user_id}).get(user_id, []) if isinstance(user_id, int) else []
    return any((game.pk, data["step_number"]) in announced for game, data in owing)
