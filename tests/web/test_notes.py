"""Issue 29: a player's private notes on a game. Only their author ever reads them (on the game's page or through
the API), they outlive the game, their length is limited with a clear message, and they go with the account."""

import json

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from games.models import Game, Note
from games.services import cancel
from games.services.accounts import delete_account
from games.services.transfer import export_script
from tests.factories import Api, make_user, running_game, token_for

pytestmark = pytest.mark.django_db
SECRET = "bob-lied-about-FFF-in-round-2"


def save(client, game, body: str, **extra):
    return client.post(f"/games/{game.pk}/notes/", {"body": body}, **extra)


def test_a_player_saves_notes_and_reads_them_on_the_game_page(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    response = save(ann, game, SECRET, follow=True)
    page = response.content.decode()
    assert "Your notes are saved: only you can read them." in page
    assert SECRET in page and 'id="notes-body"' in page
    assert Note.objects.get().body == SECRET


def test_notes_are_seen_by_their_author_alone(client_for):
    game = running_game(now=timezone.now())
    save(client_for("ann"), game, SECRET)
    moderator = client_for("mod")
    make_user("mod").groups.add(Group.objects.get(name="moderators"))
    moderator.post(f"/moderation/games/{game.pk}/see/")  # past the warning: every secret of the game, not the notes
    for reader in (client_for("bob"), client_for("zed"), moderator):
        for url in (f"/games/{game.pk}/", f"/games/{game.pk}/graveyard/", f"/moderation/games/{game.pk}/", "/"):
            assert SECRET not in reader.get(url, follow=True).content.decode(), url
    anonymous = client_for("zed").__class__()
    assert SECRET not in anonymous.get(f"/games/{game.pk}/").content.decode()


def test_a_spectator_keeps_no_notes_and_is_told_why(client_for):
    game = running_game(now=timezone.now())
    zed = client_for("zed")
    assert 'id="notes-body"' not in zed.get(f"/games/{game.pk}/").content.decode()
    response = save(zed, game, "mine")
    assert (
        response.status_code == 403 and "Only the players of this game keep notes on it." in response.content.decode()
    )
    assert not Note.objects.exists()


def test_notes_are_kept_after_the_game_ends_and_still_editable(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    save(ann, game, SECRET)
    cancel(game.pk, make_user("mod0"))
    assert SECRET in ann.get(f"/games/{game.pk}/").content.decode()
    save(ann, game, SECRET + " - and so it was")
    assert Note.objects.get().body == SECRET + " - and so it was"
    assert SECRET not in client_for("bob").get(f"/games/{game.pk}/history/").content.decode()
    assert SECRET not in client_for("bob").get(f"/games/{game.pk}/replay.json").content.decode()
    assert SECRET not in json.dumps(export_script(Game.objects.get(pk=game.pk)))  # export_replay's script


def test_notes_too_long_are_refused_with_the_limit_and_the_text_kept(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    save(ann, game, SECRET)
    too_long = "x" * (Note.MAX_BODY + 1)
    response = save(ann, game, too_long)
    page = response.content.decode()
    assert response.status_code == 400
    assert "Your notes are 10001 characters long: at most 10000 are kept. Nothing was saved." in page
    assert too_long in page  # in the box, not lost
    assert save(ann, game, "a\x00b").status_code == 400  # no text PostgreSQL keeps
    assert Note.objects.get().body == SECRET


def test_notes_of_exactly_the_limit_are_kept_and_blank_notes_clear_them(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    assert save(ann, game, "y" * Note.MAX_BODY).status_code == 302
    assert len(Note.objects.get().body) == Note.MAX_BODY
    page = save(ann, game, "  \r\n ", follow=True).content.decode()
    assert "Your notes are cleared." in page and not Note.objects.exists()


def test_notes_in_another_language_are_refused_in_it(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    ann.post("/language/", {"language": "fr"})
    page = save(ann, game, "x" * (Note.MAX_BODY + 1), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "10\u202f001" in page or "10001" in page
    assert "Rien n\u2019a été enregistré." in page


def test_deleting_the_account_deletes_the_notes(client_for):
    game = running_game(now=timezone.now())
    save(client_for("ann"), game, SECRET)
    save(client_for("bob"), game, "bob's own")
    delete_account(make_user("ann"))
    assert list(Note.objects.values_list("body", flat=True)) == ["bob's own"]


# The API


def put(secret: str, game, body) -> object:
    return Api(secret).put(f"/games/{game.pk}/notes", {"body": body})


def test_the_author_reads_and_replaces_their_notes_through_the_api():
    game = running_game(now=timezone.now())
    secret = token_for("ann")
    assert Api(secret).get(f"/games/{game.pk}/notes").json() == {"body": "", "updated_at": None}
    answer = put(secret, game, SECRET)
    assert answer.status_code == 200 and answer.json()["body"] == SECRET
    assert Api(secret).get(f"/games/{game.pk}/notes").json()["body"] == SECRET


def test_the_api_gives_nobody_else_the_notes():
    game = running_game(now=timezone.now())
    put(token_for("ann"), game, SECRET)
    bob = Api(token_for("bob")).get(f"/games/{game.pk}/notes")
    assert bob.status_code == 200 and bob.json()["body"] == ""  # his own: none
    zed = Api(token_for("zed")).get(f"/games/{game.pk}/notes")
    assert zed.status_code == 403 and zed.json()["code"] == "not_in_game"
    assert Api().get(f"/games/{game.pk}/notes").status_code == 401
    for path in (f"/games/{game.pk}", f"/games/{game.pk}/me", f"/games/{game.pk}/events", "/me/notifications"):
        assert SECRET not in Api(token_for("bob")).get(path).content.decode(), path


def test_the_api_refuses_notes_too_long_and_a_read_token_writing():
    game = running_game(now=timezone.now())
    too_long = put(token_for("ann"), game, "x" * (Note.MAX_BODY + 1))
    assert too_long.status_code == 422 and too_long.json()["code"] == "invalid_request"
    nul = put(token_for("ann"), game, "a\x00b")  # no text PostgreSQL keeps
    assert nul.status_code == 422 and nul.json()["code"] == "invalid_request"
    read_only = put(token_for("ann", scope="read"), game, SECRET)
    assert read_only.status_code == 403 and read_only.json()["code"] == "insufficient_scope"
    assert not Note.objects.exists()
