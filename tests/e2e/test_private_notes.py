"""Issue 29 in Chromium: a player keeps private notes on a game's page, in English and in French, on a desktop and
on a phone. Saved by the form (no script needed), kept across reloads, refused when too long with the text kept,
and never on another player's page."""

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from games.models import Note
from tests.e2e.pages import VIEWPORTS, said, signed_in
from tests.factories import running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
NOTE = "cat hesitated before voting ja; bob's FF claim is odd"


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_player_keeps_private_notes_only_they_see(browser, live_server, language, device):
    game = running_game(now=timezone.now())
    ann = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[device])
    ann.goto(f"/games/{game.pk}/")
    box = ann.locator("#notes-body")
    expect(ann.locator("#notes-title")).to_contain_text(said(language, "Your notes"))
    box.fill(NOTE)
    ann.get_by_role("button", name=said(language, "Save my notes")).click()
    expect(ann.locator("ul.messages")).to_contain_text(said(language, "Your notes are saved: only you can read them."))
    expect(ann.locator("#notes-body")).to_have_value(NOTE)
    ann.reload()
    expect(ann.locator("#notes-body")).to_have_value(NOTE)
    assert Note.objects.get().body == NOTE

    bob = signed_in(browser, live_server.url, "bob", language=language, viewport=VIEWPORTS[device])
    bob.goto(f"/games/{game.pk}/")
    expect(bob.locator("#notes-body")).to_have_value("")
    assert NOTE not in bob.content()
    ann.context.close()
    bob.context.close()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_notes_too_long_are_refused_with_the_text_kept(browser, live_server, language, device):
    game = running_game(now=timezone.now())
    ann = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[device])
    ann.goto(f"/games/{game.pk}/")
    too_long = "x" * (Note.MAX_BODY + 1)
    ann.locator("#notes-body").fill(too_long)
    ann.get_by_role("button", name=said(language, "Save my notes")).click()
    with translation.override(language):
        refusal = gettext(
            "Your notes are %(show_value)s characters long: at most %(limit_value)s are kept. Nothing was saved."
        )
    expect(ann.locator("ul.messages")).to_contain_text(refusal % {"show_value": 10001, "limit_value": 10000})
    expect(ann.locator("#notes-body")).to_have_value(too_long)
    assert not Note.objects.exists()
    ann.context.close()
