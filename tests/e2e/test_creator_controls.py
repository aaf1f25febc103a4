"""An open game's creator in Chromium: changes the settings (a fast table, counted in minutes), then starts the game
early with the five players signed up; in English and French, desktop and phone."""

import pytest
from playwright.sync_api import expect

from games.models import Game, Notification
from games.services import create_game, join_game
from tests.e2e.pages import DESKTOP, PHONE, said, signed_in
from tests.factories import NAMES, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("language", "viewport"), [("en", DESKTOP), ("fr", PHONE)], ids=["english-desktop", "french-phone"]
)
def test_r1_the_creator_makes_a_fast_table_then_starts_early(browser, live_server, language, viewport):
    game = create_game(make_user("ann"), player_count=7, name="Early table")
    for name in NAMES[1:5]:
        join_game(game.pk, make_user(name))
    page = signed_in(browser, live_server.url, "ann", language=language, viewport=viewport)
    page.goto(f"/games/{game.pk}/")
    controls = page.locator("#creator-controls")
    expect(page.locator("#signups form[action$='/remove/']")).to_have_count(4)  # everyone's but ann's own

    controls.locator("a[href$='/settings/']").click()
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/settings/")
    expect(page.locator("#id_name")).to_have_value("Early table")
    nominate = page.locator("label[for=id_nomination_hours]")
    hours, minutes = (said(language, label) for label in ("hours to nominate", "minutes to nominate"))
    expect(nominate).to_have_text(hours[0].upper() + hours[1:])
    page.locator("#id_minute_durations").check()
    expect(nominate).to_have_text(minutes[0].upper() + minutes[1:])  # named in minutes as soon as it is ticked
    page.locator("#id_nomination_hours").fill("12")
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # nothing runs off a phone
    settings = page.locator("#settings")
    expect(settings).to_contain_text(minutes[0].upper() + minutes[1:])
    game.refresh_from_db()
    assert game.minute_durations and game.nomination_hours == 12 and game.status == Game.Status.OPEN
    told = Notification.objects.filter(game=game, kind=Notification.Kind.SETTINGS)
    assert sorted(told.values_list("user__username", flat=True)) == NAMES[1:5]
    if language == "en":
        expect(page.locator("body")).to_contain_text("The settings are saved; everyone signed up is told")

    controls.locator("form[action$='/start/'] button").click()
    expect(page.locator("#creator-controls")).to_have_count(0)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.player_count == 5
    if language == "en":
        expect(page.locator("body")).to_contain_text("The game has started with 5 players.")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.context.close()
