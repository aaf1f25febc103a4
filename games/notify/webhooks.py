"""Webhooks: deliveries made in the same transaction as what they announce, sent at least once.

What is sent:
- to a game's subscriptions: its public events as they happen (`game.events`, with the deadline) and each new
  post of the game thread (`post.created`): what anyone reading the game's page sees; an unlisted game's, only
  while their owner may read it at its number (in it, its creator, a moderator), and by its number, never its key;
- to a user's notice subscriptions: `notice.your_move` and `notice.reminder`, with the game, the step and the
  deadline and the API address where the owner's token reads the rest. Never a role, a hand or a result: such
  notices are often posted into shared chat rooms.

How (docs/integrating/webhooks.md): a POST of JSON, signed with the subscription's secret: the header
`X-SH-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>." + body>`; `X-SH-Delivery` is the idempotency key (the
same for every try of one delivery); `X-SH-Event` the event's name. A 2xx answer is a delivery; anything else
(a redirect too: none is followed) is retried after 1, 2, 4 ... minutes, at most hourly, for a day; then the
delivery is abandoned, the subscription disabled and its owner told. The address is checked when connecting,
not only when saved (DNS rebinding: webhook_targets says which addresses webhooks may reach). Short timeouts;
the response body is read (a little of it) and never kept. A URL is a credential (Discord's and Slack's carry
one in the path): what is logged or stored about a delivery names the URL's host, never the rest of it.
"""

import hashlib
import hmac
import http.client
import json
import logging
import time
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.access import may_read_at_number
from games.dispatch import queue_now
from games.models import Game, Notification, Post, WebhookDelivery, WebhookSubscription

from .bell import notify_webhook_disabled
from .channels import Channel
from .failures import Failures
from .outbox import claim_due
from .webhook_targets import BlockedAddress, CheckedHTTP, CheckedHTTPS, delivery_error, without_url

log = logging.getLogger(__name__)

GIVE_UP_AFTER = timedelta(days=1)
MAX_DELAY = timedelta(hours=1)
CLAIM_TIMEOUT = timedelta(minutes=10)
BATCH = 50
READ_AT_MOST = 65_536
NOTICE_KINDS = {Notification.Kind.YOUR_MOVE: "notice.your_move", Notification.Kind.REMINDER: "notice.reminder"}


class Webhooks(Channel):
    """A game's subscriptions hear its events and posts; a user's notice subscriptions, their notices."""

    def changes(self, changes, notices: list[Notification]) -> None:
        enqueue_changes(changes, notices)

    def notices(self, notices: list[Notification], now: datetime) -> None:
        enqueue_notices(notices, now)

    def post(self, game: Game, post: Post, now: datetime) -> None:
        enqueue_post(game, post, now)


# Enqueued in the transaction of the change (so that nothing announced is lost, and nothing is announced that
# was rolled back)


def enqueue_changes(changes, notices: list[Notification]) -> None:
    """The public events of each changed game for its subscriptions, and the notices just made for their owners'
    subscriptions: one query for a whole batch of changes."""
    changed = {change.game.pk: change for change in changes if change.events}
    notices = [n for n in notices if n.kind in NOTICE_KINDS and n.game_id is not None]
    if not changed and not notices:
        return
    subscriptions = list(
        _active().filter(
            Q(kind=WebhookSubscription.Kind.GAME, game_id__in=changed)
            | Q(kind=WebhookSubscription.Kind.NOTICES, owner_id__in={n.user_id for n in notices})
        )
    )
    if not subscriptions:
        return
    now = changes[0].now
    games = {change.game.pk: change.game for change in changes}
    rows = []
    for subscription in subscriptions:
        if subscription.kind == WebhookSubscription.Kind.GAME and _may_hear(subscription, games):
            rows.append(_events(subscription, changed[subscription.game_id]))
    rows += _notices([s for s in subscriptions if s.kind == WebhookSubscription.Kind.NOTICES], notices, games, now)
    _enqueue(rows)


