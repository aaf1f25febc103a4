"""Issue 41, in Chromium: two players pass an extension from their panels, no moderator needed: one proposes, the
other votes yes, and the thread says the players voted it. In English on a desktop and in another language on a
phone."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation
from playwright.sync_api import expect

from games.services import end_now, exile
from tests.e2e.pages import DESKTOP, PHONE, said, signed_in
from tests.factories import make_user, running_game
from tests.games.helpers import reload

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


def said_plural(language: str, singular: str, hours: int, **values) -> str:
    """A sentence with a count of hours, as the site says it in `language`: its plural form for `hours`."""
    plural = singular.replace("hour.", "hours.")
    with translation.override(language):
        translated = translation.ngettext(singular, plural, hours)
    assert language == "en" or translated not in (singular, plural), f"not translated into {language}: {singular}"
    return translated % {"hours": hours, **values}


@pytest.mark.parametrize(("language", "viewport"), [("en", DESKTOP), ("fr", PHONE)])
def test_two_living_players_pass_an_extension_from_their_panels(browser, live_server, language, viewport):
    game = running_game(now=timezone.now())
    moderator = make_user("zoe")
    for name in ("dan", "eve"):  # three living players left: two of them are a majority
        exile(game.pk, moderator, name)
    end_now(game.pk, moderator)
    deadline = reload(game).deadline

    ann = signed_in(browser, live_server.url, "ann", language=language, viewport=viewport)
    ann.goto(f"/games/{game.pk}/")
    ann.locator("#proposal summary").click()
    ann.locator("#proposal-kind").select_option("extend")
    ann.locator("#proposal-hours").fill("12")
    ann.get_by_role("button", name=said(language, "Propose")).click()
    expect(ann.locator("ul.messages")).to_contain_text(
        said(language, "Your proposal is open: the table votes on it from their panels.")
    )

    bob = signed_in(browser, live_server.url, "bob", language=language, viewport=viewport)
    bob.goto(f"/games/{game.pk}/")
    proposal = bob.locator("#proposal")
    terms = "%(name)s proposes to extend the deadline by %(hours)s hour."
    expect(proposal).to_contain_text(said_plural(language, terms, 12, name="ann"))
    SCREENSHOTS.mkdir(exist_ok=True)
    proposal.screenshot(path=SCREENSHOTS / f"proposal-{language}.png")
    proposal.get_by_role("button", name=said(language, "Yes"), exact=True).click()
    expect(bob.locator("ul.messages")).to_contain_text(said(language, "Your vote is counted."))
    announced = said_plural(language, "The players voted to extend the deadline by %(hours)s hour.", 12)
    expect(bob.locator(".entry.announcement").filter(has_text=announced)).to_have_count(1)
    assert reload(game).deadline == deadline + timedelta(hours=12)
    ann.context.close()
    bob.context.close()
