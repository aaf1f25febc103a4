"""The smaller things new users found wrong (issue 41), in Chromium, in English on a desktop and Spanish on a phone
(a Spanish wording on both): the calendar feed is in its owner's language, and its first address replaces none; the
replay tells what a president discarded in the third person, labels a veto with the round it was made in, opens its
last step for a step past it and logs no error; the new-game form's browser refuses what the server refuses, lists
each time zone once among real ones, and keeps its visibility choice on a phone's screen; the new API token's
label keeps its colon; the language menu names each language in its own words; a substitute is not told they have a
seat; a reader recently exiled is told the game refuses them, not shown a Join button; the election tracker going
back to 0 under the house rule and an exile after missed rounds are announced with their reason; a profile with a
finished game does not say it has none; the Spanish rules page calls the peek by one name."""

import json
from pathlib import Path
from urllib.parse import urlsplit

import icalendar
import pytest
from django.utils import timezone, translation
from playwright.sync_api import Page, expect

from games.models import Game, Profile, Seat
from games.replay import moments
from games.services.transfer import export_script, import_script
from tests.e2e.pages import VIEWPORTS, said, signed_in
from tests.factories import SHARED_SCENARIOS, finished_game, make_user, running_game, votes
from tests.games.helpers import user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
BOTH = [("en", "desktop"), ("es", "phone")]
SPANISH = [("es", "desktop"), ("es", "phone")]


def scenario(path: Path, *, finish: bool = False) -> Game:
    """The game a scenario's script plays, its current step started now; cancelled at its end if `finish` (only a
    finished game has a replay)."""
    script = json.loads(path.read_text())
    script.pop("expect", None)
    if finish:
        script["actions"].append({"type": "cancel"})
    return import_script(script, now=timezone.now())


def visiting(browser, live_server, language: str, device: str) -> tuple[Page, list[str]]:
    """A visitor's page reading `language` on `device`, and the errors its console and scripts report."""
    context = browser.new_context(base_url=live_server.url, viewport=VIEWPORTS[device])
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": language})
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


def said_of(language: str, context: str, text: str) -> str:
    """`text` in `context` as the site says it in `language`."""
    with translation.override(language):
        return translation.pgettext(context, text)


# Bug 8, and bug 13's first calendar address


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_the_calendar_feed_speaks_its_owners_language_and_its_first_address_replaces_none(
    browser, live_server, language, device
):
    game = running_game(now=timezone.now())  # ann nominates: cat will owe a ballot
    page = signed_in(browser, live_server.url, "cat", language=language, viewport=VIEWPORTS[device])
    Profile.objects.filter(user=user("cat")).update(language=language)
    page.goto("/profile/")
    page.get_by_role("button", name=said(language, "Make my calendar address")).click()
    replaced = said(language, "Your calendar has a new secret address; the old one no longer works.")
    expect(page.locator(".messages")).to_contain_text(
        said(language, "Your calendar has its secret address: add it to your calendar app.")
    )
    expect(page.locator(".messages")).not_to_contain_text(replaced)
    address = page.get_by_label(said(language, "Calendar address")).input_value()
    other = "es" if language == "en" else "en"  # what a calendar app asks for does not matter: the feed is cat's
    feed = page.request.get(urlsplit(address).path, headers={"Accept-Language": other})
    summaries = [str(event["summary"]) for event in icalendar.Calendar.from_ical(feed.body()).walk("VEVENT")]
    owed = said(language, "vote on the government")
    assert summaries == [f"{game.name}: {owed}"]
    page.get_by_role("button", name=said(language, "Replace the address (the old one stops working)")).click()
    expect(page.locator(".messages")).to_contain_text(replaced)
    assert page.request.get(urlsplit(address).path).status == 404
    page.context.close()


# Bugs 11 and 13: the replay


