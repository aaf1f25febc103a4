"""Issue 42: Web Push as a channel. Against a push service on loopback that speaks RFC 8030 over HTTPS, checks
each push's VAPID JWT and decrypts it as RFC 8291 says (tests/push_service.py): "your move" pushed once per step
and device, every game waiting in one notification (a tag and a Topic), a TTL that ends at the deadline; nothing a
stranger may not read; quiet hours and urgent kinds; retries that honour Retry-After; a gone subscription removed;
one bad row never holding the others; the endpoint checked as webhooks' are, when subscribed and when connecting."""

from datetime import UTC, datetime, time, timedelta

import pytest
from django.core import signing
from django.db import connection
from django.utils import timezone

from devtools.push_service import PushService
from games.models import Notification, Profile, PushDevice, PushMessage, PushPreferences
from games.notify.push import HOLDS_SALT, send_due_pushes
from games.notify.webpush import new_private_key
from games.services import make_move
from games.services.devices import MAX_DEVICES, DeviceError, remove_devices, subscribe
from games.services.forum import post_message
from tests.factories import NAMES, make_user, running_game
from tests.games.helpers import in_threads, reload, user

pytestmark = pytest.mark.django_db
SECRET_WORDS = {"liberal", "fascist", "hitler", "ja", "nein"}  # a role, a card's side, a ballot


def phone(push_service: PushService, name: str):
    """`name`'s phone, subscribed as the devices page does: the push service's subscription, and the device."""
    subscription = push_service.subscribe()
    sent = subscription.as_browser_gives_it()
    keys = sent["keys"]
    subscribe(make_user(name), endpoint=sent["endpoint"], p256dh=keys["p256dh"], auth=keys["auth"],
              browser="Chrome on Android", now=timezone.now())  # fmt: skip
    return subscription


def nominate(game, now=None):
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, reload(game).step_number, now=now)


def test_your_move_is_pushed_once_signed_and_encrypted_with_a_ttl_that_ends_at_the_deadline(push_service):
    game = running_game(now=timezone.now())
    phones = {name: phone(push_service, name) for name in NAMES[:5]}
    nominate(game)
    before = timezone.now()
    assert send_due_pushes() == 5
    after = timezone.now()
    assert push_service.refused == []  # every JWT and payload checked out
    deadline = reload(game).deadline
    for subscription in phones.values():
        [push] = subscription.received
        assert push["message"]["title"] == f"Your move in {game.name}"
        assert push["message"]["body"].startswith("vote on the government, by ")
        assert push["message"]["url"] == f"/games/{game.pk}/#panel"
        assert push["message"]["tag"] == push["topic"] == "moves" and push["urgency"] == "high"
        assert (deadline - after).total_seconds() - 1 <= push["ttl"] <= (deadline - before).total_seconds()
    assert send_due_pushes() == 0  # once
    assert {row.status for row in PushMessage.objects.all()} == {PushMessage.Status.SENT}
    assert all(device.last_sent_at for device in PushDevice.objects.all())


def test_several_games_waiting_are_one_notification_that_names_each(push_service):
    first, second = running_game(now=timezone.now()), running_game(now=timezone.now())
    ann = phone(push_service, "ann")
    nominate(first)
    nominate(second)
    assert send_due_pushes() == 1  # both rows due together: one push
    [message] = ann.messages
    assert message["title"] == "Your move in 2 games" and message["tag"] == "moves"
    assert message["body"].count("vote on the government") == 2 and first.name in message["body"]
    moves = f"{first.pk}.{reload(first).step_number},{second.pk}.{reload(second).step_number}"
    assert signing.loads(message["holds"], salt=HOLDS_SALT) == {"user": user("ann").pk, "moves": moves}


def test_many_games_waiting_are_named_up_to_six_and_counted_after(push_service):
    games = [running_game(now=timezone.now()) for _ in range(8)]
    ann = phone(push_service, "ann")
    for game in games:
        nominate(game)
    assert send_due_pushes() == 1
    [message] = ann.messages
    assert message["title"] == "Your move in 8 games"
    assert message["body"].count("vote on the government") == 6 and message["body"].endswith("and 2 more games")


