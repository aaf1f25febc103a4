"""What a first game showed on screen: words of the policy tracks broken mid-word, a ballot's legend across
its box's border. Measured in Chromium, in French and Polish (the longest words), on a phone and a desktop."""

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Post
from games.services.transfer import import_script
from tests.e2e.pages import second_factor_used, signed_in
from tests.factories import make_user, running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"

WORDS_ON_ONE_LINE = """
() => [...document.querySelectorAll('.track .slot')].flatMap(slot => {
  const text = slot.firstChild && slot.firstChild.nodeType === 3 ? slot.firstChild : null;
  if (!text) return [];
  const broken = [];
  for (const match of text.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, match.index);
    range.setEnd(text, match.index + match[0].length);
    if (range.getClientRects().length > 1) broken.push(match[0]);
  }
  return broken;
})
"""
LEGEND_INSIDE = """
() => [...document.querySelectorAll('fieldset > legend')].every(legend => {
  const box = legend.parentElement.getBoundingClientRect(), own = legend.getBoundingClientRect();
  return own.top >= box.top + 1 && own.bottom <= box.bottom;
})
"""


@pytest.mark.parametrize("language", ["fr", "pl"])
@pytest.mark.parametrize("width", [390, 1280])
def test_track_words_are_whole_and_legends_inside_their_box(browser, live_server, language, width):
    game = running_game(now=timezone.now(), actions=[{"type": "nominate", "by": "ann", "target": "bob"}])
    page = signed_in(browser, live_server.url, "cat", language=language, viewport={"width": width, "height": 900})
    page.goto(f"/games/{game.pk}/")
    assert page.locator("fieldset > legend").count() >= 1  # cat's ballot
    assert page.evaluate(WORDS_ON_ONE_LINE) == []
    assert page.evaluate(LEGEND_INSIDE)
    page.context.close()


LONG_NAMES = [
    "alexandra_konstantinopolska",
    "bartholomew_featherstone",
    "catalina_de_la_fuente",
    "dobrosława_wiśniewska",
    "evangeline_montgomery",
]


def long_named_game():
    """A running 5-player game with realistic long names and four governments in its table, claims filed."""
    ann, bob, cat, dan, eve = LONG_NAMES
    actions = []
    for president, chancellor in ((ann, bob), (bob, cat), (cat, dan), (dan, eve)):
        actions.append({"type": "nominate", "by": president, "target": chancellor})
        actions += [{"type": "vote", "by": name, "vote": "ja"} for name in LONG_NAMES]
        actions.append({"type": "discard", "by": president, "policy": "F"})
        actions.append({"type": "enact", "by": chancellor, "policy": "F"})
        if len(actions) > 20:
            break
    script = {
        "players": LONG_NAMES,
        "roles": dict(zip(LONG_NAMES, ["liberal", "fascist", "hitler", "liberal", "liberal"], strict=True)),
        "deck": list("F" * 11 + "L" * 6),
        "first_president": ann,
        "seed": 1,
        "settings": {},
        "actions": actions,
    }
    return import_script(script, now=timezone.now())


