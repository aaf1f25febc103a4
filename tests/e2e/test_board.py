"""The board (issue 12): the table drawn from the public view, on a phone and a desktop, with no inline style
(the CSP would refuse it: Chromium says so on its console) and every role at the end."""

import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.services import cancel
from tests.e2e.pages import signed_in
from tests.factories import governments, make_user, running_game

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
# Four fascist policies (a peek, then an execution): ann is executed; eve, elected after three, is not Hitler.
PLAYED = [*governments(("ann", "bob"), ("bob", "cat"), ("cat", "dan"), ("dan", "eve")),
          {"type": "execute", "by": "dan", "target": "ann"}]  # fmt: skip


def seat(page, name: str):
    return page.locator("svg.table-svg g.seat", has=page.locator("text.seat-name", has_text=name))


@pytest.mark.parametrize("width", [360, 1280])
def test_r10_r16_r23_the_table_shows_government_term_limits_dead_and_not_hitler(browser, live_server, width):
    game = running_game(now=timezone.now(), actions=PLAYED)
    page = signed_in(browser, live_server.url, "watcher", viewport={"width": width, "height": 800})
    refused = []
    page.on("console", lambda message: refused.append(message.text) if message.type == "error" else None)
    page.goto(f"/games/{game.pk}/")
    board = page.locator("svg.table-svg")
    expect(board).to_be_visible()
    expect(board.locator("g.seat")).to_have_count(5)
    expect(seat(page, "ann")).to_have_class(re.compile(r"\bdead\b"))
    expect(seat(page, "ann").locator("path.cross")).to_have_count(1)
    expect(seat(page, "eve")).to_have_class(re.compile(r"\bpresident\b"))  # round 5's candidate
    expect(seat(page, "eve").locator("g.mark-p")).to_have_text("P")
    expect(seat(page, "eve").locator("g.mark-tl")).to_have_count(1)  # the last chancellor
    expect(seat(page, "eve").locator("g.mark-ok")).to_have_count(1)  # chancellor elected after three fascist laws
    expect(seat(page, "dan").locator("g.mark-ok")).to_have_count(0)  # elected after two
    box = board.bounding_box()
    assert box["width"] <= width and box["x"] >= 0
    name_height = seat(page, "eve").locator("text.seat-name").bounding_box()["height"]
    assert name_height >= 12, f"names {name_height}px high are not readable"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert [text for text in refused if "Content Security Policy" in text] == []
    SCREENSHOTS.mkdir(exist_ok=True)
    page.locator("#status").screenshot(path=SCREENSHOTS / f"board-{width}.png")
    page.context.close()


def test_r27_at_the_end_every_role_is_on_the_table(browser, live_server):
    game = running_game(now=timezone.now(), actions=PLAYED)
    cancel(game.pk, make_user("zoe"))
    page = signed_in(browser, live_server.url, "watcher")
    page.goto(f"/games/{game.pk}/")
    roles = {"ann": "liberal", "bob": "fascist", "cat": "hitler", "dan": "liberal", "eve": "liberal"}
    for name, role in roles.items():
        expect(seat(page, name)).to_have_class(re.compile(rf"\brole-{role}\b"))
    expect(seat(page, "cat").locator("text.seat-number")).to_have_text("H")
    page.context.close()


SLOT_ROWS = """() => [...document.querySelectorAll('.track.fascist-track .slot')].map(slot => {
  const box = slot.getBoundingClientRect();
  return {top: Math.round(box.top), right: box.right, fits: slot.scrollWidth <= slot.clientWidth + 1};
})"""


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_fascist_track_keeps_its_six_slots_on_one_row_at_every_width(browser, live_server, language):
    game = running_game(7, now=timezone.now())  # investigate, special election, execution twice, then the win
    page = signed_in(browser, live_server.url, "watcher", language=language)
    for width in (1280, 1024, 768, 390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        page.goto(f"/games/{game.pk}/")
        slots = page.evaluate(SLOT_ROWS)
        assert len(slots) == 6
        assert {slot["top"] for slot in slots} == {slots[0]["top"]}, f"the track wraps at {width} px: {slots}"
        assert all(slot["fits"] for slot in slots), f"a power's name overflows its slot at {width} px"
        assert slots[-1]["right"] <= width and page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        SCREENSHOTS.mkdir(exist_ok=True)
        page.locator("#status .fascist-track").screenshot(path=SCREENSHOTS / f"fascist-track-{language}-{width}.png")
    page.context.close()


COVERED = """seat => {
  const letter = seat.querySelector('text.seat-number').getBoundingClientRect();
  const x = letter.left + letter.width / 2, y = letter.top + letter.height / 2;
  return document.elementFromPoint(x, y).closest('text.seat-number') === null;
}"""


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("width", [390, 1280])
def test_r27_an_executed_player_s_role_letter_reads_over_the_cross(browser, live_server, language, width):
    game = running_game(now=timezone.now(), actions=PLAYED)  # ann, a liberal, executed
    cancel(game.pk, make_user("zoe"))
    page = signed_in(browser, live_server.url, "watcher", language=language, viewport={"width": width, "height": 844})
    page.goto(f"/games/{game.pk}/")
    ann = seat(page, "ann")
    expect(ann.locator("path.cross")).to_have_count(1)
    expect(ann.locator("text.seat-number")).to_have_text("L")
    executed, liberal = ("executed", "Liberal") if language == "en" else ("exécuté", "Libéral")
    expect(ann.locator("title")).to_have_text(f"ann — {liberal} ({executed})")
    ann.scroll_into_view_if_needed()
    assert not ann.evaluate(COVERED), "the cross is drawn over the role's letter"
    SCREENSHOTS.mkdir(exist_ok=True)
    ann.screenshot(path=SCREENSHOTS / f"executed-seat-{language}-{width}.png")
    page.context.close()


SEAT_BOXES = """() => [...document.querySelectorAll('svg.table-svg g.seat .disc')].map(disc => {
  const box = disc.getBoundingClientRect();
  return [box.left, box.top, box.right, box.bottom];
})"""


@pytest.mark.parametrize("language", ["fr", "es", "pl"])
def test_the_seats_sit_around_the_table_in_a_language_with_decimal_commas(browser, live_server, language):
    game = running_game(7, now=timezone.now())
    page = signed_in(browser, live_server.url, "watcher", language=language)
    page.goto(f"/games/{game.pk}/")
    for transform in page.locator("svg.table-svg g.seat").evaluate_all(
        "seats => seats.map(s => s.getAttribute('transform'))"
    ):
        assert re.fullmatch(r"translate\(-?[\d.]+ -?[\d.]+\)", transform), transform
    boxes = page.evaluate(SEAT_BOXES)
    overlapping = [
        (a, b)
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    ]
    assert overlapping == [], "seats drawn on top of each other"
    page.context.close()
