"""The table as players live it (issue 11), in Chromium: what a first game showed, and what players expect."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Absence
from tests.e2e.pages import signed_in
from tests.factories import NAMES, governments, running_game, votes
from tests.games.helpers import reload

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_t2_the_browser_asks_before_a_nomination_and_no_does_nothing(browser, live_server):
    game = running_game(now=timezone.now())
    page = signed_in(browser, live_server.url, "ann")
    page.goto(f"/games/{game.pk}/")
    page.locator("#target-nominate").select_option("cat")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.locator("#panel").get_by_role("button", name="Confirm").click()
    expect(page.locator("#target-nominate")).to_be_visible()
    assert asked == ["Nominate cat as chancellor? This cannot be undone."]
    assert reload(game).action_count == 0  # "no" sent nothing
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#panel").get_by_role("button", name="Confirm").click()
    expect(page.locator("ul.messages")).to_contain_text("You nominated cat as chancellor.")
    assert reload(game).action_count == 1
    page.context.close()


def test_t2_without_javascript_a_page_asks_in_the_players_language(browser, live_server):
    nominated = [{"type": "nominate", "by": "ann", "target": "bob"}, *votes(*NAMES[:5])]
    game = running_game(now=timezone.now(), actions=nominated)
    page = signed_in(browser, live_server.url, "ann", language="fr", java_script_enabled=False)
    page.goto(f"/games/{game.pk}/")
    page.locator("#panel").get_by_role("button", name="Défausser une loi fasciste").first.click()
    question = "Défausser une loi fasciste\u00a0? Les deux autres vont au chancelier."
    expect(page.locator("main")).to_contain_text(question)
    assert reload(game).load_state().step == "discard"  # the question changed nothing
    page.get_by_role("button", name="Confirmer").click()
    expect(page.locator("ul.messages")).to_contain_text("Vous avez défaussé une loi fasciste.")
    assert reload(game).load_state().step == "enact"
    page.context.close()


def test_a_post_is_previewed_then_posted(browser, live_server):
    game = running_game(now=timezone.now())
    page = signed_in(browser, live_server.url, "cat")
    page.goto(f"/games/{game.pk}/")
    page.locator("#id_body").fill("I trust **@bob.** Ja!")
    page.get_by_role("button", name="Preview").click()
    preview = page.locator(".entry.preview")
    expect(preview.locator("strong a")).to_have_text("@bob")  # a mention before a full stop, inside bold
    expect(page.locator("#id_body")).to_have_value("I trust **@bob.** Ja!")
    assert not game.posts.exists()
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.locator("article.post .body").last).to_contain_text("I trust @bob. Ja!")
    assert game.posts.count() == 1
    page.context.close()


def test_claims_are_picked_from_buttons_and_conflicts_are_marked(browser, live_server):
    game = running_game(now=timezone.now(), actions=governments(("ann", "bob")))
    ann = signed_in(browser, live_server.url, "ann")
    ann.goto(f"/games/{game.pk}/")
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.locator("#panel button[name=cards][value=FFF]").click()
    expect(ann.locator("ul.messages")).to_contain_text("Your claim is on the record.")
    expect(ann.locator("#panel")).to_contain_text("you claimed you drew FFF")
    bob = signed_in(browser, live_server.url, "bob", viewport={"width": 390, "height": 800})
    bob.goto(f"/games/{game.pk}/")
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.locator("#panel button[name=cards][value=LL]").click()  # a fascist policy was enacted
    conflict = bob.locator("#history tr.conflict")
    expect(conflict).to_have_count(1)
    expect(conflict.locator("p.conflict")).to_have_count(2)  # ann passed no liberal; bob enacted a fascist
    for page in (ann, bob):
        page.context.close()


def test_e4_absences_announced_listed_withdrawn_and_a_vacation_in_every_game(browser, live_server):
    first, second = running_game(now=timezone.now()), running_game(now=timezone.now())
    page = signed_in(browser, live_server.url, "ann", timezone_id="America/New_York")
    page.goto("/")  # the browser's zone becomes the new profile's (the tz cookie)
    page.goto(f"/games/{first.pk}/")
    page.locator("#absences summary").click()
    expect(page.locator("#absences")).to_contain_text("Dates and times in your time zone: America/New_York")
    start = timezone.localtime(timezone.now() + timedelta(days=3), ZoneInfo("America/New_York"))
    page.locator("#away-from").fill(start.strftime("%Y-%m-%dT09:00"))
    page.locator("#away-to").fill((start + timedelta(days=1)).strftime("%Y-%m-%dT18:00"))
    page.get_by_role("button", name="Announce", exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text("Your absence is announced")
    listed = page.locator("#absences ul.absences li")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("09:00")  # shown in the zone it was typed in
    listed.get_by_role("button", name="Withdraw").click()
    expect(page.locator("ul.messages")).to_contain_text("Your absence is withdrawn.")
    expect(page.locator("#absences ul.absences")).to_have_count(0)

    page.locator("#absences summary").click()
    page.get_by_role("link", name="Away from all your games? Announce it in all of them at once.").click()
    page.locator("#id_starts_at").fill(start.strftime("%Y-%m-%dT09:00"))
    page.locator("#id_ends_at").fill((start + timedelta(days=10)).strftime("%Y-%m-%dT09:00"))  # over the 7-day cap
    page.get_by_role("button", name="Announce in all my games").click()
    results = page.locator("ul.results li")
    expect(results).to_have_count(2)
    expect(results.first).to_contain_text("refused — Absences in this game may last 7 days in all")
    page.locator("#id_ends_at").fill((start + timedelta(days=2)).strftime("%Y-%m-%dT09:00"))
    page.get_by_role("button", name="Announce in all my games").click()
    expect(page.locator("ul.results li", has_text="announced")).to_have_count(2)
    assert set(Absence.objects.values_list("seat__game", flat=True)) == {first.pk, second.pk}
    page.context.close()
