"""Unlisted games: read at an address that carries a secret link key, never at their number by a stranger; in no
list a stranger reads; the key in no page, answer or webhook a stranger reads; its creator or a moderator renews it."""

import importlib
import json
import re

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from games.models import Game, Post, Seat, WebhookDelivery
from games.services import cancel, create_game, join_game, make_move
from games.services.forum import edit_post, post_message
from games.services.transfer import import_script
from tests.factories import (
    START,
    Api,
    make_user,
    played_to_the_end,
    running_game,
    script,
    subscribe,
    token_for,
    your_move_email,
)

pytestmark = pytest.mark.django_db
UNLISTED = Game.Visibility.UNLISTED
LIVE = {"HTTP_X_LIVE": "1"}


def unlisted_game(*, now=None, **options) -> Game:
    """A running unlisted game of ann, bob, cat, dan and eve, made by ann."""
    options.setdefault("created_by", make_user("ann"))
    return import_script(script(5), now=now or timezone.now(), visibility=UNLISTED, name="Unseen Tuesday", **options)


def finished_unlisted_game() -> Game:
    game = unlisted_game()
    cancel(game.pk, moderator_user())
    game.refresh_from_db()
    return game


def moderator_user():
    user = make_user("mod")
    user.groups.add(Group.objects.get(name="moderators"))
    return user


def at_key(game: Game, tail: str = "") -> str:
    return f"/games/u/{game.link_key}/{tail}"


def at_number(game: Game, tail: str = "") -> str:
    return f"/games/{game.pk}/{tail}"


def test_an_unlisted_game_has_a_link_key_of_at_least_128_random_bits_and_a_public_game_none():
    first, second = unlisted_game(), unlisted_game()
    assert re.fullmatch(r"[A-Za-z0-9_-]+", first.link_key) and len(first.link_key) * 6 >= 128
    assert first.link_key != second.link_key
    assert running_game(now=timezone.now()).link_key == ""
    lobby = create_game(make_user("ann"), player_count=5, visibility=UNLISTED)
    assert len(lobby.link_key) * 6 >= 128


def test_the_migration_gives_every_unlisted_game_made_before_it_a_key_and_public_games_none():
    game, public = unlisted_game(), running_game(now=timezone.now())
    Game.objects.filter(pk=game.pk).update(link_key="")
    importlib.import_module("games.migrations.0022_game_link_key").give_keys(apps, None)
    game.refresh_from_db()
    public.refresh_from_db()
    assert len(game.link_key) * 6 >= 128 and public.link_key == ""


# A stranger at the number, anyone at the key


def test_a_stranger_gets_404_at_every_numeric_address_of_a_running_unlisted_game_and_200_at_its_key(client_for):
    game = unlisted_game()
    post = post_message(game.pk, make_user("ann"), "Hello")
    pages = ["", "graveyard/", "unread/", "rules/", f"posts/{post.pk}/history/", "players/ann/"]
    for stranger in (Client(), client_for("zed")):
        for page in pages:
            assert stranger.get(at_number(game, page)).status_code == 404, page
        assert stranger.get(at_number(game), **LIVE).status_code == 404  # the live page's question too
        assert stranger.get(at_key(game)).status_code == 200
        assert stranger.get(at_key(game, "rules/")).status_code == 200
        assert stranger.get(at_key(game, f"posts/{post.pk}/history/")).status_code == 200
        assert stranger.get(at_key(game, "players/ann/"))["Location"] == "/users/ann/"
    assert client_for("zed").get(at_number(game, "webhooks/")).status_code == 404


def test_a_stranger_gets_404_at_the_numbers_of_a_finished_unlisted_game_s_secrets_and_replay(client_for):
    game = finished_unlisted_game()
    for stranger in (Client(), client_for("zed")):
        for page in ("", "history/", "replay/", "replay.json"):
            assert stranger.get(at_number(game, page)).status_code == 404, page
            assert stranger.get(at_key(game, page)).status_code == 200, page


