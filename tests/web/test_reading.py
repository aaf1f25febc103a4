"""Pages that read never write; the read mark moves by a POST of its own (games/views/reading.py).

In a running game's graveyard the mark is also the record that its reader has seen the secrets and may never take
a seat: whoever might yet take one is warned, and nothing of the graveyard is shown before the warning is
confirmed by that POST.
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Post, ThreadRead
from games.services.forum import post_message
from games.services.knowledge import knows_secrets
from tests.factories import EXECUTED, running_game
from tests.games.helpers import user

pytestmark = pytest.mark.django_db
WRITES = ("INSERT", "UPDATE", "DELETE")

# Pages whose GET still writes, each for its reason.
WRITING_PAGES = {
    # A moderator shown a game's secrets outside play is on the record the moment they are shown
    # (services.knowledge.record_witness): no warning stands before a list of reports.
    "/moderation/reports/": "view_secrets",
    # Opening the list marks the reader's notifications read.
    "/notifications/": "read_at",
}


@pytest.fixture
def game():
    game = running_game(actions=EXECUTED, now=timezone.now() - timedelta(minutes=5))  # eve is dead
    post_message(game.pk, user("cat"), "In the open.")
    post_message(game.pk, user("eve"), "Among the dead.", thread=Post.Thread.GRAVEYARD)
    return game


def pages(game) -> list[str]:
    main = Post.objects.get(game=game, thread=Post.Thread.MAIN).pk
    buried = Post.objects.get(game=game, thread=Post.Thread.GRAVEYARD).pk
    return [
        "/", "/stats/", f"/games/{game.pk}/", f"/games/{game.pk}/?page=last", f"/games/{game.pk}/graveyard/",
        f"/games/{game.pk}/unread/", f"/games/{game.pk}/rules/", f"/games/{game.pk}/players/ann/",
        f"/games/{game.pk}/posts/{main}/history/", f"/games/{game.pk}/posts/{buried}/history/",
        f"/moderation/posts/{buried}/report/", f"/moderation/posts/{main}/report/", "/profile/",
    ]  # fmt: skip


def writes(client: Client, url: str, **headers) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        client.get(url, **headers)
    return [query["sql"] for query in queries if query["sql"].lstrip().upper().startswith(WRITES)]


@pytest.mark.parametrize("who", ["visitor", "ann", "eve", "zed", "zed confirmed"])
def test_a_get_of_each_page_writes_nothing(game, client_for, who):
    client = Client() if who == "visitor" else client_for(who.split()[0])
    if who == "zed confirmed":
        client.post(f"/games/{game.pk}/read/", {"thread": "graveyard"})
    client.get("/")  # the session's CSRF cookie, made once
    for url in pages(game):
        assert writes(client, url) == [], (who, url)
    assert writes(client, f"/games/{game.pk}/", HTTP_X_LIVE="1") == []  # the page's script asking for news


def test_the_moderators_pages_write_only_what_they_must(game, client_for):
    mod = client_for("mod")
    user("mod").groups.add(Group.objects.get(name="moderators"))
    mod.post(f"/moderation/games/{game.pk}/see/")  # the warning confirmed, by a POST
    mod.get("/")
    for url in [f"/moderation/games/{game.pk}/", "/moderation/", "/moderation/audit/", *pages(game)]:
        assert writes(mod, url) == [], url
    for url, written in WRITING_PAGES.items():
        assert all(written in sql for sql in writes(mod, url)), url


def test_the_page_sends_the_mark_of_its_last_post_and_the_mark_moves_only_forward(game, client_for):
    ann, url = client_for("ann"), f"/games/{game.pk}/"
    page = ann.get(url).content.decode()
    last = Post.objects.get(game=game, thread=Post.Thread.MAIN).created_at
    assert f'name="up_to" value="{last.isoformat()}"' in page
    assert not ThreadRead.objects.filter(user=user("ann")).exists()  # read, not yet written
    assert ann.post(f"{url}read/", {"thread": "main", "up_to": last.isoformat()}).status_code == 204
    earlier = (last - timedelta(hours=1)).isoformat()
    assert ann.post(f"{url}read/", {"thread": "main", "up_to": earlier}).status_code == 204
    assert ThreadRead.objects.get(user=user("ann")).last_read_at == last


def test_a_mark_is_never_past_the_newest_post_nor_sends_anywhere_but_this_site(game, client_for):
    zed = client_for("zed")
    later = (timezone.now() + timedelta(days=365)).isoformat()
    answer = zed.post(
        f"/games/{game.pk}/read/", {"thread": "main", "up_to": later, "next": "https://elsewhere.example/"}
    )
    assert answer.status_code == 204
    newest = Post.objects.get(game=game, thread=Post.Thread.MAIN).created_at
    assert ThreadRead.objects.get(user=user("zed")).last_read_at == newest


def test_the_living_cannot_mark_the_graveyard_read_and_visitors_sign_in_first(game, client_for):
    assert client_for("ann").post(f"/games/{game.pk}/read/", {"thread": "graveyard"}).status_code == 403
    assert Client().post(f"/games/{game.pk}/read/", {"thread": "main"}).status_code == 302
    assert not ThreadRead.objects.exists()


def test_a_spectator_is_warned_before_the_graveyard_and_barred_only_once_they_confirm(game, client_for):
    zed, url = client_for("zed"), f"/games/{game.pk}/graveyard/"
    warning = zed.get(url).content.decode()
    assert "graveyard-warning" in warning and "Among the dead." not in warning
    assert not knows_secrets(game, user("zed"))
    assert zed.post(f"/games/{game.pk}/read/", {"thread": "graveyard", "next": url})["Location"] == url
    assert knows_secrets(game, user("zed"))
    assert "Among the dead." in zed.get(url).content.decode()


def test_a_dead_player_reads_the_graveyard_without_a_warning(game, client_for):
    page = client_for("eve").get(f"/games/{game.pk}/graveyard/").content.decode()
    assert "Among the dead." in page and "graveyard-warning" not in page


def test_a_post_moves_its_authors_mark_without_javascript(game, client_for):
    cat = client_for("cat")
    cat.post(f"/games/{game.pk}/post/", {"thread": "main", "body": "Mine."})
    assert ThreadRead.objects.get(user=user("cat")).last_read_at == Post.objects.get(body="Mine.").created_at
