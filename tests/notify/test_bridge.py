"""Issue 18: examples/bridge.py, run against the site (a live test server) and a local chat room: the game's
announcements and posts reach the room once each, and what the room says comes back as a post."""

import importlib.util
import json
import threading
import urllib.request
from pathlib import Path

import pytest
from django.utils import timezone

from games.models import ActionRecord, Post, WebhookSubscription
from games.notify.webhooks import deliver_due
from games.services import make_move
from games.services.forum import post_message
from tests.factories import make_user, running_game, token_for
from tests.services import Receiver

SPEC = importlib.util.spec_from_file_location("bridge", Path(__file__).resolve().parents[2] / "examples" / "bridge.py")
bridge_module = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bridge_module)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_chat_room_follows_and_joins_a_game_through_the_bridge(live_server, settings):
    settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1"]
    room = Receiver()  # the chat room's incoming webhook
    game = running_game(now=timezone.now())
    bridge = bridge_module.Bridge(site=live_server.url, game=game.pk, token=token_for("dan"), secret="whsec_b",
                                  room=room.url, player="dan")  # fmt: skip
    server = bridge.server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        WebhookSubscription.objects.create(
            owner=make_user("ann"), kind="game", game=game, secret="whsec_b", created_at=timezone.now(),
            url=f"http://127.0.0.1:{server.server_port}/game",
        )  # fmt: skip
        make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1)
        post_message(game.pk, make_user("cat"), "Bob? Really?")
        assert deliver_due() == 2
        said = [json.loads(body)["text"] for _headers, body in room.received]
        assert any("nominated (chancellor: bob, president: ann)" in line for line in said)
        assert any(line.endswith("cat: Bob? Really?") for line in said)
        count = len(room.received)
        headers = {"X-SH-Signature": "t=1,v1=forged", "X-SH-Delivery": "x"}
        assert bridge.from_site(headers, b"{}") == 401 and len(room.received) == count  # a forgery: nothing
        request = urllib.request.Request(
            f"http://127.0.0.1:{server.server_port}/room",
            data=json.dumps({"user_name": "zed", "text": "go bob!"}).encode(),
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200
        post = Post.objects.filter(game=game).order_by("-pk").first()
        assert (post.author.username, post.body) == ("dan", "**zed** (from the chat room): go bob!")
        # dan plays his seat from the room: a ballot by "!move", then one that is no move of his now
        room.received.clear()
        assert bridge.from_room(json.dumps({"user_name": "zed", "text": "!move ja"}).encode()) == 200
        assert room.received == []  # zed is not dan: not obeyed
        assert bridge.from_room(json.dumps({"user_name": "dan", "text": "!move ja"}).encode()) == 200
        assert json.loads(room.received[-1][1])["text"] == "Done: ja."
        assert ActionRecord.objects.filter(game=game, action__by="dan", action__vote="ja").exists()
        bridge.from_room(json.dumps({"user_name": "dan", "text": "!move nominate cat"}).encode())
        assert json.loads(room.received[-1][1])["text"].startswith("Not a move you can make now")
    finally:
        server.shutdown()
        server.server_close()
        room.close()


def test_the_signature_check_refuses_old_and_forged_signatures():
    body = b'{"event": "post.created"}'
    import hashlib
    import hmac

    good = hmac.new(b"whsec_x", b"1000." + body, hashlib.sha256).hexdigest()
    assert bridge_module.verify("whsec_x", f"t=1000,v1={good}", body, now=1100)
    assert not bridge_module.verify("whsec_x", f"t=1000,v1={good}", body, now=2000)  # too old
    assert not bridge_module.verify("whsec_y", f"t=1000,v1={good}", body, now=1100)
    assert not bridge_module.verify("whsec_x", "garbage", body, now=1100)
