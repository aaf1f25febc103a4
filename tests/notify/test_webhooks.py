"""Issue 18: webhooks. Deliveries signed, with an idempotency key, at least once with a growing delay for a day,
then the subscription disabled and its owner told; targets checked when connecting (no private address unless
allowed: the tests allow 127.0.0.1 only); notices carry no secret. A real HTTP receiver on loopback."""

import hashlib
import hmac
import ipaddress
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Notification, WebhookDelivery, WebhookSubscription
from games.notify.bell import queue_reminders
from games.notify.webhook_targets import allowed, check_url, rfc6052_ipv4
from games.notify.webhooks import deliver_due
from games.services import make_move
from games.services.forum import post_message
from tests.factories import make_user, running_game, subscribe
from tests.services import Receiver

pytestmark = pytest.mark.django_db


def check_signature(headers: dict, body: bytes, secret: str = "whsec_test") -> bool:
    """What a receiver does (docs/integrating/webhooks.md)."""
    fields = dict(part.split("=", 1) for part in headers["X-SH-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"])


def test_a_games_public_events_and_posts_are_delivered_signed(receiver):
    game = running_game(now=timezone.now())
    subscribe("game", receiver.url, game=game)
    make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1)
    post_message(game.pk, make_user("cat"), "Bob? Really?")
    assert deliver_due() == 2
    (events_headers, events_body), (post_headers, post_body) = receiver.received
    assert check_signature(events_headers, events_body) and check_signature(post_headers, post_body)
    events = json.loads(events_body)
    assert events["event"] == "game.events" and events["events"][0]["type"] == "nominated"
    assert events_headers["X-SH-Event"] == "game.events" and events_headers["X-SH-Delivery"].startswith("events:")
    assert json.loads(post_body)["post"]["body"] == "Bob? Really?"
    assert deliver_due() == 0  # delivered once


def test_notices_carry_no_role_hand_or_result(receiver):
    game = running_game(now=timezone.now())
    subscribe("notices", receiver.url, owner="bob")
    make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1)
    for name in ("ann", "bob", "cat", "dan", "eve"):
        make_move(game.pk, make_user(name), {"type": "vote", "vote": "ja"}, 2)
    make_move(game.pk, make_user("ann"), {"type": "discard", "policy": "F"}, 3)  # bob, chancellor, owes now
    deliver_due()
    bodies = [json.loads(body) for _headers, body in receiver.received]
    assert [b["event"] for b in bodies] == ["notice.your_move", "notice.your_move"]  # the vote, then enacting
    for body in bodies:  # what and by when, where to read the rest: nothing else
        assert set(body) == {"event", "game", "step_number", "deadline", "panel"}
        assert set(body["game"]) == {"id", "name", "url", "api"}
    assert [b["step_number"] for b in bodies] == [2, 4]
    assert not any(word in json.dumps(bodies).lower() for word in ("fascist", "liberal", "hitler", "policy", "hand"))
    assert bodies[-1]["panel"].endswith(f"/api/v1/games/{game.pk}/me")


def test_a_reminder_reaches_its_owners_subscription(receiver):
    game = running_game(now=timezone.now())
    subscribe("notices", receiver.url, owner="ann")
    deliver_due()
    receiver.received.clear()
    later = game.deadline - timedelta(hours=2)
    queue_reminders(now=later)
    deliver_due(now=later)
    assert [json.loads(body)["event"] for _h, body in receiver.received] == ["notice.reminder"]


def test_a_failing_url_is_retried_later_with_the_same_key_then_disabled_after_a_day(settings):
    settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1"]
    failing = Receiver(status=500)
    try:
        game = running_game(now=timezone.now())
        subscription = subscribe("game", failing.url, game=game)
        start = timezone.now()
        make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1, now=start)
        assert deliver_due(now=start) == 0
        delivery = WebhookDelivery.objects.get()
        assert (delivery.status, delivery.attempts, delivery.last_error) == ("pending", 1, "HTTP 500")
        assert delivery.due_at == start + timedelta(minutes=1)
        assert deliver_due(now=start + timedelta(seconds=30)) == 0 and len(failing.received) == 1  # not yet
        deliver_due(now=start + timedelta(minutes=1))
        assert WebhookDelivery.objects.get().due_at == start + timedelta(minutes=3)  # 1, then 2 minutes
        keys = {headers["X-SH-Delivery"] for headers, _body in failing.received}
        assert len(keys) == 1  # every try the same idempotency key
        failing.status = 302  # a redirect is not followed: a failure too
        deliver_due(now=start + timedelta(days=1, minutes=1))
        subscription.refresh_from_db()
        assert subscription.disabled_at is not None and WebhookDelivery.objects.get().status == "abandoned"
        notice = Notification.objects.get(kind="webhook")
        assert notice.user.username == "ann" and notice.email == Notification.Email.PENDING
        assert "the receiver's own words" not in str(list(WebhookDelivery.objects.values()))
        make_move(
            game.pk, make_user("bob"), {"type": "vote", "vote": "ja"}, 2, now=start + timedelta(days=1, minutes=2)
        )
        assert not WebhookDelivery.objects.filter(status="pending").exists()  # a disabled URL is sent nothing
    finally:
        failing.close()