def _events(subscription: WebhookSubscription, change) -> WebhookDelivery:
    game = change.game
    events = [{"index": e.index, "type": e.type, **e.data} for e in change.events]
    body = {
        "event": "game.events",
        **_game(game),
        "step_number": game.step_number,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "events": events,
    }
    return _delivery(subscription, f"events:{game.pk}:{events[0]['index']}", body, change.now)


def enqueue_post(game: Game, post: Post, now: datetime) -> None:
    """A new post of the game thread, for the game's subscriptions."""
    if post.thread != Post.Thread.MAIN:
        return
    author = post.author.get_username() if post.author else None
    body = {
        "event": "post.created",
        **_game(game),
        "post": {"id": post.pk, "author": author, "body": post.body, "created_at": post.created_at.isoformat()},
    }
    rows = [
        _delivery(subscription, f"post:{post.pk}", body, now)
        for subscription in _active().filter(kind=WebhookSubscription.Kind.GAME, game=game)
        if _may_hear(subscription, {game.pk: game})
    ]
    _enqueue(rows)


def _may_hear(subscription: WebhookSubscription, games: dict[int, Game]) -> bool:
    """Whether a game subscription's owner may still read its game at its number: always a public game's; an
    unlisted game's only while in it, its creator or a moderator (a moderator who no longer is hears no more)."""
    game = games[subscription.game_id]
    return game.visibility == Game.Visibility.PUBLIC or may_read_at_number(game, subscription.owner)  # owner: a query


def enqueue_notices(notices: list[Notification], now: datetime) -> None:
    """Notices made outside a change (reminders), for their owners' subscriptions."""
    notices = [n for n in notices if n.kind in NOTICE_KINDS and n.game_id is not None]
    if not notices:
        return
    subscriptions = list(
        _active().filter(kind=WebhookSubscription.Kind.NOTICES, owner_id__in={n.user_id for n in notices})
    )
    if subscriptions:
        owners = {s.owner_id for s in subscriptions}
        games = Game.objects.defer("state").in_bulk({n.game_id for n in notices if n.user_id in owners})
        _enqueue(_notices(subscriptions, notices, games, now))


def _notices(subscriptions, notices: list[Notification], games: dict, now: datetime) -> list[WebhookDelivery]:
    """ "Your move" and reminders: what and by when, and where the owner's token reads the rest. No secret."""
    by_owner: dict[int, list[WebhookSubscription]] = {}
    for subscription in subscriptions:
        by_owner.setdefault(subscription.owner_id, []).append(subscription)
    rows = []
    for notice in notices:
        game = games.get(notice.game_id)
        for subscription in by_owner.get(notice.user_id, []) if game is not None else []:
            body = {
                "event": NOTICE_KINDS[notice.kind],
                **_game(game),
                "step_number": notice.data.get("step_number"),
                "deadline": notice.data.get("deadline"),
                "panel": _absolute(f"/api/v1/games/{game.pk}/me"),
            }
            rows.append(_delivery(subscription, f"notice:{notice.key}", body, now))
    return rows


def _active():
    return WebhookSubscription.objects.filter(disabled_at=None)


def _game(game: Game) -> dict:
    return {
        "game": {
            "id": game.pk,
            "name": game.name,
            # By its number, never an unlisted game's key: whoever may hear of the game reads it there.
            "url": _absolute(reverse("games:thread", args=[game.pk])),
            "api": _absolute(f"/api/v1/games/{game.pk}"),
        }
    }


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _delivery(subscription: WebhookSubscription, key: str, body: dict, now: datetime) -> WebhookDelivery:
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return WebhookDelivery(
        subscription=subscription, key=key, event=body["event"], body=text, created_at=now, due_at=now
    )


def _enqueue(rows: list[WebhookDelivery]) -> None:
    if rows:
        WebhookDelivery.objects.bulk_create(rows, ignore_conflicts=True)  # the same event twice: one delivery
        transaction.on_commit(_deliver_soon)


def _deliver_soon() -> None:
    queue_now("games.deliver_webhooks")


# Sent outside any transaction, at least once