@pytest.mark.parametrize(("language", "device"), [*SPANISH, ("en", "desktop")])
def test_the_replay_tells_what_the_president_discarded_in_the_third_person(browser, live_server, language, device):
    game = import_script(json.loads((SHARED_SCENARIOS / "liberal-policies-win.json").read_text()))
    last = len(moments(export_script(game))) - 1
    page, _errors = visiting(browser, live_server, language, device)
    page.goto(f"/games/{game.pk}/replay/?step={last}")
    sessions = page.locator(f"#step-{last} .replay-secrets")
    expect(sessions).to_contain_text(said_of(language, "what the president did, told of them", "discarded"))
    if language != "en":  # in English the president's "discarded" and the player's are one word
        expect(sessions).not_to_contain_text(said(language, "discarded"))  # "descartaste": the panel's, to its player
    page.context.close()


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_a_step_past_the_last_opens_the_last_and_the_replay_logs_no_error(browser, live_server, language, device):
    game = scenario(SHARED_SCENARIOS / "liberal-policies-win.json")
    last = len(moments(export_script(game))) - 1
    page, errors = visiting(browser, live_server, language, device)
    assert page.goto(f"/games/{game.pk}/replay/?step=999").status == 200
    expect(page.locator("#replay-at")).to_have_text(said(language, "Step %(step)s of %(last)s", step=last, last=last))
    expect(page.locator(f"#step-{last}")).to_be_visible()
    page.keyboard.press("Home")  # the replay's script at work, under the page's CSP
    expect(page.locator("#step-0")).to_be_visible()
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_r19_a_veto_is_shown_in_the_round_it_was_made_in(browser, live_server, language, device):
    game = scenario(SCENARIOS / "r19-veto-accepted-tracker-and-reshuffle.json", finish=True)
    found = moments(export_script(game))
    [vetoed] = [moment for moment in found if moment.action and moment.action["type"] == "veto_reply"]
    made_in = found[vetoed.number - 1].public["round"]
    assert vetoed.public["round"] == made_in + 1  # the accepted veto ended its round
    page, _errors = visiting(browser, live_server, language, device)
    page.goto(f"/games/{game.pk}/replay/?step={vetoed.number}")
    heading = said(language, "Step %(step)s of %(last)s, round %(round)s", step=vetoed.number, last=len(found) - 1,
                   round=made_in)  # fmt: skip
    expect(page.locator(f"#step-{vetoed.number}-title")).to_have_text(heading)
    page.context.close()


# Bug 12: the new-game form


def new_game_form(browser, live_server, language: str, device: str) -> Page:
    page = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[device])
    page.goto("/games/new/")
    page.locator("#id_name").fill("Tuesday table")
    return page


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_a_duration_under_an_hour_is_refused_by_the_browser_as_by_the_server(browser, live_server, language, device):
    page = new_game_form(browser, live_server, language, device)
    for name in ("nomination", "election", "discard", "legislative", "power", "execution_vote"):
        expect(page.locator(f"#id_{name}_hours")).to_have_attribute("min", "1")  # the server's least
    hours = page.locator("#id_discard_hours")
    hours.fill("0")
    page.get_by_role("button", name=said(language, "Open the game for sign-ups")).click()
    assert hours.evaluate("field => field.validity.rangeUnderflow")  # the browser keeps the form
    assert urlsplit(page.url).path == "/games/new/" and not Game.objects.filter(name="Tuesday table").exists()
    page.locator("main form.card").evaluate("form => { form.noValidate = true; }")  # a browser that does not check
    with page.expect_response(lambda response: response.request.method == "POST") as sent:
        page.get_by_role("button", name=said(language, "Open the game for sign-ups")).click()
    assert sent.value.status == 200
    expect(page.locator("main")).to_contain_text(said(language, "A duration is at least one hour."))
    page.context.close()


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_the_zones_are_real_places_each_once_and_the_visibility_choice_fits_the_screen(
    browser, live_server, language, device
):
    page = new_game_form(browser, live_server, language, device)
    zones = page.locator("select[name=time_zone] option").evaluate_all("options => options.map(o => o.value)")
    assert zones.count("UTC") == 1 and "localtime" not in zones and "Factory" not in zones
    common = page.locator(f'select[name=time_zone] optgroup[label="{said(language, "Common time zones")}"] option')
    assert "Europe/Madrid" in common.evaluate_all("options => options.map(o => o.value)")
    expect(common.filter(has_text="Africa/Abidjan")).to_have_count(0)
    width = VIEWPORTS[device]["width"]
    for part in (page.locator("#id_visibility"), *page.locator("#id_visibility label").all()):
        box = part.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    page.context.close()