def test_the_device_asks_with_the_push_s_token_whether_the_move_is_still_owed(push_service, client):
    """The token speaks for its reader without a session (theirs may have ended); a forged one holds nothing."""
    game = running_game(now=timezone.now())
    bob = phone(push_service, "bob")
    nominate(game)
    send_due_pushes()
    token = bob.messages[-1]["holds"]
    assert client.get(f"/push/holds/?token={token}").json() == {"holds": True}  # no session in this client
    make_move(game.pk, user("bob"), {"type": "vote", "vote": "ja"}, reload(game).step_number)
    assert client.get(f"/push/holds/?token={token}").json() == {"holds": False}
    forged = signing.dumps({"user": user("cat").pk, "moves": f"{game.pk}.2"}, salt="another salt", compress=True)
    assert client.get(f"/push/holds/?token={forged}").json() == {"holds": False}
    assert client.get("/push/holds/?token=").json() == {"holds": False}


def test_a_push_for_a_move_already_made_is_not_sent(push_service):
    game = running_game(now=timezone.now())
    bob = phone(push_service, "bob")
    nominate(game)
    make_move(game.pk, user("bob"), {"type": "vote", "vote": "ja"}, reload(game).step_number)
    assert send_due_pushes() == 0 and bob.received == []
    assert PushMessage.objects.get().status == PushMessage.Status.SKIPPED


def test_no_push_says_a_role_a_card_or_a_ballot(push_service):
    """A whole game's pushes, as a stranger reading the lock screen would: the game, what is asked, by when."""
    from tests.factories import governments

    game = running_game(now=timezone.now())
    phones = [phone(push_service, name) for name in NAMES[:5]]
    for action in governments(("ann", "bob"), ("bob", "cat"), ("cat", "dan")):
        name = action.pop("by")
        make_move(game.pk, user(name), action, reload(game).step_number)
        send_due_pushes()
    messages = [message for subscription in phones for message in subscription.messages]
    assert len(messages) > 10
    for message in messages:
        words = f"{message['title']} {message['body']}".lower().replace(",", " ").split()
        assert not set(words) & SECRET_WORDS, message
    asked = {message["body"].split(",")[0] for message in messages}
    assert asked == {"nominate a chancellor", "vote on the government", "discard one of your three policies",
                     "enact one of your two policies"}  # fmt: skip


def test_quiet_hours_hold_a_push_until_they_end_in_the_reader_s_zone_unless_marked_urgent(push_service):
    madrid_late = datetime(2026, 12, 4, 22, 30, tzinfo=UTC)  # 23:30 in Madrid
    game = running_game(now=madrid_late)
    for name in ("bob", "cat", "dan"):
        phone(push_service, name)
        Profile.objects.update_or_create(user=user(name), defaults={"time_zone": "Europe/Madrid"})
    quiet = {"quiet_from": time(22), "quiet_to": time(7)}
    PushPreferences.objects.create(user=user("bob"), **quiet)
    PushPreferences.objects.create(user=user("cat"), moves=PushPreferences.Choice.URGENT, **quiet)
    PushPreferences.objects.create(user=user("dan"), moves=PushPreferences.Choice.OFF)
    nominate(game, now=madrid_late)
    due = dict(PushMessage.objects.values_list("device__user__username", "due_at"))
    assert due == {"bob": datetime(2026, 12, 5, 6, 0, tzinfo=UTC), "cat": madrid_late}  # 07:00 in Madrid; dan: off


@pytest.mark.parametrize(
    ("answer", "waits"),
    [
        ((429, {"Retry-After": "120"}), timedelta(seconds=120)),
        ((503, {}), timedelta(minutes=1)),
        ((429, {"Retry-After": "0"}), timedelta(seconds=30)),  # never again at once
        ((500, {"Retry-After": "Fri, 04 Dec 2099 00:00:00 GMT"}), None),
    ],
)
def test_a_busy_push_service_is_tried_again_when_it_says_else_after_a_growing_delay(push_service, answer, waits):
    game = running_game(now=timezone.now())
    bob = phone(push_service, "bob")
    bob.answers.append(answer)
    nominate(game)
    now = timezone.now()
    assert send_due_pushes(now=now) == 0
    row = PushMessage.objects.get()
    if waits is None:  # later than the deadline: it would say something no longer true
        assert row.status == PushMessage.Status.SKIPPED and bob.received == []
        return
    assert row.status == PushMessage.Status.PENDING and row.due_at == now + waits and row.attempts == 1
    assert row.error == f"HTTP {answer[0]}"
    assert send_due_pushes(now=now + waits - timedelta(seconds=1)) == 0
    assert send_due_pushes(now=now + waits) == 1 and len(bob.received) == 1


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_removed_and_the_others_go_on(push_service, status):
    game = running_game(now=timezone.now())
    bob, cat = phone(push_service, "bob"), phone(push_service, "cat")
    bob.answers.append((status, {}))
    nominate(game)
    assert send_due_pushes() == 1
    assert list(PushDevice.objects.values_list("user__username", flat=True)) == ["cat"]
    assert len(cat.received) == 1 and PushMessage.objects.filter(device__user__username="bob").count() == 0