def deliver_due(*, now: datetime | None = None, failures: Failures | None = None) -> int:
    """Send every delivery due; returns how many were delivered. (`now` fixed: for tests.) A delivery that
    cannot be sent at all is failed alone, with its error; the others go on."""
    failures = Failures() if failures is None else failures
    delivered = 0
    while claimed := claim_due(WebhookDelivery, now=now or timezone.now(), timeout=CLAIM_TIMEOUT, batch=BATCH,
                               related="subscription"):  # fmt: skip
        for delivery in claimed:
            try:
                delivered += _attempt(delivery, now or timezone.now())
            except Exception as error:
                error = delivery_error(error, delivery.subscription.url)
                _fail(delivery, failures.add(f"webhook delivery {delivery.pk}", error))
    return delivered


def _attempt(delivery: WebhookDelivery, now: datetime) -> int:
    subscription = delivery.subscription
    if subscription.disabled_at is not None:
        _finish(delivery, WebhookDelivery.Status.ABANDONED, "the subscription is disabled")
        return 0
    try:
        status = send(subscription.url, subscription.secret, delivery)
        error = "" if 200 <= status < 300 else f"HTTP {status}"
    except (OSError, http.client.HTTPException, BlockedAddress) as failure:  # the receiver's: tried again
        error = without_url(f"{type(failure).__name__}: {failure}", subscription.url)[:200]
    delivery.attempts += 1
    if not error:
        delivery.delivered_at = now
        _finish(delivery, WebhookDelivery.Status.DELIVERED, "")
        WebhookSubscription.objects.filter(pk=subscription.pk).update(failures=0, last_success_at=now)
        return 1
    if now - delivery.created_at >= GIVE_UP_AFTER:
        _finish(delivery, WebhookDelivery.Status.ABANDONED, error)
        _disable(subscription, now)
        return 0
    delay = min(timedelta(minutes=2 ** (delivery.attempts - 1)), MAX_DELAY)
    delivery.status, delivery.due_at, delivery.last_error = WebhookDelivery.Status.PENDING, now + delay, error
    delivery.save(update_fields=["status", "due_at", "last_error", "attempts"])
    WebhookSubscription.objects.filter(pk=subscription.pk).update(failures=subscription.failures + 1)
    return 0


def _fail(delivery: WebhookDelivery, error: str) -> None:
    """A delivery that can never be sent as it stands (a malformed address or header, anything unforeseen):
    failed for good with its error, so that no run claims it again; its subscription goes on."""
    WebhookDelivery.objects.filter(pk=delivery.pk).update(status=WebhookDelivery.Status.FAILED, last_error=error[:200])


def _finish(delivery: WebhookDelivery, status: str, error: str) -> None:
    delivery.status, delivery.last_error = status, error
    delivery.save(update_fields=["status", "last_error", "attempts", "delivered_at"])


def _disable(subscription: WebhookSubscription, now: datetime) -> None:
    """A day of failures: the subscription stops, what waits for it is abandoned, and its owner is told."""
    with transaction.atomic():
        if not WebhookSubscription.objects.filter(pk=subscription.pk, disabled_at=None).update(disabled_at=now):
            return
        subscription.deliveries.filter(status=WebhookDelivery.Status.PENDING).update(
            status=WebhookDelivery.Status.ABANDONED, last_error="the subscription is disabled"
        )
        notify_webhook_disabled(subscription, now)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value (docs/integrating/webhooks.md, with a receiver's check)."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def send(url: str, secret: str, delivery: WebhookDelivery) -> int:
    """POST the delivery to `url` through a connection to a checked address; its HTTP status."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("a webhook URL is http or https, with a host")
    body = delivery.body.encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": f"{settings.SITE_NAME} webhooks",
        "X-SH-Event": delivery.event,
        "X-SH-Delivery": delivery.key,
        "X-SH-Signature": signature(secret, int(time.time()), body),
    }
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS
    if parts.scheme == "https":
        connection = CheckedHTTPS(parts.hostname, parts.port or 443, timeout=timeout)
    else:
        connection = CheckedHTTP(parts.hostname, parts.port or 80, timeout=timeout)
    try:
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(READ_AT_MOST)  # read a little, keep nothing
        return response.status
    finally:
        connection.close()
