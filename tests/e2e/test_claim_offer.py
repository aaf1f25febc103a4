"""Issue 29 in Chromium: when their legislative session ends, the president and the chancellor find the claim
offered at the top of their panel, none of its cards picked for them; filing it (asked first) makes the offer go.
In English and in French, on a desktop and on a phone."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Claim
from tests.e2e.pages import VIEWPORTS, said, signed_in
from tests.factories import governments, running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_claim_is_offered_when_the_session_ends_and_goes_once_filed(browser, live_server, language, device):
    game = running_game(actions=governments(("ann", "bob")), now=timezone.now())
    ann = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[device])
    ann.goto(f"/games/{game.pk}/")
    offer = ann.locator("#claim-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text(said(language, "Your legislative session is over: file your claim"))
    expect(offer).to_contain_text(said(language, "As president, say publicly which three cards you drew."))
    buttons = offer.locator("button[name=cards]")
    expect(buttons).to_have_count(4)
    assert [b.get_attribute("value") for b in buttons.all()] == ["FFF", "FFL", "FLL", "LLL"]
    assert offer.locator("[aria-pressed=true], :checked").count() == 0  # nothing picked for her
    if device == "phone":  # the panel comes first on a phone: the offer is in the first screenful
        assert offer.bounding_box()["y"] < 3 * VIEWPORTS["phone"]["height"]
    asked = []
    ann.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    offer.locator("button[value=FFL]").click()
    expect(ann.locator("ul.messages")).to_contain_text(said(language, "Your claim is on the record."))
    assert asked and "FFL" in asked[0]
    expect(ann.locator("#claim-offer")).to_have_count(0)
    assert Claim.objects.get().cards == "FFL"

    bob = signed_in(browser, live_server.url, "bob", language=language, viewport=VIEWPORTS[device])
    bob.goto(f"/games/{game.pk}/")  # the chancellor's offer stays until he files his own
    expect(bob.locator("#claim-offer")).to_contain_text(
        said(language, "As chancellor, say publicly which two cards you received.")
    )
    cat = signed_in(browser, live_server.url, "cat", language=language, viewport=VIEWPORTS[device])
    cat.goto(f"/games/{game.pk}/")
    expect(cat.locator("#panel")).to_be_visible()
    expect(cat.locator("#claim-offer")).to_have_count(0)
    for page in (ann, bob, cat):
        page.context.close()