def test_a_device_gone_mid_claim_is_sent_nothing_more(push_service):
    game = running_game(now=timezone.now())
    cat = phone(push_service, "cat")
    cat.answers.append((410, {}))
    nominate(game)
    post_message(game.pk, user("ann"), "@cat look at this", now=timezone.now())  # a second push, its own tag
    assert send_due_pushes() == 0
    assert cat.received == [] and PushDevice.objects.count() == 0 and PushMessage.objects.count() == 0


def test_a_refused_push_fails_for_good_and_a_row_that_cannot_be_told_fails_alone(push_service):
    game, other = running_game(now=timezone.now()), running_game(now=timezone.now())
    bob, dan = phone(push_service, "bob"), phone(push_service, "dan")
    phone(push_service, "cat")
    bob.answers.append((413, {}))
    nominate(game)
    post_message(other.pk, user("ann"), "@cat look at this", now=timezone.now())
    PushMessage.objects.filter(kind=Notification.Kind.MENTION).update(data={"broken": True})
    assert send_due_pushes() == 2  # cat's and dan's "your move"
    assert PushMessage.objects.get(device__user__username="bob").status == PushMessage.Status.FAILED
    mention = PushMessage.objects.get(kind=Notification.Kind.MENTION)
    assert mention.status == PushMessage.Status.FAILED and "KeyError" in mention.error
    assert send_due_pushes() == 0 and len(bob.received) == 0 and len(dan.received) == 1


def test_a_mention_and_a_warning_are_pushed_each_with_its_own_tag(push_service):
    game = running_game(now=timezone.now())
    cat = phone(push_service, "cat")
    post_message(game.pk, user("ann"), "@cat what do you think?", now=timezone.now())
    assert send_due_pushes() == 1
    [message] = cat.messages
    assert message == {"tag": f"mentions-{game.pk}", "title": game.name, "body": f"ann mentioned you in {game.name}.",
                       "url": f"/games/{game.pk}/"}  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_two_workers_sending_at_once_push_each_row_once(push_service):
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's")
    game = running_game(now=timezone.now())
    phones = [phone(push_service, name) for name in NAMES[:5]]
    nominate(game)
    results = in_threads(send_due_pushes, send_due_pushes)
    assert sum(results) == 5 and [len(p.received) for p in phones] == [1] * 5


def test_a_device_subscribed_with_an_older_key_gets_nothing_until_it_subscribes_again(push_service, settings):
    game = running_game(now=timezone.now())
    bob = phone(push_service, "bob")
    settings.VAPID_PRIVATE_KEY = new_private_key()  # the keys changed: the push service would refuse the old one
    nominate(game)
    assert PushMessage.objects.count() == 0 and bob.received == []


@pytest.mark.parametrize(
    ("endpoint", "words"),
    [
        ("http://127.0.0.1/push/1", "starts with https://"),
        ("https://10.1.2.3/push/1", "private or local address"),
        ("https://[::ffff:169.254.169.254]/push/1", "private or local address"),
        ("https://[64:ff9b::a00:1]/push/1", "private or local address"),
        ("https://user:secret@127.0.0.1/push/1", "starts with https://"),
        ("https://127.0.0.1/" + "p" * 1000, "too long"),
        ("https://no-such-host.invalid/push/1", "does not resolve"),
    ],
)
def test_an_endpoint_the_site_may_not_post_to_is_refused_and_nothing_is_kept(push_service, endpoint, words):
    keys = push_service.subscribe().as_browser_gives_it()["keys"]
    with pytest.raises(DeviceError, match=words):
        subscribe(make_user("ann"), endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"], browser="",
                  now=timezone.now())  # fmt: skip
    assert PushDevice.objects.count() == 0


def test_the_endpoint_is_checked_again_when_connecting(push_service, settings):
    game = running_game(now=timezone.now())
    bob = phone(push_service, "bob")
    settings.WEBHOOK_ALLOWED_ADDRESSES = []  # as if its name now resolved to loopback
    nominate(game)
    assert send_due_pushes() == 0 and bob.received == []
    row = PushMessage.objects.get()
    assert row.status == PushMessage.Status.PENDING and "BlockedAddress" in row.error
    assert f"/push/{bob.number}" not in row.error  # the endpoint's path is the device's credential


