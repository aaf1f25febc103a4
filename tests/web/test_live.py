"""A live thread's conditional GET: a page left open asks with its ETag and is answered 304 while nothing it
shows has changed, for one query beyond the sign-in's; the ETag changes with everything a viewer sees."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Absence, Post
from games.services import create_game, join_game, make_move, pause
from games.services.absences import declare_absence, withdraw_absence
from games.services.forum import edit_post, file_claim, post_message
from moderation.services import set_post_hidden
from tests.factories import governments, make_user, running_game

pytestmark = pytest.mark.django_db

LIVE = {"HTTP_X_LIVE": "1"}


def user(name: str):
    return get_user_model().objects.get(username=name)


def live_tag(client, url: str) -> str:
    response = client.get(url, **LIVE)
    assert response.status_code == 200
    return response["ETag"]


def test_an_unchanged_page_is_a_304_for_one_query_beyond_the_sign_in(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    url = f"/games/{game.pk}/"
    tag = live_tag(ann, url)
    with CaptureQueriesContext(connection) as queries:
        response = ann.get(url, HTTP_IF_NONE_MATCH=tag, **LIVE)
    assert response.status_code == 304 and response.content == b""
    sql = [query["sql"] for query in queries.captured_queries]
    beyond_sign_in = [q for q in sql if "django_session" not in q and "auth_user" not in q]
    assert len(beyond_sign_in) == 1 and len(sql) <= 3, sql  # the session, the user with their profile, the game
    assert "Cookie" in response["Vary"] and response["Cache-Control"] == "private, no-cache"


def test_the_etag_changes_with_everything_the_viewer_sees(client_for):
    game = running_game(actions=governments(("ann", "bob")), now=timezone.now())
    dan = client_for("dan")
    url = f"/games/{game.pk}/"
    zoe = make_user("zoe")
    zoe.groups.add(Group.objects.get(name="moderators"))
    changes = {
        "a post": lambda: post_message(game.pk, user("cat"), "hello"),
        "an edit": lambda: edit_post(Post.objects.get().pk, user("cat"), "hello again"),
        "a hide": lambda: set_post_hidden(zoe, Post.objects.get().pk, True, "rude"),
        "a claim": lambda: file_claim(game.pk, user("ann"), 1, "FFF"),
        "a nomination": lambda: make_move(game.pk, user("bob"), {"type": "nominate", "target": "cat"}, step()),
        "the viewer's own ballot": lambda: make_move(game.pk, user("dan"), {"type": "vote", "vote": "ja"}, step()),
        "the ballot changed": lambda: make_move(game.pk, user("dan"), {"type": "vote", "vote": "nein"}, step()),
        "an absence": lambda: declare_absence(game.pk, user("dan"), *later()),
        "its withdrawal": lambda: withdraw_absence(Absence.objects.get().pk, user("dan")),
        "a pause": lambda: pause(game.pk, zoe),
    }

    def step():
        game.refresh_from_db()
        return game.step_number

    before = live_tag(dan, url)
    for what, change in changes.items():
        change()
        tag = live_tag(dan, url)
        assert tag != before, f"{what} did not change the ETag"
        before = tag
    assert dan.get(url, HTTP_IF_NONE_MATCH=before, **LIVE).status_code == 304


def later():
    start = timezone.now() + timedelta(days=2)
    return start, start + timedelta(days=1)


def test_a_sign_up_in_the_lobby_changes_the_etag(client):
    lobby = create_game(make_user("ann"), player_count=5)
    tag = live_tag(client, f"/games/{lobby.pk}/")
    join_game(lobby.pk, make_user("bob"))
    assert live_tag(client, f"/games/{lobby.pk}/") != tag


def test_the_etag_is_per_viewer_language_and_session(client_for):
    game = running_game(now=timezone.now())
    url = f"/games/{game.pk}/"
    tags = {live_tag(client_for("ann"), url), live_tag(client_for("bob"), url), live_tag(Client(), url)}
    tags.add(live_tag(Client(HTTP_ACCEPT_LANGUAGE="fr"), url))
    assert len(tags) == 4
    ann = client_for("ann")
    tag = live_tag(ann, url)
    ann.cookies["csrftoken"] = "x" * 32  # signed in again: the cached page's forms carry a stale token
    assert ann.get(url, HTTP_IF_NONE_MATCH=tag, **LIVE).status_code == 200


def test_a_message_waiting_to_be_shown_is_never_answered_304(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    url = f"/games/{game.pk}/"
    tag = ann.get(url)["ETag"]
    ann.post(f"/games/{game.pk}/move/", {"step_number": 0, "type": "nominate", "target": "bob", "confirmed": "yes"})
    page = ann.get(url, HTTP_IF_NONE_MATCH=tag)  # the refusal's message must be read, though nothing changed
    assert page.status_code == 200 and "moved on since this page was loaded" in page.content.decode()


def test_the_live_script_s_answers_leave_messages_for_the_page(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    ann.post(f"/games/{game.pk}/move/", {"step_number": 0, "type": "nominate", "target": "bob", "confirmed": "yes"})
    assert "moved on since" not in ann.get(f"/games/{game.pk}/", **LIVE).content.decode()
    assert "moved on since" in ann.get(f"/games/{game.pk}/").content.decode()


def test_a_session_signed_in_before_the_backends_were_renamed_stays_signed_in(client_for):
    from django.contrib.auth import BACKEND_SESSION_KEY

    ann = client_for("ann")
    session = ann.session
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"  # as stored before
    session.save()
    assert "Profile (ann)" in ann.get("/").content.decode()


def test_r11_no_one_else_s_private_change_moves_a_viewer_s_etag(client_for):
    """A ballot changed, an absence announced or a resignation asked by another player shows nothing on this
    viewer's page: its tag stays, or the page would tell that something happened."""
    from games.services import request_resignation

    game = running_game(actions=[{"type": "nominate", "by": "ann", "target": "bob"}], now=timezone.now())
    dan = client_for("dan")
    url = f"/games/{game.pk}/"
    game.refresh_from_db()
    make_move(game.pk, user("cat"), {"type": "vote", "vote": "ja"}, game.step_number)  # cat has voted: public
    before = live_tag(dan, url)
    make_move(game.pk, user("cat"), {"type": "vote", "vote": "nein"}, game.step_number)  # changed: secret
    declare_absence(game.pk, user("eve"), *later())
    request_resignation(game.pk, user("bob"))
    assert dan.get(url, HTTP_IF_NONE_MATCH=before, **LIVE).status_code == 304


