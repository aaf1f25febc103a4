"""The sign-ups of an open game in Chromium (issue 29): each name that joined shows its record (E6: games played,
rounds missed, exiles) as its profile does, and leads to that profile; in English and Polish, desktop and phone."""

import pytest
from playwright.sync_api import expect

from games.models import Seat
from games.services import create_game, join_game
from tests.e2e.pages import DESKTOP, PHONE, signed_in
from tests.factories import make_user, running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RECORDS = {
    "en": ("bob", "— 1 game played, 2 rounds missed, 1 exile", "— 0 games played, 0 rounds missed, 0 exiles"),
    "pl": ("bob", "— 1 rozegrana gra, 2 opuszczone rundy, 1 wykluczenie",
           "— 0 rozegranych gier, 0 opuszczonych rund, 0 wykluczeń"),
}  # fmt: skip


@pytest.mark.parametrize(
    ("language", "viewport"), [("en", DESKTOP), ("pl", PHONE)], ids=["english-desktop", "polish-phone"]
)
def test_e6_each_name_in_the_lobby_shows_its_record(browser, live_server, language, viewport):
    old = running_game()  # ann..eve played it; bob missed two rounds and was exiled
    Seat.objects.filter(game=old, name="bob").update(rounds_missed=2, exiled_at=old.started_at)
    game = create_game(make_user("bob"), player_count=7, name="Next table")
    join_game(game.pk, make_user("newbie"))
    name, bobs, newbies = RECORDS[language]
    page = signed_in(browser, live_server.url, "zed", language=language, viewport=viewport)
    page.goto(f"/games/{game.pk}/")
    names = page.locator("#signups ul.signups li")
    expect(names).to_have_count(2)
    expect(names.nth(0)).to_contain_text(bobs)
    expect(names.nth(1)).to_contain_text(newbies)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # nothing runs off a phone
    names.nth(0).get_by_role("link", name=name).click()
    expect(page).to_have_url(f"{live_server.url}/users/bob/")
    expect(page.locator("main dl dd")).to_have_text(["1", "2", "1"])  # the profile says the same
    page.context.close()
