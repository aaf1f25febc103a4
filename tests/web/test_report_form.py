"""Issue 30: a thread page carries one report form, whatever its number of posts; each post another's to report
has a "Report" link to a page of its own, which works without JavaScript."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.models import Post
from games.services.knowledge import knows_secrets
from moderation.models import Report
from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def thread():
    game = running_game(now=timezone.now())
    posts = {
        name: Post.objects.create(
            game=game, author=make_user(name), body=name, html=f"<p>said {name}</p>", created_at=timezone.now()
        )
        for name in ("ann", "bob", "cat")
    }
    Post.objects.filter(pk=posts["cat"].pk).update(hidden_at=timezone.now())
    ghost = make_user("ghost")
    buried = Post.objects.create(
        game=game, author=ghost, thread=Post.Thread.GRAVEYARD, body="b", html="b", created_at=timezone.now()
    )
    return {"game": game, "posts": posts, "buried": buried}


def test_a_thread_page_has_one_report_form_and_a_report_link_on_each_post_of_another_shown(client_for, thread):
    page = client_for("ann").get(f"/games/{thread['game'].pk}/").content.decode()
    assert page.count('<form id="report-form"') == 1 and page.count('id="report-reason"') == 1
    report = page.split('<form id="report-form"')[1].split("</form>")[0]
    assert report.count("csrfmiddlewaretoken") == 1 and " hidden>" in report
    bob, ann, cat = (thread["posts"][name].pk for name in ("bob", "ann", "cat"))
    assert f'href="/moderation/posts/{bob}/report/" class="report" data-report="{bob}"' in page
    assert f'data-report="{ann}"' not in page  # her own
    assert f'data-report="{cat}"' not in page  # hidden


def test_a_visitor_has_no_report_form(thread):
    page = Client().get(f"/games/{thread['game'].pk}/").content.decode()
    assert "report-form" not in page and "data-report" not in page


def test_the_report_link_is_a_page_with_the_post_and_the_form(client_for, thread):
    ann = client_for("ann")
    bob = thread["posts"]["bob"].pk
    page = ann.get(f"/moderation/posts/{bob}/report/").content.decode()
    assert "<p>said bob</p>" in page
    assert f'<form id="report-form" class="report-form" method="post" action="/moderation/posts/{bob}/report/">' in page
    answer = ann.post(f"/moderation/posts/{bob}/report/", {"reason": "rude"}, follow=True)
    assert "Thank you: a moderator will look at this post." in answer.content.decode()
    assert Report.objects.get().reason == "rude"


def test_the_report_page_is_refused_as_the_report_is(client_for, thread):
    buried = thread["buried"].pk
    assert client_for("ann").get(f"/moderation/posts/{buried}/report/").status_code == 404  # the living
    assert client_for("zed").get(f"/moderation/posts/{buried}/report/").status_code == 200
    assert client_for("ann").get("/moderation/posts/999999/report/").status_code == 404
    assert Client().get(f"/moderation/posts/{buried}/report/").status_code == 302  # to sign in


def test_a_graveyard_post_read_on_its_report_page_bars_its_reader_from_a_seat(client_for, thread):
    """The report page shows the post: a graveyard's only once its reading is on the record (a warning confirmed,
    as in the graveyard and on the post's history page), so that its reader may not take a seat of that game."""
    game, zed = thread["game"], client_for("zed")
    assert not knows_secrets(game, get_user_model().objects.get(username="zed"))
    url = f"/moderation/posts/{thread['buried'].pk}/report/"
    assert "graveyard-warning" in zed.get(url).content.decode()  # warned, shown nothing of it yet
    assert not knows_secrets(game, get_user_model().objects.get(username="zed"))
    assert zed.post(f"/games/{game.pk}/read/", {"thread": "graveyard", "next": url})["Location"] == url
    assert knows_secrets(game, get_user_model().objects.get(username="zed"))
    assert "graveyard-warning" not in zed.get(url).content.decode()
