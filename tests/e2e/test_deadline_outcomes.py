"""Issue 29, in Chromium: a moderator ends a discard deadline and the thread reads it as the deadline's doing, in
order, the card never named; the ballot that closes the vote says so, with the result. In English on a desktop and
in another language on a phone."""

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from games.services import cancel
from tests.e2e.pages import DESKTOP, PHONE, said, second_factor_used, signed_in
from tests.factories import NAMES, make_user, running_game, votes

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEEN = [("en", DESKTOP), ("fr", PHONE)]
ELECTED = [{"type": "nominate", "by": "ann", "target": "bob"}, *votes(*NAMES[:5])]


@pytest.mark.parametrize(("language", "viewport"), SEEN)
def test_t4_t5_a_moderator_ends_a_discard_deadline_and_the_thread_says_the_deadline_discarded(
    browser, live_server, language, viewport
):
    game = running_game(now=timezone.now(), actions=ELECTED)
    moderator = make_user("zoe")
    moderator.groups.add(Group.objects.get(name="moderators"))
    zoe = second_factor_used(signed_in(browser, live_server.url, "zoe", language=language, viewport=viewport), "zoe")
    zoe.goto(f"/moderation/games/{game.pk}/")
    zoe.get_by_role("button", name=said(language, "I understand: show me the secrets")).click()  # the warning first
    zoe.locator("#reason-end_now").fill("ann is away")
    zoe.get_by_role("button", name=said(language, "End the current deadline now")).click()
    expect(zoe.locator("ul.messages")).to_have_count(1)

    eve = signed_in(browser, live_server.url, "eve", language=language, viewport=viewport)
    eve.goto(f"/games/{game.pk}/")
    entries = eve.locator(".entry.announcement")
    ended = said(language, "A moderator ended the current deadline now.")
    outcome = said(
        language,
        "The deadline passed: %(president)s did not discard, so a random policy was discarded; the other two go "
        "to the chancellor.",
        president="ann",
    )
    expect(entries.filter(has_text=outcome)).to_have_count(1)
    texts = entries.all_inner_texts()
    (ended_at,) = [index for index, text in enumerate(texts) if ended in text]
    (outcome_at,) = [index for index, text in enumerate(texts) if outcome in text]
    assert ended_at + 1 == outcome_at  # the moderator's word, then what it caused
    passes = said(language, "%(president)s passes two policies to the chancellor.", president="ann")
    assert not any(passes in text for text in texts)  # never as if ann chose

    cancel(game.pk, moderator)  # the game over, the secret history marks the random discard
    eve.goto(f"/games/{game.pk}/history/")
    expect(eve.locator("td .at-random")).to_have_text(said(language, "(at random: the deadline passed)"))
    zoe.context.close()
    eve.context.close()


@pytest.mark.parametrize(("language", "viewport"), [("en", DESKTOP), ("pl", PHONE)])
def test_t1_the_ballot_that_closes_the_vote_says_the_vote_closed_and_its_result(
    browser, live_server, language, viewport
):
    game = running_game(now=timezone.now(), actions=[ELECTED[0], *votes("ann", "bob", "cat", "dan")])
    eve = signed_in(browser, live_server.url, "eve", language=language, viewport=viewport)
    eve.goto(f"/games/{game.pk}/")
    eve.locator("#panel").get_by_role("button", name="Nein").click()
    message = eve.locator("ul.messages")
    expect(message).to_contain_text(
        said(language, "Your ballot is Nein. Every living player has voted: the vote is closed.")
    )
    expect(message).to_contain_text(said(language, "The government is elected."))
    expect(message).to_contain_text("(4 Ja, 1 Nein)")
    expect(message).not_to_contain_text(said(language, "Your ballot is Nein. You may change it until the vote closes."))
    eve.context.close()