# Bug 13's smaller things


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_the_new_token_s_label_keeps_its_colon_on_its_line(browser, live_server, language, device):
    page = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[device])
    page.goto("/profile/tokens/")
    page.locator("#id_name").fill("my bot")
    page.get_by_role("button", name=said(language, "Make the token")).click()
    label = page.locator("label[for=new-token]")
    expect(label).to_have_text(said(language, "Your new token") + ":")
    assert label.evaluate("label => label.getClientRects().length") == 1  # one line: no ":" left on its own
    page.context.close()


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_the_language_menu_names_each_language_in_its_own_words(browser, live_server, language, device):
    page, _errors = visiting(browser, live_server, language, device)
    page.goto("/")
    expect(page.locator("#language-choice option")).to_have_text(["English", "Français", "Español", "Polski"])
    page.context.close()


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_e5_a_substitute_is_not_told_they_have_a_seat(browser, live_server, language, device):
    game = running_game(now=timezone.now())
    page = signed_in(browser, live_server.url, "zed", language=language, viewport=VIEWPORTS[device])
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("button", name=said(language, "Sign up as a substitute")).click()
    told = page.locator(".messages")
    expect(told).to_contain_text(
        said(language, "You are a substitute: if a seat is given up, the first substitute takes it.")
    )
    expect(told).not_to_contain_text(said(language, "You are in."))
    page.context.close()


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_e6_a_recently_exiled_reader_is_told_the_game_refuses_them_and_shown_no_join_button(
    browser, live_server, language, device
):
    old = running_game()
    Seat.objects.create(game=old, user=make_user("zed"), name="zed", number=5, active=False, exiled_at=old.started_at)
    game = running_game(now=timezone.now())
    Game.objects.filter(pk=game.pk).update(exile_lookback_games=3)
    page = signed_in(browser, live_server.url, "zed", language=language, viewport=VIEWPORTS[device])
    page.goto(f"/games/{game.pk}/")
    refused = said(language, "This game refuses players exiled in any of their last %(count)s games.", count=3)
    expect(page.locator("main")).to_contain_text(refused)
    expect(page.get_by_role("button", name=said(language, "Sign up as a substitute"))).to_have_count(0)
    expect(page.get_by_role("button", name=said(language, "Join as a player"))).to_have_count(0)
    page.context.close()


def thread_entries(browser, live_server, game: Game, language: str, device: str):
    page, _errors = visiting(browser, live_server, language, device)
    page.goto(f"/games/{game.pk}/")
    return page.locator("#entries")


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_r15_variant_the_tracker_going_back_to_0_on_an_election_is_announced(browser, live_server, language, device):
    everyone = ("ann", "bob", "cat", "dan", "eve")
    failed = [{"type": "nominate", "by": "ann", "target": "bob"}, *votes(*everyone, ballot="nein")]
    elected = [{"type": "nominate", "by": "bob", "target": "cat"}, *votes(*everyone)]
    game = running_game(actions=failed + elected, now=timezone.now(), tracker_resets_on_election=True)
    entries = thread_entries(browser, live_server, game, language, device)
    expect(entries).to_contain_text(
        said(language, "A government was elected: the election tracker goes back to 0 (this game's rule).")
    )
    entries.page.context.close()


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_e3_an_exile_after_missed_rounds_says_why(browser, live_server, language, device):
    game = scenario(SCENARIOS / "e3-two-misses-exiled-seat-leaves-play.json")
    entries = thread_entries(browser, live_server, game, language, device)
    missed = (
        "%(player)s missed a round: %(missed_rounds)s in a row, counting only the rounds in which they owed a move."
    )
    exiled = "%(player)s is exiled from the game: two rounds missed in a row."
    expect(entries).to_contain_text(said(language, missed, player="dan", missed_rounds=1))
    expect(entries).to_contain_text(said(language, exiled, player="dan"))
    entries.page.context.close()


@pytest.mark.parametrize(("language", "device"), BOTH)
def test_a_profile_with_a_finished_game_counts_it(browser, live_server, language, device):
    finished_game()
    page, _errors = visiting(browser, live_server, language, device)
    page.goto("/users/ann/")
    played = page.locator("section[aria-labelledby=played-title]")
    expect(played).to_contain_text(said(language, "As a liberal"))
    expect(played).not_to_contain_text(said(language, "No finished game yet."))
    page.context.close()


@pytest.mark.parametrize(("language", "device"), SPANISH)
def test_the_spanish_rules_page_calls_the_peek_by_one_name(browser, live_server, language, device):
    game = running_game(now=timezone.now())
    page, _errors = visiting(browser, live_server, language, device)
    page.goto(f"/games/{game.pk}/rules/")
    rules = page.locator("main")
    expect(rules).to_contain_text(
        said(language, "Peek: the president alone sees the top three policies of the draw pile, in order.")
    )
    expect(rules).not_to_contain_text("Espiar")  # the other name it was given
    page.context.close()
