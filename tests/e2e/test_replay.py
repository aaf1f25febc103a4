"""Issue 31: a finished game's replay in Chromium: one step shown at a time; first, previous, next, last; the slider;
the arrow, Home and End keys; a link to a step (#step-N) that opens there, on another round's page too; a phone's
width with nothing wider than the screen; no inline script or style the CSP refuses; and without JavaScript, the
round's steps one under another."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.management.commands.demo import FINISHED
from games.replay import moments
from games.services.transfer import export_script, import_script
from tests.factories import SHARED_SCENARIOS

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished():
    game = import_script(json.loads((SHARED_SCENARIOS / "liberal-policies-win.json").read_text()), name="Replayed")
    found = moments(export_script(game))
    rounds = {}
    for moment in found:  # each step in the round its move was made in
        rounds.setdefault(found[max(0, moment.number - 1)].public["round"], []).append(moment.number)
    return game, len(found) - 1, rounds


def shown(page) -> list[str]:
    return page.locator(".replay-step:visible").evaluate_all("sections => sections.map(s => s.id)")


def opened(browser, live_server, **options):
    context = browser.new_context(base_url=live_server.url, **{"viewport": {"width": 1280, "height": 900}, **options})
    context.set_default_timeout(10_000)
    page = context.new_page()
    refused = []
    page.on("console", lambda message: refused.append(message.text) if message.type == "error" else None)
    return page, refused


def test_stepping_with_the_links_the_slider_and_the_keys(browser, live_server, finished):
    game, last, rounds = finished
    page, refused = opened(browser, live_server)
    page.goto(f"/games/{game.pk}/replay/")
    assert shown(page) == ["step-0"]
    expect(page.locator("#replay-at")).to_have_text(f"Step 0 of {last}")
    page.get_by_role("link", name="Next", exact=True).click()
    assert shown(page) == ["step-1"] and page.url.endswith("#step-1")
    page.keyboard.press("ArrowRight")
    assert shown(page) == ["step-2"]
    page.evaluate("window.location.hash = '#content'")  # another anchor (the skip link's) leaves the step be
    assert shown(page) == ["step-2"]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert shown(page) == ["step-0"]
    page.keyboard.press("ArrowLeft")  # nothing before the deal
    assert shown(page) == ["step-0"]
    after_round_one = rounds[1][-1] + 1
    page.locator("#replay-slider").fill(str(after_round_one))  # a step of round 2: that round's page
    page.wait_for_url(re.compile(rf"\?step={after_round_one}#step-{after_round_one}$"))
    assert shown(page) == [f"step-{after_round_one}"]
    page.keyboard.press("ArrowLeft")  # back across the rounds' border
    page.wait_for_url(re.compile(rf"#step-{after_round_one - 1}$"))
    assert shown(page) == [f"step-{after_round_one - 1}"]
    page.keyboard.press("End")
    page.wait_for_url(re.compile(rf"#step-{last}$"))
    assert shown(page) == [f"step-{last}"]
    expect(page.locator("#replay-at")).to_have_text(f"Step {last} of {last}")
    expect(page.locator(f"#step-{last}")).to_contain_text("The liberals win")
    page.get_by_role("link", name="First", exact=True).click()
    page.wait_for_url(re.compile(r"#step-0$"))
    assert shown(page) == ["step-0"]
    assert [text for text in refused if "Content Security Policy" in text] == []
    page.context.close()


def test_a_link_to_a_step_opens_there_on_a_phone(browser, live_server, finished):
    game, _last, rounds = finished
    deep = rounds[max(rounds)][0]  # the last round's first step: not on the first page
    page, refused = opened(browser, live_server, viewport={"width": 390, "height": 844})
    page.goto(f"/games/{game.pk}/replay/#step-{deep}")
    page.wait_for_url(re.compile(rf"\?step={deep}#step-{deep}$"))
    assert shown(page) == [f"step-{deep}"]
    expect(page.locator(f"#step-{deep} svg.table-svg")).to_be_visible()
    expect(page.locator(f"#step-{deep} svg.table-svg g.role-hitler")).to_have_count(1)  # every role, every step
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.keyboard.press("ArrowRight")
    assert shown(page) == [f"step-{deep + 1}"]
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "replay-390.png", full_page=False)
    assert [text for text in refused if "Content Security Policy" in text] == []
    page.context.close()


def test_the_demos_finished_game_steps_from_its_first_to_its_last_step(browser, live_server):
    game = import_script(FINISHED, name="Demo: finished")
    last = len(moments(export_script(game))) - 1
    page, refused = opened(browser, live_server)
    page.goto(f"/games/{game.pk}/replay/")
    for number in range(last + 1):
        page.wait_for_url(re.compile(rf"#step-{number}$"))
        assert shown(page) == [f"step-{number}"]
        expect(page.locator("#replay-at")).to_have_text(f"Step {number} of {last}")
        page.keyboard.press("ArrowRight")
    assert shown(page) == [f"step-{last}"]  # nothing after the end
    expect(page.locator(f"#step-{last}")).to_contain_text(re.compile("The (liberals|fascists) win"))
    assert [text for text in refused if "Content Security Policy" in text] == []
    page.context.close()


def test_without_javascript_a_page_shows_its_rounds_steps(browser, live_server, finished):
    game, last, rounds = finished
    page, _refused = opened(browser, live_server, java_script_enabled=False)
    page.goto(f"/games/{game.pk}/replay/")
    assert shown(page) == [f"step-{number}" for number in rounds[1]]
    page.get_by_role("link", name="Next round").click()
    assert shown(page) == [f"step-{number}" for number in rounds[2]]
    page.locator("#replay-slider").fill(str(last))
    page.get_by_role("button", name="Show this step").click()
    page.wait_for_url(re.compile(rf"\?step={last}$"))
    expect(page.locator(f"#step-{last}")).to_be_visible()
    page.context.close()


def test_no_round_page_of_a_game_with_every_power_logs_a_csp_refusal(browser, live_server):
    """A 10-player game played to its end at random (investigations, special elections, executions, vetoes):
    every round's page, stepped through to its last step, logs nothing the Content-Security-Policy refused."""
    from tests.factories import played_to_the_end

    game = import_script(played_to_the_end(10, seed=10), name="Every power")
    found = moments(export_script(game))
    page, refused = opened(browser, live_server)
    for number in range(0, len(found), 7):
        page.goto(f"/games/{game.pk}/replay/?step={number}#step-{number}")
        expect(page.locator(f"#step-{number}")).to_be_visible()
    assert [text for text in refused if "Content Security Policy" in text] == []
    page.context.close()
