"""Issue 41 in Chromium: a player of a finished game clicks "Play again with the same players" by its result and
lands in the new lobby, signed up alone; another player then finds the link to the rematch on the finished game
and, there, the choice to join. In English and in Spanish, on a desktop and on a phone."""

import pytest
from playwright.sync_api import expect

from games.models import Game, Seat
from tests.e2e.pages import VIEWPORTS, said, signed_in
from tests.factories import finished_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_player_plays_again_and_another_finds_the_rematch(browser, live_server, language, device):
    game = finished_game()
    ann = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[device])
    ann.goto(game.get_absolute_url())
    ask = ann.locator("#result").get_by_role("button", name=said(language, "Play again with the same players"))
    expect(ask).to_be_visible()
    if device == "phone":  # by the result, at the top: in the first screenful
        assert ask.bounding_box()["y"] < VIEWPORTS["phone"]["height"]
    ask.click()
    ann.wait_for_url(lambda url: url.rstrip("/") != live_server.url + game.get_absolute_url().rstrip("/"))
    rematch = Game.objects.get(pk=game.pk).rematch
    assert ann.url == live_server.url + rematch.get_absolute_url()
    expect(ann.locator("ul.messages")).to_contain_text(
        said(language, "Here is the rematch, with the same settings: the other players are invited.")
    )
    expect(ann.locator("h1")).to_contain_text(said(language, "%(name)s (rematch)", name=game.name))
    expect(ann.locator(".signups")).to_contain_text("ann")
    assert list(Seat.objects.filter(game=rematch).values_list("name", flat=True)) == ["ann"]

    bob = signed_in(browser, live_server.url, "bob", language=language, viewport=VIEWPORTS[device])
    bob.goto(game.get_absolute_url())
    expect(bob.locator("#result").get_by_role("button")).to_have_count(0)  # made already: a link, not the form
    link = bob.locator("#result").get_by_role("link", name=said(language, "Go to the rematch"))
    expect(link).to_be_visible()
    link.click()
    bob.wait_for_url(live_server.url + rematch.get_absolute_url())
    expect(bob.get_by_role("button", name=said(language, "Join as a player"))).to_be_visible()
    assert not Seat.objects.filter(game=rematch, name="bob").exists()  # joining is his own click
    for page in (ann, bob):
        page.context.close()