@pytest.mark.parametrize(
    "address, ok",
    [
        ("127.0.0.1", False), ("10.1.2.3", False), ("192.168.0.9", False), ("172.16.5.4", False),
        ("169.254.169.254", False), ("::1", False), ("fd00::1", False), ("fe80::1", False),
        ("::ffff:10.0.0.1", False), ("::ffff:127.0.0.1", False), ("0.0.0.0", False), ("100.64.0.1", False),
        ("224.0.0.1", False), ("93.184.216.34", True), ("2606:2800:220:1::1", True),
    ],
)  # fmt: skip
def test_only_public_addresses_are_reached(settings, address, ok):
    settings.WEBHOOK_ALLOWED_ADDRESSES = []
    assert allowed(address) is ok


def test_the_address_is_checked_when_connecting_not_only_when_saved(settings, receiver):
    game = running_game(now=timezone.now())
    subscription = subscribe("game", receiver.url, game=game)  # saved while 127.0.0.1 was allowed
    settings.WEBHOOK_ALLOWED_ADDRESSES = []  # then the name (here an address) is no longer reachable
    make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1)
    assert deliver_due() == 0 and receiver.received == []
    assert "BlockedAddress" in WebhookDelivery.objects.get(subscription=subscription).last_error
    assert "private or local address" in check_url("http://localhost:8000/hook")
    assert check_url("ftp://example.org/") and check_url("http://no-such-host.invalid/")


def test_the_same_event_enqueued_twice_is_one_delivery(receiver):
    game = running_game(now=timezone.now())
    subscribe("game", receiver.url, game=game)
    post = post_message(game.pk, make_user("cat"), "once")
    from games.notify.webhooks import enqueue_post

    enqueue_post(game, post, timezone.now())
    assert WebhookDelivery.objects.count() == 1 and deliver_due() == 1


def test_subscribing_is_for_the_games_creator_or_a_moderator(client_for, receiver):
    game = running_game(now=timezone.now())
    stranger = client_for("zoe")
    assert stranger.get(f"/games/{game.pk}/webhooks/").status_code == 403
    game.created_by = make_user("ann")
    game.save()
    ann = client_for("ann")
    page = ann.post(f"/games/{game.pk}/webhooks/", {"url": receiver.url}).content.decode()
    assert "whsec_" in page and WebhookSubscription.objects.get().kind == "game"
    mine = ann.post("/profile/webhooks/", {"url": "http://10.0.0.5/hook"}).content.decode()
    assert "private or local address" in mine


def test_two_games_with_the_same_public_history_send_the_same_webhook_bodies(receiver):
    """The no-leak check for webhooks: other roles, hands, discards and peeks; the same bodies for everyone."""
    import re

    from games.models import Game
    from games.services.deadlines import sweep_due_deadlines
    from games.services.notes import save_notes
    from games.services.transfer import import_script
    from tests.factories import ACTIONS, DECK_A, DECK_B, PLAYERS, ROLES_A, ROLES_B

    sent = []
    for roles, deck in ((ROLES_A, DECK_A), (ROLES_B, DECK_B)):
        WebhookSubscription.objects.all().delete()
        receiver.received.clear()
        now = timezone.now()
        script = {"players": PLAYERS, "roles": roles, "deck": deck, "first_president": "ann", "actions": []}
        game = import_script(script, now=now, name="The same game")
        subscribe("game", receiver.url, game=game)
        for name in PLAYERS:
            subscribe("notices", receiver.url, owner=name)
            save_notes(game.pk, make_user(name), f"private-note-of-{name}", now=now)  # never sent (issue 29)
        for action in ACTIONS:
            if action["type"] == "timeout":
                Game.objects.filter(pk=game.pk).update(deadline=now - timedelta(seconds=1))
                sweep_due_deadlines(now=now)
            else:
                move = {key: value for key, value in action.items() if key != "by"}
                make_move(game.pk, make_user(action["by"]), move, Game.objects.get(pk=game.pk).step_number, now=now)
        deliver_due(now=now)
        bodies = sorted(body.decode().replace(f"/games/{game.pk}", "/games/ID") for _headers, body in receiver.received)
        sent.append([re.sub(r'"(id|deadline)":("[^"]*"|\d+)', r'"\1":X', body) for body in bodies])
    assert len(sent[0]) > 10 and sent[0] == sent[1]
    assert not any("private-note" in body for body in sent[0])


