"""A live thread in Chromium (issue 12): a page left open changes as the game does, without a reload, keeps what
its reader is typing, and asks for the outcome as soon as a countdown reaches zero."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from games.services import make_move, sweep_due_deadlines
from games.services.forum import post_message
from tests.e2e.pages import signed_in
from tests.factories import running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def user(name: str):
    return get_user_model().objects.get(username=name)


def test_an_open_page_follows_the_game_without_a_reload(browser, live_server, settings):
    settings.LIVE_POLL_SECONDS = 1
    game = running_game(now=timezone.now())
    bob = signed_in(browser, live_server.url, "bob")
    bob.goto(f"/games/{game.pk}/")
    bob.evaluate("window.loadedOnce = true")  # gone if the page were reloaded
    bob.locator("#id_body").fill("I am typing a long answer")
    post_message(game.pk, user("cat"), "Ann, nominate me.")
    expect(bob.locator("article.post .body")).to_contain_text(["Ann, nominate me."])
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, game.step_number)
    expect(bob.locator("#panel form button[value=ja]")).to_be_visible()  # the ballot appears in bob's panel
    expect(bob.locator("#status")).to_contain_text("election")
    expect(bob.locator("#entries .announcement").last).to_contain_text("ann nominates bob as chancellor")
    expect(bob.locator("#id_body")).to_have_value("I am typing a long answer")  # what he typed is still there
    assert bob.evaluate("window.loadedOnce") is True
    bob.context.close()


def test_t4_when_the_countdown_reaches_zero_the_page_asks_for_the_outcome(browser, live_server, settings):
    """ann, the candidate, has her nomination menu open in her panel (untouched): her page still changes."""
    settings.LIVE_POLL_SECONDS = 600  # only the deadline makes this page ask
    game = running_game(now=timezone.now())
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=4))
    ann = signed_in(browser, live_server.url, "ann")
    ann.goto(f"/games/{game.pk}/")
    expect(ann.locator("#status")).to_contain_text("nomination")
    expect(ann.locator("#target-nominate")).to_be_visible()
    ann.locator("#absences summary").click()  # the focus on a summary is no reason to wait
    ann.wait_for_timeout(4500)
    assert sweep_due_deadlines() == 1  # the sweep applies the timeout: ann lost her candidacy (T4)
    expect(ann.locator("#status h2")).to_contain_text("Round 2", timeout=15_000)
    expect(ann.locator("#target-nominate")).to_have_count(0)  # her panel no longer offers the nomination
    expect(ann.locator("#absences")).to_have_attribute("open", "")  # what she had open stays open
    ann.context.close()
