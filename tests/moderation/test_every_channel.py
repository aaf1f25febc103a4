"""A moderator's action on a game is written to its log by the game services, as a move's events are: the
game's webhook subscriptions, the API's event list and the thread each hear of it, the thread once."""

import json

import pytest
from django.utils import timezone

from games.notify.webhooks import deliver_due
from tests.factories import Api, running_game, subscribe
from tests.games.helpers import reload
from tests.services import Receiver

pytestmark = pytest.mark.django_db

# verb, its form's options, the verb that must come first, the event's `action`, the thread's sentence
ANNOUNCED = [
    ("pause", {}, None, "pause", "A moderator paused the game: deadlines are frozen and moves closed."),
    ("resume", {}, "pause", "resume", "A moderator resumed the game; the deadlines move on by the time it was paused."),
    ("extend", {"hours": 12}, None, "extend", "A moderator extended the deadline by 12 hours."),
    ("end_now", {}, None, "end_now", "A moderator ended the current deadline now."),
    ("lock", {}, None, "thread_locked", "A moderator locked the thread."),
    ("unlock", {}, "lock", "thread_unlocked", "A moderator unlocked the thread."),
]


def act(client, game, action: str, **fields) -> None:
    data = {"action": action, "reason": "because", "step": reload(game).step_number, **fields}
    client.post(f"/moderation/games/{game.pk}/act/", data)


def delivered_actions(receiver: Receiver) -> list[str]:
    bodies = [json.loads(body) for _headers, body in receiver.received]
    return [e["action"] for body in bodies for e in body["events"] if e["type"] == "moderator_action"]


@pytest.mark.parametrize(
    ("verb", "fields", "before", "action", "sentence"), ANNOUNCED, ids=[row[0] for row in ANNOUNCED]
)
def test_a_moderators_action_reaches_the_webhooks_the_api_and_the_thread_once(
    moderator_client, receiver, verb, fields, before, action, sentence
):
    game = running_game(now=timezone.now())
    subscribe("game", receiver.url, game=game)
    mod = moderator_client()
    if before:
        act(mod, game, before)
    deliver_due()
    receiver.received.clear()
    seen = reload(game).event_count - 1
    act(mod, game, verb, **fields)
    deliver_due()
    assert delivered_actions(receiver) == [action]
    listed = Api().get(f"/games/{game.pk}/events?after={seen}").json()
    assert [e["data"]["action"] for e in listed if e["type"] == "moderator_action"] == [action]
    assert mod.get(f"/games/{game.pk}/").content.decode().count(sentence) == 1
