"""The site in French, Spanish and Polish as a browser shows it: the countdown speaks the page's language."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.factories import running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The units, and the conjunction the browser's Intl.ListFormat puts between them (the server writes a comma).
UNITS = {"fr": ("jour", "heure", " et "), "es": ("día", "hora", " y "), "pl": ("dzień", "godzin", " i ")}


@pytest.mark.parametrize("language", ["fr", "es", "pl"])
def test_the_countdown_speaks_the_pages_language(browser, live_server, language):
    game = running_game(now=timezone.now())
    context = browser.new_context(base_url=live_server.url, locale=language)
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    countdown = page.locator("[id^=cd-]").first
    expect(countdown).not_to_have_text("")
    day, hour, conjunction = UNITS[language]
    expect(countdown).to_contain_text(conjunction)  # the script has run
    text = countdown.inner_text()
    assert day in text and hour in text, text
    assert not re.search(r"\d+ ?[dhm]\b", text), text  # no English abbreviations
    context.close()