@pytest.mark.parametrize("language", ["en", "fr", "es", "pl"])
def test_on_a_phone_the_header_is_one_line_and_its_menu_unfolds(browser, live_server, language):
    moderator = make_user("moderatrice_longue")
    moderator.groups.add(Group.objects.get(name="moderators"))  # the most links a header holds
    page = signed_in(browser, live_server.url, "moderatrice_longue", language=language,
                     viewport={"width": 360, "height": 740})  # fmt: skip
    second_factor_used(page, "moderatrice_longue")
    page.goto("/")
    header = page.locator("header.site")
    height = header.bounding_box()["height"]
    assert height < 60, f"the header takes {height}px"  # one line: the site's name and the menu
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.locator("header.site details.narrow summary").click()
    profile = page.locator("header.site nav a[href='/profile/']")
    expect(profile).to_be_visible()
    profile.click()
    expect(page).to_have_url(re.compile("/profile/$"))
    page.context.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_the_headers_one_list_of_links_is_reached_by_keyboard_on_a_phone_and_a_wide_screen(browser, live_server, width):
    """The links are rendered once: on a wide screen Tab goes from the site's name to them; on a phone, to the
    Menu, which Enter unfolds, and Tab goes on into the same links."""
    page = signed_in(browser, live_server.url, "ann", viewport={"width": width, "height": 740})
    page.goto("/")
    expect(page.locator("header.site nav")).to_have_count(1)
    page.locator("header.site .brand").focus()
    page.keyboard.press("Tab")
    if width < 640:
        expect(page.locator("header.site nav")).to_be_hidden()
        expect(page.locator("header.site details.narrow summary")).to_be_focused()
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
    lobby = page.locator("header.site nav a[href='/']")
    expect(lobby).to_be_focused()
    expect(lobby).to_be_visible()
    page.context.close()


def test_on_a_phone_the_governments_table_fits_without_sideways_scrolling(browser, live_server):
    game = long_named_game()
    page = signed_in(browser, live_server.url, "watcher", viewport={"width": 360, "height": 740})
    page.goto(f"/games/{game.pk}/")
    rows = page.locator("#history tbody tr")
    assert rows.count() >= 3
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    table = page.locator("#history .table-wrap")
    assert table.evaluate("wrap => wrap.scrollWidth <= wrap.clientWidth")
    expect(rows.first.locator("td").first).to_be_visible()
    page.context.close()


def test_on_a_wide_screen_the_panel_stays_in_view_in_a_long_thread(browser, live_server):
    game = running_game(now=timezone.now())
    author = make_user("eve")
    Post.objects.bulk_create(
        Post(game=game, author=author, body=f"post {n}", html=f"<p>post {n}</p>" * 4, created_at=timezone.now())
        for n in range(25)
    )
    page = signed_in(browser, live_server.url, "ann", viewport={"width": 1280, "height": 800})
    page.goto(f"/games/{game.pk}/")
    page.locator("article.post").nth(20).scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 1000  # a long thread, read far down
    box = page.locator("#panel").bounding_box()
    assert 0 <= box["y"] < 800, box  # the panel is still on screen
    page.context.close()


@pytest.mark.parametrize("language", ["en", "pl"])
def test_on_a_phone_the_new_game_form_fits_and_shows_each_visibility_in_full(browser, live_server, language):
    page = signed_in(browser, live_server.url, "ann", language=language, viewport={"width": 360, "height": 740})
    page.goto("/games/new/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    form = page.locator("main form.card")
    assert form.evaluate("box => box.scrollWidth <= box.clientWidth")
    right = form.bounding_box()["x"] + form.bounding_box()["width"]
    choices = page.locator("fieldset.choices label")
    assert choices.count() == 2
    for index in range(2):
        label = choices.nth(index)
        assert label.evaluate("label => label.scrollWidth <= label.clientWidth")
        assert label.bounding_box()["x"] + label.bounding_box()["width"] <= right
    page.context.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_finished_games_result_is_the_first_thing_a_player_sees_on_a_phone(browser, live_server, language):
    import json

    from tests.factories import SHARED_SCENARIOS

    game = import_script(json.loads((SHARED_SCENARIOS / "liberal-policies-win.json").read_text()), name="Ended")
    player = game.seats.order_by("number").first().user.get_username()
    page = signed_in(browser, live_server.url, player, language=language, viewport={"width": 390, "height": 844})
    page.goto(f"/games/{game.pk}/")
    result = page.locator("#result")
    won = {"en": "The liberals won.", "es": "Han ganado los liberales."}[language]
    expect(result.locator("strong")).to_have_text(won)
    assert result.bounding_box()["y"] + result.bounding_box()["height"] <= 844  # on the first screen, no scrolling
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"finished-phone-{language}.png")
    page.context.close()
