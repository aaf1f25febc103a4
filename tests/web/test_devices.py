"""Issue 42: the devices page as a player uses it (a subscription sent by its script, the list, remove, what is
pushed and when), the question a device asks before showing a "your move", and what makes the site installable
(the manifest, the service worker at the root, the offline page). Bad input gets a clear answer and keeps nothing."""

import json
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client

from games.models import PushDevice, PushPreferences
from games.notify.webpush import public_key
from tests.games.helpers import user

pytestmark = pytest.mark.django_db


def send(client, body, **headers):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post("/profile/devices/", data, content_type="application/json", **headers)


def test_a_subscription_sent_by_the_page_is_listed_as_this_browser_and_removed(client_for, push_service):
    ann = client_for("ann")
    subscription = push_service.subscribe().as_browser_gives_it()
    agent = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36"
    answer = send(ann, subscription, HTTP_USER_AGENT=agent)
    assert answer.status_code == 201
    device = PushDevice.objects.get()
    assert (device.user, device.browser, device.server_key) == (user("ann"), "Chrome · Android", public_key())
    page = ann.get("/profile/devices/").content.decode()
    assert "This device gets your notifications now." in page and "Chrome · Android" in page
    assert f'data-endpoint="{device.endpoint_digest}"' in page and f'data-key="{public_key()}"' in page
    assert subscription["endpoint"] not in page  # a credential: the page shows its digest
    assert client_for("bob").post(f"/profile/devices/{device.pk}/remove/", follow=True).status_code == 200
    assert PushDevice.objects.count() == 1  # not bob's to remove
    assert (
        "The device gets no more notifications."
        in ann.post(f"/profile/devices/{device.pk}/remove/", follow=True).content.decode()
    )
    assert PushDevice.objects.count() == 0


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        {"endpoint": "https://127.0.0.1/push/1"},
        {"endpoint": ["a list"], "keys": {"p256dh": "x", "auth": "y"}},
        {"endpoint": "https://127.0.0.1/push/1", "keys": {"p256dh": "not a key", "auth": "AAAA"}},
        {"endpoint": "https://192.168.1.1/push/1", "keys": "filled below"},
        {"endpoint": "https://127.0.0.1/" + "x" * 5000, "keys": "filled below"},
        {"endpoint": "https://127.0.0.1\x00/push/1", "keys": "filled below"},
        {"endpoint": "https://127.0.0.1/push/1", "keys": {"p256dh": "A\x00" * 30, "auth": "x" * 5000}},
        {"endpoint": None, "keys": None},
        '{"endpoint": "https://127.0.0.1/push/1", "keys": {"p256dh": ' + '"x", ' * 2000 + '"auth": "y"}}',
    ],
)
def test_a_subscription_no_browser_would_make_is_refused_with_a_reason_and_nothing_kept(client_for, push_service, body):
    if isinstance(body, dict) and body.get("keys") == "filled below":
        body = {**body, "keys": push_service.subscribe().as_browser_gives_it()["keys"]}
    answer = send(client_for("ann"), body)
    assert answer.status_code == 400 and answer.json()["error"]
    assert PushDevice.objects.count() == 0


def test_without_a_vapid_key_the_page_says_push_is_off_and_nothing_is_kept(client_for, push_service, settings):
    settings.VAPID_PRIVATE_KEY = ""
    ann = client_for("ann")
    assert "This site does not send push notifications." in ann.get("/profile/devices/").content.decode()
    answer = send(ann, push_service.subscribe().as_browser_gives_it())
    assert answer.status_code == 400 and answer.json() == {"error": "This site does not send push notifications."}


def test_what_is_pushed_and_the_quiet_hours_are_saved_and_half_quiet_hours_refused(client_for, push_service):
    ann = client_for("ann")
    chosen = {"moves": "urgent", "reminders": "on", "warnings": "on", "mentions": "off", "endings": "on"}
    refused = ann.post("/profile/devices/", {**chosen, "quiet_from": "22:00", "quiet_to": ""})
    assert refused.status_code == 400
    assert "Quiet hours need both a start and an end, or neither." in refused.content.decode()
    assert not PushPreferences.objects.exists()
    ann.post("/profile/devices/", {**chosen, "quiet_from": "22:00", "quiet_to": "07:30"})
    saved = PushPreferences.objects.get(user=user("ann"))
    assert (saved.moves, saved.mentions, str(saved.quiet_from), str(saved.quiet_to)) == (
        "urgent",
        "off",
        "22:00:00",
        "07:30:00",
    )


def test_signing_out_removes_this_browser_s_device(client_for, push_service):
    ann = client_for("ann")
    send(ann, push_service.subscribe().as_browser_gives_it())
    other = Client()  # the same person in another browser, signed in there too
    other.force_login(user("ann"))
    send(other, push_service.subscribe().as_browser_gives_it())
    ann.post("/accounts/logout/")
    assert PushDevice.objects.count() == 1


def test_the_site_installs_with_a_manifest_icons_a_service_worker_at_its_root_and_an_offline_page(client):
    manifest = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="es")
    assert manifest["Content-Type"] == "application/manifest+json"
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "/" and body["lang"] == "es"
    assert {icon["purpose"] for icon in body["icons"]} == {"any", "maskable"}
    static = Path(django_settings.BASE_DIR) / "static"
    for icon in body["icons"]:
        assert (static / icon["src"].removeprefix("/static/")).exists(), icon["src"]
    worker = client.get("/sw.js")
    assert worker["Content-Type"] == "text/javascript" and worker["Cache-Control"] == "no-cache"
    assert b'addEventListener("push"' in worker.content
    assert 'rel="manifest" href="/manifest.webmanifest"' in client.get("/").content.decode()
    offline = client.get("/offline/").content.decode()
    assert "You are offline" in offline and 'id="kept-pages"' in offline


def test_the_devices_page_is_for_its_owner_only(push_service):
    assert Client().get("/profile/devices/").status_code == 302
    answer = send(Client(), {"endpoint": "https://127.0.0.1/push/1", "keys": {}})
    assert answer.status_code == 302 and PushDevice.objects.count() == 0


def test_a_new_password_removes_every_device_but_this_session_s(client_for, push_service):
    ann = client_for("ann")
    ann_user = user("ann")
    ann_user.set_password("pw-for-tests-1")
    ann_user.save()
    ann.force_login(ann_user)
    send(ann, push_service.subscribe().as_browser_gives_it())
    elsewhere = Client()  # a session somewhere else, perhaps not hers
    elsewhere.force_login(ann_user)
    send(elsewhere, push_service.subscribe().as_browser_gives_it())
    new = "a-new-pass-phrase-2"
    changed = ann.post("/accounts/password/change/", {"oldpassword": "pw-for-tests-1", "password1": new,
                                                      "password2": new})  # fmt: skip
    assert changed.status_code == 302
    assert list(PushDevice.objects.values_list("pk", flat=True)) == ann.session["push_devices"]


def test_signing_out_or_deleting_the_account_tells_the_browser_to_forget_what_the_site_kept(client_for):
    """The service worker's kept pages may show a role: the browser forgets them (and its push subscription)."""
    ann = client_for("ann")
    assert ann.post("/accounts/logout/")["Clear-Site-Data"] == '"cache", "storage"'
    assert "Clear-Site-Data" not in client_for("bob").get("/accounts/logout/")  # only asked, not signed out
    cat = client_for("cat")
    assert cat.post("/profile/delete/", {"confirm": "cat"})["Clear-Site-Data"] == '"cache", "storage"'