def test_a_stranger_s_forms_at_the_number_answer_404_and_change_nothing(client_for):
    game, lobby = unlisted_game(), create_game(make_user("ann"), player_count=5, visibility=UNLISTED)
    zed = client_for("zed")
    posts = Post.objects.count()
    for page, data in [
        ("post/", {"body": "hi", "thread": "main"}),
        ("move/", {"type": "nominate", "target": "bob", "step_number": 1, "confirmed": "yes"}),
        ("claim/", {"round": 1, "cards": "FFF", "confirmed": "yes"}),
        ("absence/", {"starts_at": "2031-01-01T10:00", "ends_at": "2031-01-02T10:00"}),
        ("resign/", {}),
        ("notes/", {"body": "mine"}),
    ]:
        assert zed.post(at_number(game, page), data).status_code == 404, page
    assert zed.post(at_number(lobby, "join/")).status_code == 404
    assert Post.objects.count() == posts and not Seat.objects.filter(user__username="zed").exists()


def test_a_stranger_gets_404_from_the_api_at_the_number_and_the_game_at_its_key(client_for):
    game = unlisted_game()
    client_for("zed")  # a verified email address: the API's join asks that first
    post_message(game.pk, make_user("ann"), "Hello")
    for api in (Api(), Api(token_for("zed"))):
        for path in ("", "/events", "/posts"):
            assert api.get(f"/games/{game.pk}{path}").status_code == 404, path
        found = api.get(f"/games/unlisted/{game.link_key}")
        assert found.status_code == 200 and found.json()["id"] == game.pk
        assert api.get(f"/games/unlisted/{game.link_key}/events").json()
        assert [p["body"] for p in api.get(f"/games/unlisted/{game.link_key}/posts").json()] == ["Hello"]
    zed = Api(token_for("zed"))
    for path in ("/me", "/notes"):
        assert zed.get(f"/games/{game.pk}{path}").status_code == 404, path
    assert zed.post(f"/games/{game.pk}/posts", {"body": "hi"}).status_code == 404
    assert zed.post(f"/games/{game.pk}/join", {}).status_code == 404
    assert Api().get("/games/unlisted/" + "x" * 32).status_code == 404


def test_players_a_substitute_the_creator_and_moderators_still_reach_the_number(client_for):
    game = unlisted_game(created_by=make_user("cid"))  # the creator holds no seat
    join_game(game.pk, make_user("sub"), as_substitute=True)
    moderator_user()
    moderator = client_for("mod")
    for reader in (client_for("ann"), client_for("sub"), client_for("cid"), moderator):
        assert reader.get(at_number(game)).status_code == 200
        assert reader.get(at_number(game, "rules/")).status_code == 200
    assert Api(token_for("ann")).get(f"/games/{game.pk}").status_code == 200
    assert Api(token_for("ann")).get(f"/games/{game.pk}/me").status_code == 200


def test_a_key_reader_s_page_links_to_the_game_by_its_key_only(client_for):
    game = finished_unlisted_game()
    post = post_message(game.pk, make_user("ann"), "Hello")
    edit_post(post.pk, make_user("ann"), "Hello again")  # its history is linked
    zed = client_for("zed")
    page = zed.get(at_key(game)).content.decode()
    assert at_number(game) not in page
    links = set(re.findall(r'href="(/games/(?!new/)[^"#?]*)', page))
    assert links and all(link.startswith(at_key(game)) for link in links), links
    for link in links:
        response = zed.get(link)
        assert response.status_code in (200, 302), link
        assert response.status_code == 200 or response["Location"].startswith((at_key(game), "/users/")), link
    report = re.search(r'href="(/moderation/[^"]*)" class="report"', page).group(1)
    assert report.startswith(f"/moderation/u/{game.link_key}/") and zed.get(report).status_code == 200


def test_a_player_reading_at_the_number_is_sent_back_by_the_key_after_posting(client_for):
    game = unlisted_game()
    ann = client_for("ann")
    assert ann.post(at_key(game, "post/"), {"body": "hi", "thread": "main"})["Location"].startswith(at_key(game))
    page = ann.get(at_number(game)).content.decode()
    assert f'action="{at_key(game, "post/")}' in page


def test_a_stranger_joins_an_unlisted_lobby_from_its_key_address(client_for):
    lobby = create_game(make_user("ann"), player_count=5, visibility=UNLISTED)
    zed = client_for("zed")
    assert f'action="{at_key(lobby, "join/")}"' in zed.get(at_key(lobby)).content.decode()
    response = zed.post(at_key(lobby, "join/"))
    assert response.status_code == 302 and response["Location"] == at_key(lobby)
    assert Seat.objects.filter(game=lobby, user__username="zed").exists()
    assert zed.get(at_number(lobby)).status_code == 200  # in it now


# In no list a stranger reads