def test_signing_out_removes_the_session_s_devices_and_deleting_the_account_removes_all(push_service):
    from games.services.accounts import delete_account

    phone(push_service, "ann")
    phone(push_service, "ann")
    phone(push_service, "bob")
    first = PushDevice.objects.filter(user=user("ann")).order_by("pk").first()
    assert remove_devices(user("ann"), [first.pk, PushDevice.objects.get(user=user("bob")).pk]) == 1  # hers only
    delete_account(user("ann"))
    assert list(PushDevice.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_browser_subscribed_again_by_another_account_pushes_to_that_one_only(push_service):
    bob = push_service.subscribe().as_browser_gives_it()
    for name in ("ann", "bob"):
        subscribe(make_user(name), endpoint=bob["endpoint"], p256dh=bob["keys"]["p256dh"],
                  auth=bob["keys"]["auth"], browser="", now=timezone.now())  # fmt: skip
    assert list(PushDevice.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_reminder_is_pushed_as_one_and_a_game_s_end_without_a_role(push_service):
    from games.notify.bell import queue_reminders
    from tests.factories import HITLER_EXECUTED

    game = running_game(now=timezone.now())
    bob = phone(push_service, "bob")
    nominate(game)
    send_due_pushes()
    reminded = reload(game).deadline - timedelta(hours=3)
    queue_reminders(now=reminded)
    assert send_due_pushes(now=reminded) == 1
    assert bob.messages[-1]["title"] == f"Reminder: your move in {game.name}"
    ended = running_game(actions=HITLER_EXECUTED[:-1], now=timezone.now())
    make_move(ended.pk, user("dan"), {"type": "execute", "target": "cat"}, reload(ended).step_number)
    assert send_due_pushes() == 1
    over = bob.messages[-1]
    assert over["title"] == f"{ended.name} is over" and over["url"] == f"/games/{ended.pk}/history/"
    assert "liberals" in over["body"].lower() and "(" not in over["body"]  # who won and how, no "name (role)" list


@pytest.mark.parametrize(
    ("moment", "until"),
    [
        (datetime(2026, 12, 5, 1, 0, tzinfo=UTC), datetime(2026, 12, 5, 6, 0, tzinfo=UTC)),  # 02:00 in Madrid
        (datetime(2026, 12, 4, 20, 59, tzinfo=UTC), None),  # 21:59: not yet quiet
        (datetime(2026, 12, 5, 6, 0, tzinfo=UTC), None),  # 07:00: quiet no more
        # the night the clocks go back (25 October 2026, 03:00 CEST to 02:00 CET): 07:00 is CET, 06:00 UTC
        (datetime(2026, 10, 25, 0, 30, tzinfo=UTC), datetime(2026, 10, 25, 6, 0, tzinfo=UTC)),
        # the night they go forward (29 March 2026, 02:00 CET to 03:00 CEST): 07:00 is CEST, 05:00 UTC
        (datetime(2026, 3, 29, 0, 30, tzinfo=UTC), datetime(2026, 3, 29, 5, 0, tzinfo=UTC)),
    ],
)
def test_quiet_hours_across_midnight_and_the_changes_of_the_clocks(moment, until):
    quiet = PushPreferences(quiet_from=time(22), quiet_to=time(7))
    assert quiet.quiet_until(moment, "Europe/Madrid") == until


def test_whoever_knows_only_a_device_s_address_does_not_take_it(push_service):
    sent = push_service.subscribe().as_browser_gives_it()
    subscribe(make_user("bob"), endpoint=sent["endpoint"], p256dh=sent["keys"]["p256dh"], auth=sent["keys"]["auth"],
              browser="", now=timezone.now())  # fmt: skip
    other = push_service.subscribe().as_browser_gives_it()["keys"]  # keys of another browser's
    with pytest.raises(DeviceError, match="keys are not valid"):
        subscribe(make_user("eve"), endpoint=sent["endpoint"], p256dh=other["p256dh"], auth=other["auth"], browser="",
                  now=timezone.now())  # fmt: skip
    assert list(PushDevice.objects.values_list("user__username", flat=True)) == ["bob"]


def test_twenty_devices_at_most_and_one_subscribed_with_a_former_key_does_not_count(push_service):
    for _device in range(MAX_DEVICES):
        phone(push_service, "ann")
    with pytest.raises(DeviceError, match="remove one before adding another"):
        phone(push_service, "ann")
    PushDevice.objects.filter(pk=PushDevice.objects.first().pk).update(server_key="a former key")
    phone(push_service, "ann")
    assert PushDevice.objects.filter(user=user("ann")).count() == MAX_DEVICES + 1
