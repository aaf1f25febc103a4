"""Issue 16: replies through hosted mail services' inbound webhooks (django-anymail), with their checks on.

The payloads (payloads/*.json) are in each service's documented shape (Mailgun's forwarded MIME, Postmark's
inbound JSON, Amazon SES's receipt notification through SNS), with the reply's address, sender and text
filled in by the test.
"""

import base64
import hashlib
import hmac
import json
import time
from pathlib import Path

import pytest
from django.core import mail
from django.utils import timezone

from games.models import ActionRecord, Game, InboundEmail, Post
from games.notify.email import send_due_emails
from tests.factories import reply_to, running_game
from tests.notify.conftest import one_character_changed

pytestmark = pytest.mark.django_db
PAYLOADS = Path(__file__).parent / "payloads"
SECRET = "hooks:a-long-shared-secret"
SIGNING_KEY = "key-mailgun-signing-for-tests"


@pytest.fixture(autouse=True)
def configured(reply_players, settings):
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}


def auth(secret: str = SECRET) -> dict:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(secret.encode()).decode()}


def a_reply(text: str) -> tuple[Game, str, bytes]:
    game = running_game(now=timezone.now())
    send_due_emails(now=timezone.now())
    original = next(m for m in mail.outbox if m.to == ["ann@example.com"])
    address = original.extra_headers["Reply-To"]
    return game, address, reply_to(original, text, message_id="<hook-1@mail.example>")


def fill(name: str, **values: str) -> str:
    text = (PAYLOADS / name).read_text()
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def mailgun(client, raw: bytes, address: str, *, key: str = SIGNING_KEY, secret: str = SECRET):
    timestamp = str(int(time.time()))
    token = json.loads(fill("mailgun_inbound.json"))["token"]
    signature = hmac.new(key.encode(), (timestamp + token).encode(), hashlib.sha256).hexdigest()
    fields = json.loads(
        fill(
            "mailgun_inbound.json",
            RECIPIENT=address,
            SENDER="ann@example.com",
            TIMESTAMP=timestamp,
            SIGNATURE=signature,
            RAW="@@RAW@@",
        )
    )
    fields["body-mime"] = raw.decode()
    return client.post("/inbound/mailgun/", fields, **auth(secret))


def postmark(client, text: str, address: str, *, secret: str = SECRET):
    body = fill(
        "postmark_inbound.json",
        RECIPIENT=address,
        SENDER="ann@example.com",
        TEXT=text,
        MESSAGE_ID="hook-2@mail.example",
    )
    return client.post("/inbound/postmark/", body, content_type="application/json", **auth(secret))


def ses(client, raw: bytes, address: str, *, secret: str = SECRET):
    envelope = json.loads(
        fill(
            "ses_inbound.json",
            RECIPIENT=address,
            SENDER="ann@example.com",
            MESSAGE_ID="hook-3@mail.example",
            RAW_BASE64=base64.b64encode(raw).decode(),
        )
    )
    envelope["Message"] = json.dumps(envelope["Message"])  # SNS carries the SES event as a JSON string
    headers = {"HTTP_X_AMZ_SNS_MESSAGE_TYPE": "Notification", "HTTP_X_AMZ_SNS_MESSAGE_ID": envelope["MessageId"]}
    return client.post(
        "/inbound/amazon_ses/", json.dumps(envelope), content_type="text/plain", **headers, **auth(secret)
    )


def test_mailgun_a_signed_reply_makes_the_move(client):
    game, address, raw = a_reply("nominate bob")
    assert mailgun(client, raw, address).status_code == 200
    assert ActionRecord.objects.get(game=game).action == {"type": "nominate", "target": "bob", "by": "ann"}
    assert InboundEmail.objects.get().outcome == InboundEmail.Outcome.MOVED


def test_mailgun_a_bad_signature_or_secret_changes_nothing(client):
    game, address, raw = a_reply("nominate bob")
    assert mailgun(client, raw, address, key="key-forged").status_code == 400
    assert mailgun(client, raw, address, secret="hooks:wrong").status_code == 400
    assert not ActionRecord.objects.filter(game=game).exists() and not InboundEmail.objects.exists()


def test_postmark_a_reply_with_the_secret_is_posted(client):
    game, address, _raw = a_reply("unused")
    assert postmark(client, "Bob looks liberal to me.", address).status_code == 200
    assert list(Post.objects.filter(game=game).values_list("body", flat=True)) == ["Bob looks liberal to me."]
    assert InboundEmail.objects.get().message_id == "<hook-2@mail.example>"


def test_postmark_a_token_with_one_character_changed_is_dropped_at_once_never_a_500(client):
    game, address, _raw = a_reply("unused")
    assert postmark(client, "nominate bob", one_character_changed(address)).status_code == 200
    assert InboundEmail.objects.get().outcome == InboundEmail.Outcome.FORGED
    assert not Post.objects.filter(game=game).exists() and not ActionRecord.objects.filter(game=game).exists()


def test_postmark_without_the_secret_changes_nothing(client):
    game, address, _raw = a_reply("unused")
    assert postmark(client, "Bob looks liberal to me.", address, secret="hooks:wrong").status_code == 400
    assert not Post.objects.filter(game=game).exists()


def test_amazon_ses_a_reply_through_sns_makes_the_move_once(client):
    game, address, raw = a_reply("nominate cat")
    assert ses(client, raw, address).status_code == 200
    assert ses(client, raw, address).status_code == 200  # SNS delivered it again: it acts once
    assert [r.action["target"] for r in ActionRecord.objects.filter(game=game)] == ["cat"]


def test_amazon_ses_without_the_secret_changes_nothing(client):
    game, address, raw = a_reply("nominate cat")
    assert ses(client, raw, address, secret="hooks:wrong").status_code == 400
    assert not ActionRecord.objects.filter(game=game).exists()


def test_without_a_configured_secret_the_webhooks_are_not_there(client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "", "MAILGUN_WEBHOOK_SIGNING_KEY": ""}
    for service in ("mailgun", "postmark", "amazon_ses", "sendgrid"):
        assert client.post(f"/inbound/{service}/", {}).status_code == 404


@pytest.mark.parametrize("service", ["mailgun", "postmark", "amazon_ses"])
@pytest.mark.parametrize("secret", [SECRET, "hooks:wrong", None])
@pytest.mark.parametrize("body", ["", "not json \x00", '{"Type": "Notification"}', "x" * 100_000])
def test_forged_webhook_requests_get_an_answer_and_change_nothing(client, service, secret, body):
    headers = auth(secret) if secret else {}
    response = client.post(f"/inbound/{service}/", body, content_type="application/json", **headers)
    assert response.status_code in (200, 400, 401, 403), response.status_code  # never a 500
    assert not Post.objects.exists() and not ActionRecord.objects.exists()
    if response.status_code == 200:  # the right secret and a payload of no reply: read, and dropped as such
        assert secret == SECRET and [e.outcome for e in InboundEmail.objects.all()] == [InboundEmail.Outcome.FORGED]
    else:
        assert not InboundEmail.objects.exists()