def test_an_unlisted_game_is_in_no_list_a_stranger_reads(client_for):
    create_game(make_user("ann"), player_count=5, visibility=UNLISTED, name="Unseen lobby")
    game = unlisted_game()
    finished = import_script(played_to_the_end(5, 3), now=timezone.now(), visibility=UNLISTED, name="Unseen past")
    import_script(played_to_the_end(5, 3), now=timezone.now(), name="Open past")
    readers = {"visitor": Client(), "zed": client_for("zed")}
    for page in ("/", "/stats/", "/users/ann/"):
        for who, reader in readers.items():
            text = reader.get(page).content.decode()
            assert "Unseen" not in text and game.link_key not in text and finished.link_key not in text, (page, who)
    lobby = Api().get("/lobby").json()
    assert not [g for g in lobby["open"] + lobby["running"] if g["name"].startswith("Unseen")]
    assert Api().get("/stats").json()["overall"]["games"] == 1
    assert Api().get("/stats/players/ann").json()["games"] == 1


def test_a_stranger_s_webhook_hears_nothing_of_an_unlisted_game_and_no_webhook_carries_its_key():
    game = unlisted_game()
    creators = subscribe("game", "https://hooks.example.org/ann", owner="ann", game=game)
    subscribe("game", "https://hooks.example.org/zed", owner="zed", game=game)  # a moderator then, no longer one
    subscribe("notices", "https://hooks.example.org/bob", owner="bob")
    make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1)
    post_message(game.pk, make_user("cat"), "Bob? Really?")
    deliveries = list(WebhookDelivery.objects.select_related("subscription"))
    assert {d.subscription.owner.username for d in deliveries} == {"ann", "bob"}
    assert {d.event for d in deliveries if d.subscription == creators} == {"game.events", "post.created"}
    for delivery in deliveries:
        assert game.link_key not in delivery.body
        assert json.loads(delivery.body)["game"]["url"].endswith(at_number(game))


def test_emails_to_its_players_carry_the_key_address_and_the_calendar_its_number(client_for):
    game = unlisted_game(now=START)
    email = your_move_email(game)
    assert at_key(game) in email.body and at_number(game) not in email.body
    ann = client_for("ann")
    ann.post("/profile/calendar/")
    feed = ann.get(re.search(r"/calendar/[^\"<]+\.ics", ann.get("/profile/").content.decode()).group(0))
    assert game.link_key not in feed.content.decode()


# Renewing the link


def test_its_creator_renews_the_link_the_old_address_answers_404_and_the_new_one_200(client_for):
    game = unlisted_game()
    old = at_key(game)
    response = client_for("ann").post(at_key(game, "link/"))
    game.refresh_from_db()
    assert at_key(game) != old and response["Location"] == at_key(game)
    assert Client().get(old).status_code == 404 and Client().get(f"{old}rules/").status_code == 404
    assert Client().get(at_key(game)).status_code == 200
    assert Api().get(f"/games/unlisted/{old.split('/')[3]}").status_code == 404


def test_a_moderator_renews_the_link_from_the_number(client_for):
    game = unlisted_game()
    old = game.link_key
    moderator_user()
    moderator = client_for("mod")
    assert 'action="' + at_key(game, "link/") + '"' in moderator.get(at_number(game)).content.decode()
    moderator.post(at_number(game, "link/"))
    game.refresh_from_db()
    assert game.link_key not in ("", old)


def test_nobody_else_renews_the_link_and_nothing_changes(client_for):
    game = unlisted_game()
    old = game.link_key
    bob, zed = client_for("bob"), client_for("zed")
    assert "link/" not in bob.get(at_key(game)).content.decode()
    assert bob.post(at_key(game, "link/")).status_code == 403  # a player, not its creator
    assert bob.post(at_number(game, "link/")).status_code == 403
    assert zed.post(at_key(game, "link/")).status_code == 403  # who holds the key reads; renewing is not reading
    assert zed.post(at_number(game, "link/")).status_code == 404
    assert Client().post(at_key(game, "link/")).status_code == 302  # to sign in
    game.refresh_from_db()
    assert game.link_key == old


def test_a_public_game_has_no_link_to_renew(client_for):
    game = running_game(now=timezone.now())
    Game.objects.filter(pk=game.pk).update(created_by=make_user("ann"))
    assert client_for("ann").post(at_number(game, "link/")).status_code == 403
    game.refresh_from_db()
    assert game.link_key == ""
