"""No page shows anyone a secret that is not theirs.

Two games are played with the same public moves but different secrets: other roles, other cards drawn and
discarded. Every page, rendered for a viewer who may know none of those secrets, must then be the same in
both games; and for every seat and spectator, no other seat's hand or role shows on any page.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games import live
from games.models import Game
from games.services.transfer import import_script
from tests.factories import NAMES, governments, make_user, running_game, votes

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
    return import_script(script, now=NOW, rated=True)  # a rated game: nothing of it may move a rating before its end


def pages(game: Game) -> list[str]:
    return [
        f"/games/{game.pk}/",
        f"/games/{game.pk}/graveyard/",
        "/",
        "/users/ann/",
        "/stats/",  # issue 31: the statistics count finished games only
        "/ratings/",
        "/ratings/?season=2026-Q4",
        f"/games/{game.pk}/unread/",
        f"/games/{game.pk}/rules/",
        "/profile/absences/",
    ]


def render(client: Client, game: Game) -> list[str]:
    rendered = []
    for url in pages(game):
        response = client.get(url, follow=True)
        text = response.content.decode()
        text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
        text = re.sub(r"/games/\d+/", "/games/ID/", text)
        text = re.sub(r"cd-\d+", "cd-ID", text)
        text = re.sub(r'data-etag="[^"]*"', "", text)  # a hash of the fingerprint, compared below, and the address
        text = re.sub(r'data-read="[^"]*"', "", text)  # when the viewer's newest read post was written: no secret
        rendered.append(f"{response.status_code} {text}")
    return rendered


def test_the_live_fingerprint_is_the_same_whatever_the_secrets():
    """The ETag of a game's page hashes its fingerprint (with the viewer and the address): no secret may move it."""
    first, second = game(ROLES_A, DECK_A), game(ROLES_B, DECK_B)
    for thread in ("main", "graveyard"):
        for viewer in (None, *(user.pk for user in get_user_model().objects.filter(username__in=NAMES[:5]))):
            names = live.GAME_FIELDS + live.AGGREGATES
            prints = [
                dict(zip(names, live.fingerprint(game.pk, thread, viewer), strict=True)) for game in (first, second)
            ]
            for fingerprint in prints:
                del fingerprint["live_seats_ids"]  # the seat rows' ids: the two games' own, no secret
                del fingerprint["live_read_mark"]  # when the viewer last read the thread: their own doing
            assert prints[0] == prints[1]


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


def _seed_forms(seed: int) -> list[str]:
    return [str(seed), f"{seed:x}", f"{seed:X}", f"{seed:b}"]


def test_the_seed_and_the_roles_never_leave_the_server_while_the_game_runs(django_capture_on_commit_callbacks):
    """A game made through the lobby, a few moves in: every page, the calendar feed and every email, for each
    player and for a spectator, holds neither the seed (in any base) nor a role nor private notes not the
    viewer's."""
    from datetime import timedelta

    from django.core import mail

    from games.engine import player_view
    from games.notify.calendar import new_calendar_token
    from games.notify.email import send_due_emails
    from games.services import create_game, join_game, make_move
    from games.services.notes import save_notes
    from games.services.play import changing

    users = [make_user(name) for name in NAMES[:5]]
    with django_capture_on_commit_callbacks(execute=True):
        created = create_game(users[0], now=NOW, player_count=5)
        for person in users[1:]:
            join_game(created.pk, person, now=NOW)
        started = Game.objects.get(pk=created.pk)
        state = started.load_state()
        president = state.name(state.president)
        nominee = next(seat.name for seat in state.seats if seat.name != president)
        for person in users:  # issue 29: each player's private notes, their own alone to read
            save_notes(started.pk, person, f"private-note-of-{person.username}", now=NOW)
        make_move(
            started.pk, make_user(president), {"type": "nominate", "target": nominee}, started.step_number, now=NOW
        )
    send_due_emails(now=NOW + timedelta(days=3))
    assert mail.outbox
    roles = {seat.name: str(seat.role) for seat in state.seats}
    known = {seat.name: {m["name"] for m in player_view(state, i)["teammates"]} for i, seat in enumerate(state.seats)}
    seed = started.seed
    assert seed is not None and started.setup["seed"] == seed
    with changing(started.pk, now=NOW) as change:  # the secret is where the engine keeps it, and only there
        assert change.state.rng.seed == seed
    for name in [*NAMES[:5], "zed"]:
        token = new_calendar_token(make_user(name))
        client = viewer(name)
        urls = [
            *pages(started),
            "/notifications/",
            f"/calendar/{token}.ics",
            f"/games/{started.pk}/history/",
            f"/games/{started.pk}/replay.json",  # the script with the seed: only once the game is over
            f"/games/{started.pk}/replay/",  # issue 31: the replay, every secret at every step, likewise
            f"/games/{started.pk}/replay/?step=1",
            f"/games/{started.pk}/replay/?round=1",
        ]
        seen = "\n".join(client.get(url, follow=True).content.decode() for url in urls)
        seen += "\n".join(
            f"{message.subject}\n{message.body}\n{message.alternatives[0].content}"
            for message in mail.outbox
            if message.to == [f"{name}@example.com"]
        )
        for form in _seed_forms(seed):
            assert form not in seen, (name, form)
        notes = set(re.findall(r"private-note-of-\w+", seen))
        assert notes == ({f"private-note-of-{name}"} if name in roles else set()), (name, notes)
        for other, role in roles.items():
            if other != name and other not in known.get(name, ()):  # R3: fascists know their team
                assert f"{other} ({role})" not in seen.lower(), (name, other)
        shown = {role for role in ("hitler", "fascist", "liberal") if f"role-{role}" in seen}
        assert shown == ({roles[name]} if name in roles else set()), (name, shown)


@pytest.mark.parametrize("name", [None, "zed", "eve", "dan", "ann"])
def test_r23_an_execution_vote_s_ballots_are_secret_until_it_closes(name):
    # dan proposes eve's execution; ann and bob have voted, the other way round in each game.
    executing = governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann"))
    proposed = [*executing, {"type": "execute", "by": "dan", "target": "eve"}]
    a, b = (
        running_game(actions=[*proposed, *votes("ann"), *votes("bob", ballot="nein")], execution_vote=True, now=NOW),
        running_game(actions=[*proposed, *votes("ann", ballot="nein"), *votes("bob")], execution_vote=True, now=NOW),
    )
    client = viewer(name)
    # Only ann sees a difference: her own ballot, on her panel.
    assert (render(client, a) == render(client, b)) == (name != "ann")