def test_the_graveyard_is_never_answered_304_to_a_reader_who_may_not_read_it(client_for):
    game = running_game(now=timezone.now())
    url = f"/games/{game.pk}/graveyard/"
    ann = client_for("ann")  # alive: the graveyard is closed to her
    for forged in ('"0123456789abcdef0123456789abcdef"', "*"):
        assert ann.get(url, HTTP_IF_NONE_MATCH=forged, **LIVE).status_code == 403
    assert client_for("zed").get(f"/games/{game.pk}/", HTTP_IF_NONE_MATCH="*", **LIVE).status_code == 200


def test_the_lobby_s_sign_ups_and_hidden_posts_change_the_tag_even_when_their_counts_do_not(client_for):
    from django.contrib.auth.models import Group

    from games.services import leave_game

    lobby = create_game(make_user("ann"), player_count=5)
    join_game(lobby.pk, make_user("bob"))
    visitor = Client()
    url = f"/games/{lobby.pk}/"
    before = live_tag(visitor, url)
    leave_game(lobby.pk, user("bob"))
    join_game(lobby.pk, make_user("cat"))  # as many seats as before, another player
    assert live_tag(visitor, url) != before
    game = running_game(now=timezone.now())
    zoe = make_user("zoe")
    zoe.groups.add(Group.objects.get(name="moderators"))
    first, second = (post_message(game.pk, user(name), f"{name} here") for name in ("ann", "bob"))
    set_post_hidden(zoe, first.pk, True, "rude")
    url = f"/games/{game.pk}/"
    before = live_tag(visitor, url)
    set_post_hidden(zoe, first.pk, False, "on second thoughts")
    set_post_hidden(zoe, second.pk, True, "rude")  # as many hidden as before, another post
    assert live_tag(visitor, url) != before


def test_e4_an_absence_beginning_and_ending_changes_its_players_etag_and_only_then(client_for):
    """The viewer's panel shows their absence as coming, under way, then over: the fingerprint compares its
    moments with the time now, in the database's own way of storing them."""
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = running_game(now=timezone.now())
        dan, url = client_for("dan"), f"/games/{game.pk}/"
        start = timezone.now() + timedelta(hours=25)  # announced at least 24 hours before (E4)
        declare_absence(game.pk, user("dan"), start, start + timedelta(days=1))
        coming = live_tag(dan, url)
        clock.shift(timedelta(hours=24))
        assert live_tag(dan, url) == coming
        clock.shift(timedelta(hours=2))
        under_way = live_tag(dan, url)
        assert under_way != coming
        clock.shift(timedelta(hours=12))
        assert live_tag(dan, url) == under_way
        clock.shift(timedelta(hours=12))
        assert live_tag(dan, url) != under_way
