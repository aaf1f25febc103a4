"""Issue 42 in the API: the caller's devices (listed without their endpoints or keys, which are credentials) and
push preferences, as on the devices page; the site's public key for subscribing. Writes need the play scope; bad
input is a problem document that changes nothing."""

import pytest

from games.models import PushDevice, PushPreferences
from games.notify.webpush import public_key
from tests.factories import Api, token_for

pytestmark = pytest.mark.django_db


def test_a_program_subscribes_lists_and_removes_a_device_of_its_owner(push_service):
    ann = Api(token_for("ann"))
    assert Api().get("/push-key").json() == {"key": public_key()}
    made = ann.post("/me/devices", {**push_service.subscribe().as_browser_gives_it(), "browser": "my bot's phone"})
    assert made.status_code == 201
    device = made.json()
    assert set(device) == {"id", "browser", "created_at", "last_sent_at"} and device["browser"] == "my bot's phone"
    listed = ann.get("/me/devices").json()
    assert listed == [device] and "endpoint" not in str(listed)
    assert Api(token_for("bob")).delete(f"/me/devices/{device['id']}").json()["code"] == "no_such_device"
    assert ann.delete(f"/me/devices/{device['id']}").json() == {"done": True, "events": []}
    assert PushDevice.objects.count() == 0


def test_a_read_token_may_list_but_not_subscribe_and_a_bad_subscription_is_422(push_service):
    reader = Api(token_for("ann", scope="read"))
    assert reader.get("/me/devices").json() == []
    refused = reader.post("/me/devices", push_service.subscribe().as_browser_gives_it())
    assert refused.status_code == 403 and refused.json()["code"] == "insufficient_scope"
    player = Api(token_for("bob"))
    private = player.post("/me/devices", {"endpoint": "https://10.0.0.1/push/1", "keys": {"p256dh": "x", "auth": "y"}})
    assert private.status_code == 422 and private.json()["code"] == "invalid_subscription"
    assert "private or local address" in private.json()["detail"]
    missing = player.post("/me/devices", {"endpoint": "https://127.0.0.1/push/1"})
    assert missing.status_code == 422 and missing.json()["code"] == "invalid_request"
    assert PushDevice.objects.count() == 0


def test_push_preferences_are_read_and_replaced_and_half_quiet_hours_refused(push_service):
    ann = Api(token_for("ann"))
    assert ann.get("/me/push-preferences").json() == {
        "moves": "on", "reminders": "on", "warnings": "on", "mentions": "on", "endings": "on",
        "quiet_from": None, "quiet_to": None,
    }  # fmt: skip
    half = ann.put("/me/push-preferences", {"quiet_from": "22:00:00"})
    assert half.status_code == 422 and half.json()["code"] == "invalid_preferences"
    assert not PushPreferences.objects.exists()
    offset = ann.put("/me/push-preferences", {"quiet_from": "22:00:00Z", "quiet_to": "07:00:00+01:00"})
    assert offset.status_code == 422 and "without an offset" in offset.json()["detail"]
    wrong = ann.put("/me/push-preferences", {"moves": "loud"})
    assert wrong.status_code == 422 and wrong.json()["errors"][0]["field"] == "moves"
    saved = ann.put("/me/push-preferences", {"moves": "urgent", "mentions": "off", "quiet_from": "22:00:00",
                                             "quiet_to": "07:00:00"})  # fmt: skip
    assert saved.status_code == 200 and saved.json()["moves"] == "urgent"
    assert ann.get("/me/push-preferences").json()["quiet_to"] == "07:00:00"


def test_without_a_key_the_site_says_it_pushes_nothing(settings):
    settings.VAPID_PRIVATE_KEY = ""
    assert Api().get("/push-key").json() == {"key": None}