# Issue 27: an IPv6 address that carries an IPv4 address is judged by the IPv4 address it carries.
CARRYING_LOOPBACK = [
    "::ffff:7f00:1",  # IPv4-mapped
    "2002:7f00:1::1",  # 6to4
    "2001:0:5db8:d822::80ff:fffe",  # Teredo: the client 127.0.0.1, its bits inverted
    "2001:0:7f00:1::a247:27dd",  # Teredo: the server 127.0.0.1
    "64:ff9b::7f00:1",  # NAT64, the well-known prefix
    "64:ff9b:1:7f00:0:100::",  # NAT64, a local-use prefix (/48)
    "64:ff9b:1::7f00:1",  # NAT64, a local-use prefix (/96)
    "::7f00:1",  # IPv4-compatible
]
CARRYING_PRIVATE = ["2002:a00:1::1", "2002:c0a8:1::1", "2002:a9fe:a9fe::1", "64:ff9b::a00:5", "::a00:5"]
# RFC 6052 section 2.2: under a local-use prefix (64:ff9b:1::/48) the IPv4 address sits at /48, /56, /64 or /96,
# split around the "u" octet (bits 64-71); here the u octet and the other bytes are 8, so that every other place
# the address could sit reads as a public address (8.x.x.x): only the right reading refuses them.
NAT64_LOCAL_CARRYING_PRIVATE = [
    "64:ff9b:1:c0a8:801:108:808:808",  # /48: 192.168.1.1
    "64:ff9b:1:a00:800:508:808:808",  # /48: 10.0.0.5
    "64:ff9b:1:80a:801:203:808:808",  # /56: 10.1.2.3
    "64:ff9b:1:87f:800:1:808:808",  # /56: 127.0.0.1
    "64:ff9b:1:808:8c0:a801:108:808",  # /64: 192.168.1.1
    "64:ff9b:1:808:87f:0:108:808",  # /64: 127.0.0.1
    "64:ff9b:1:808:808:808:a00:5",  # /96: 10.0.0.5
]
CARRYING_PUBLIC = [
    "2002:5db8:d822::1",
    "2001:0:5db8:d822::a247:27dd",
    "64:ff9b::5db8:d822",
    "64:ff9b:1:808:8:808:808:808",  # 8.8.8.8 wherever RFC 6052 puts it
    "::5db8:d822",
]


@pytest.mark.parametrize(
    "prefix_length, address",
    [
        (32, "2001:db8:c000:221::"),
        (40, "2001:db8:1c0:2:21::"),
        (48, "2001:db8:122:c000:2:2100::"),
        (56, "2001:db8:122:3c0:0:221::"),
        (64, "2001:db8:122:344:c0:2:2100:0"),
        (96, "2001:db8:122:344::192.0.2.33"),
    ],
)
def test_the_ipv4_address_is_read_where_rfc_6052_puts_it_for_each_prefix_length(prefix_length, address):
    """RFC 6052 section 2.4's own examples: 192.0.2.33 under each prefix length."""
    assert str(rfc6052_ipv4(ipaddress.IPv6Address(address), prefix_length)) == "192.0.2.33"


@pytest.mark.parametrize("address", CARRYING_LOOPBACK + CARRYING_PRIVATE + NAT64_LOCAL_CARRYING_PRIVATE)
def test_an_ipv6_address_carrying_a_private_ipv4_address_is_refused(settings, address):
    settings.WEBHOOK_ALLOWED_ADDRESSES = []
    assert allowed(address) is False


@pytest.mark.parametrize("address", CARRYING_PUBLIC)
def test_an_ipv6_address_carrying_a_public_ipv4_address_is_reached(settings, address):
    settings.WEBHOOK_ALLOWED_ADDRESSES = []
    assert allowed(address) is True


@pytest.mark.parametrize("address", CARRYING_LOOPBACK + NAT64_LOCAL_CARRYING_PRIVATE)
def test_both_subscription_forms_refuse_an_ipv6_address_carrying_a_private_address(client_for, settings, address):
    settings.WEBHOOK_ALLOWED_ADDRESSES = []
    game = running_game(now=timezone.now())
    game.created_by = make_user("ann")
    game.save()
    ann = client_for("ann")
    url = f"http://[{address}]/hook"
    for page in (f"/games/{game.pk}/webhooks/", "/profile/webhooks/"):
        answer = ann.post(page, {"url": url}).content.decode()
        assert "private or local address" in answer, page
    assert not WebhookSubscription.objects.exists()


@pytest.mark.parametrize("address", CARRYING_LOOPBACK + NAT64_LOCAL_CARRYING_PRIVATE)
def test_delivery_never_connects_to_an_ipv6_address_carrying_a_private_address(settings, address):
    """Saved before the check knew better (or by a name that now resolves there): refused when connecting."""
    settings.WEBHOOK_ALLOWED_ADDRESSES = []
    game = running_game(now=timezone.now())
    subscription = subscribe("game", f"http://[{address}]:9/hook", game=game)
    make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1)
    assert deliver_due() == 0
    error = WebhookDelivery.objects.get(subscription=subscription).last_error
    assert error.startswith("BlockedAddress") and "may not reach" in error
