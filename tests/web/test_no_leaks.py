"""No page shows anyone a secret that is not theirs.

Two games are played with the same public moves but different secrets: other roles, other cards drawn and
discarded. Every page, rendered for a viewer who may know none of those secrets, must then be the same in
both games; and for every seat and spectator, no other seat's hand or role shows on any page.
"""

import re

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.services.transfer import import_script
from tests.factories import NAMES, governments, make_user

pytestmark = pytest.mark.django_db
NOW = timezone.now()
# Both decks give the same enacted policies; only hands and discards differ (round 1: FFL vs FLL).
DECK_A = list("FFLFFFLFLFFFFFLLL")
DECK_B = list("FLLFFFLFLFFFFFFLL")
ROLES_A = {"ann": "liberal", "bob": "fascist", "cat": "hitler", "dan": "liberal", "eve": "liberal"}
ROLES_B = {"ann": "fascist", "bob": "hitler", "cat": "liberal", "dan": "liberal", "eve": "liberal"}
ACTIONS = [
    *governments(("ann", "bob"), policy="L"),  # ann draws FFL or FLL, discards F, bob enacts L
    {"type": "nominate", "by": "bob", "target": "dan"},
    *({"type": "vote", "by": name, "vote": "ja"} for name in NAMES[:4]),  # eve has not voted yet
]


def game(roles, deck) -> Game:
    script = {"players": NAMES[:5], "roles": roles, "deck": deck, "first_president": "ann", "actions": ACTIONS}
    return import_script(script, now=NOW)


def pages(game: Game) -> list[str]:
    return [f"/games/{game.pk}/", f"/games/{game.pk}/graveyard/", "/", "/users/ann/", f"/games/{game.pk}/unread/"]


def render(client: Client, game: Game) -> list[str]:
    rendered = []
    for url in pages(game):
        response = client.get(url, follow=True)
        text = response.content.decode()
        text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
        text = re.sub(r"/games/\d+/", "/games/ID/", text)
        text = re.sub(r"cd-\d+", "cd-ID", text)
        rendered.append(f"{response.status_code} {text}")
    return rendered


def viewer(name: str | None) -> Client:
    client = Client()
    if name is not None:
        client.force_login(make_user(name))
    return client


@pytest.mark.parametrize("name", [None, "zed", "eve"])
def test_pages_are_the_same_whatever_the_secrets_the_viewer_may_not_know(name):
    # eve is a liberal in both games who was in no government: she knows nothing the public does not.
    a, b = game(ROLES_A, DECK_A), game(ROLES_B, DECK_B)
    client = viewer(name)
    assert render(client, a) == render(client, b)


def test_the_comparison_sees_a_secret_when_the_viewer_holds_it():
    a, b = game(ROLES_A, DECK_A), game(ROLES_B, DECK_B)
    client = viewer("ann")  # her role and the cards she drew differ between the two games
    assert render(client, a) != render(client, b)


@pytest.mark.parametrize("name", ["ann", "bob", "cat", "dan", "eve", "zed", None])
def test_no_other_seat_secret_on_any_page(name):
    text = "\n".join(render(viewer(name), game(ROLES_A, DECK_A)))
    assert ("role-hitler" in text) == (name == "cat")
    assert ("role-fascist" in text) == (name == "bob")
    # R3: in a 5-player game the fascist and Hitler know each other; nobody else knows anyone.
    assert ("bob (fascist)" in text) == (name == "cat")
    assert ("cat (Hitler)" in text) == (name == "bob")
    in_government = name in ("ann", "bob")  # the cards of round 1
    assert ("drew" in text) == (name == "ann")
    assert ("received" in text) == (name == "bob")
    assert "Your cards" not in text  # at the vote nobody holds cards
    assert ("Your legislative sessions" in text) == in_government
