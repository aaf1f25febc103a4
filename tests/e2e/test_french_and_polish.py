"""French and Polish as a player reads them in Chromium, on a desktop and on a phone (issue 29): the profile's
confirmation in the language just chosen, one verb for enacting from the button to the question and the answer,
months in lower case, and French colons after a no-break space."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.pages import DESKTOP, PHONE, signed_in
from tests.factories import governments, running_game
from tests.web.typography import french_spacing_faults

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


# What each language shows, written out here rather than read from the catalogues the test is about.
MONTHS = {
    "fr": ["jan.", "fév.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."],
    "pl": ["sty", "lut", "mar", "kwi", "maj", "cze", "lip", "sie", "wrz", "paź", "lis", "gru"],
}
WORDS = {
    "fr": {
        "saved": "Votre profil est enregistré.",
        "button": "Promulguer une loi fasciste",
        "question": "Promulguer une loi fasciste\u00a0? ",
        "done": "Vous avez promulgué une loi fasciste.",
        "session": "Tour 1\u00a0: reçu",
    },
    "pl": {
        "saved": "Profil zapisany.",
        "button": "Uchwal ustawę faszystowską",
        "question": "Uchwalić ustawę faszystowską? ",
        "done": "Uchwalono ustawę faszystowską.",
        "session": "Runda 1: otrzymano",
    },
}


@pytest.mark.parametrize(
    ("language", "viewport"),
    [("fr", DESKTOP), ("fr", PHONE), ("pl", DESKTOP), ("pl", PHONE)],
    ids=["french-desktop", "french-phone", "polish-desktop", "polish-phone"],
)
def test_a_chancellor_reads_french_and_polish_that_hold_together(browser, live_server, language, viewport):
    words = WORDS[language]
    game = running_game(now=timezone.now(), actions=governments(("ann", "bob"))[:7])  # bob holds two policies
    page = signed_in(browser, live_server.url, "bob", viewport=viewport, timezone_id="UTC")

    page.goto("/profile/")
    page.locator("#id_language").select_option(language)
    page.locator("main button[type=submit]").first.click()
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("ul.messages")).to_have_text(words["saved"])

    page.goto(f"/games/{game.pk}/")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator("#panel").get_by_role("button", name=words["button"]).click()
    expect(page.locator("ul.messages")).to_contain_text(words["done"])
    assert asked and asked[0].startswith(words["question"]), asked

    main = page.locator("main")
    expect(main).to_contain_text(words["session"])
    text = main.inner_text()
    today = timezone.now()  # the thread's announcements were made today (UTC, the reader's zone)
    assert f"{today.day} {MONTHS[language][today.month - 1]}" in text
    capitalised = "|".join(month.rstrip(".").capitalize() for month in MONTHS[language])
    assert not re.search(rf"\d (?:{capitalised})\b", text)
    if language == "fr":
        assert french_spacing_faults(text) == []
    page.context.close()
