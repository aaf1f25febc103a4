"""Choosing a target (issue 29): the panel starts on "Choose a player", so that one click on Confirm picks nobody;
a seat on the board chooses too, by mouse or keyboard; a double click on Confirm asks once. In English and
Spanish, on a desktop and a phone."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.pages import VIEWPORTS, signed_in
from tests.factories import governments, running_game
from tests.games.helpers import reload

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"first": "Choose a player first: nothing was done.", "placeholder": "Choose a player", "choose": "Choose",
           "confirm": "Confirm", "executed": "You chose to execute {}."},
    "es": {"first": "Elige primero a un jugador: no se ha hecho nada.", "placeholder": "Elige a un jugador",
           "choose": "Elegir a", "confirm": "Confirmar", "executed": "Has elegido ejecutar a {}."},
}  # fmt: skip
# A 7-player game (investigate at 2, special election at 3, execution at 4): who owes each targeted move.
TO_INVESTIGATE = governments(("ann", "bob"), ("bob", "cat"), players=7)
TO_ELECT = [
    *TO_INVESTIGATE,
    {"type": "investigate", "by": "bob", "target": "ann"},
    *governments(("cat", "dan"), players=7),
]
TO_EXECUTE = [
    *TO_ELECT,
    {"type": "special_election", "by": "cat", "target": "eve"},
    *governments(("eve", "fay"), players=7),
]
STEPS = {"nominate": ("ann", []), "investigate": ("bob", TO_INVESTIGATE), "special_election": ("cat", TO_ELECT),
         "execute": ("eve", TO_EXECUTE)}  # fmt: skip
CASES = [(kind, "en", "desktop") for kind in STEPS] + [("execute", "es", "phone"), ("nominate", "es", "desktop")]


def owing(browser, live_server, kind: str, language: str, device: str):
    """The game at `kind`, and the page of the player who owes it."""
    who, actions = STEPS[kind]
    game = running_game(7, actions=actions, now=timezone.now())
    page = signed_in(browser, live_server.url, who, language=language, viewport=VIEWPORTS[device])
    page.goto(f"/games/{game.pk}/")
    return game, page


@pytest.mark.parametrize(("kind", "language", "device"), CASES)
def test_a_target_starts_on_nobody_and_confirm_alone_changes_nothing(browser, live_server, kind, language, device):
    game, page = owing(browser, live_server, kind, language, device)
    words = WORDS[language]
    select = page.locator(f"#target-{kind}")
    expect(select.locator("option:checked")).to_have_text(words["placeholder"])
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator(f"#panel form:has(#target-{kind})").get_by_role("button", name=words["confirm"]).click()
    assert select.evaluate("s => s.validationMessage") == words["first"]  # said in the page's language
    page.wait_for_timeout(300)
    assert asked == [] and page.url.endswith(f"/games/{game.pk}/")
    assert reload(game).action_count == len(STEPS[kind][1])  # nothing sent, nobody chosen
    page.context.close()


def seat(page, name: str):
    return page.locator(f'svg.table-svg g.seat[data-name="{name}"]')


def disc(page, name: str):
    """The seat's button, when it is one: its disc."""
    return seat(page, name).locator(".disc")


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_seat_on_the_board_chooses_the_target_by_mouse_or_keyboard(browser, live_server, language, device):
    game, page = owing(browser, live_server, "execute", language, device)
    words = WORDS[language]
    select = page.locator("#target-execute")
    expect(disc(page, "eve")).not_to_have_attribute("role", "button")  # eve executes: she is no target
    expect(disc(page, "eve")).not_to_have_attribute("tabindex", "0")
    board = page.locator("svg.table-svg")
    expect(board.get_by_role("button")).to_have_count(6)
    seat(page, "eve").click()
    expect(select).to_have_value("")  # a seat that is not a legal choice chooses nothing
    board.get_by_role("button", name=f"{words['choose']} gus").click()
    expect(select).to_have_value("gus")
    expect(disc(page, "gus")).to_have_attribute("aria-pressed", "true")
    disc(page, "fay").focus()
    page.keyboard.press("Enter")
    expect(select).to_have_value("fay")
    expect(disc(page, "gus")).to_have_attribute("aria-pressed", "false")
    disc(page, "dan").focus()
    page.keyboard.press("Space")
    expect(select).to_have_value("dan")
    select.select_option("cat")  # and the other way: the select's choice shows on the board
    expect(disc(page, "cat")).to_have_attribute("aria-pressed", "true")
    seat(page, "bob").click()
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#panel").get_by_role("button", name=words["confirm"]).click()
    expect(page.locator("ul.messages")).to_contain_text(words["executed"].format("bob"))
    assert reload(game).load_state().seats[1].status == "dead"
    expect(page.locator("svg.table-svg").get_by_role("button")).to_have_count(0)  # nothing more to choose
    page.context.close()


def test_without_javascript_seats_are_a_drawing_and_the_select_still_works(browser, live_server):
    game = running_game(7, actions=TO_INVESTIGATE, now=timezone.now())
    page = signed_in(browser, live_server.url, "bob", language="es", java_script_enabled=False)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("svg.table-svg [role=button]")).to_have_count(0)
    page.locator("#target-investigate").select_option("cat")
    page.locator("#panel").get_by_role("button", name="Confirmar").click()
    page.locator("main").get_by_role("button", name="Confirmar").click()  # the server's page asks
    expect(page.locator("ul.messages")).to_contain_text("cat")
    assert reload(game).load_state().step != "investigate"
    page.context.close()


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_t2_a_double_click_on_confirm_asks_once_and_moves_once(browser, live_server, language, device):
    game, page = owing(browser, live_server, "nominate", language, device)
    page.locator("#target-nominate").select_option("cat")
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator("#panel").get_by_role("button", name=WORDS[language]["confirm"]).dblclick()
    expect(page.locator("ul.messages")).to_contain_text("cat")
    page.wait_for_timeout(500)
    assert len(asked) == 1, asked
    assert reload(game).action_count == 1
    assert re.search(r"\bcat\b", asked[0])
    page.context.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_seat_tapped_on_a_phone_brings_the_choice_and_its_confirm_into_view(browser, live_server, language):
    _game, page = owing(browser, live_server, "execute", language, "phone")
    in_view = "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    board = page.locator("svg.table-svg")
    board.scroll_into_view_if_needed()
    confirm = page.locator("#panel form:has(#target-execute)").get_by_role("button", name=WORDS[language]["confirm"])
    assert not confirm.evaluate(in_view)  # the panel is above the board, off the screen
    board.get_by_role("button", name=f"{WORDS[language]['choose']} gus").click()
    expect(page.locator("#target-execute")).to_have_value("gus")
    page.wait_for_function(f"() => ({in_view})(document.querySelector('#target-execute'))")
    assert confirm.evaluate(in_view) and page.locator("#target-execute").evaluate(in_view)
    page.context.close()
