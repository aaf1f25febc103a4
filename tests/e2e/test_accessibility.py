"""Every page type passes axe-core (the npm registry's package, injected into Debian's Chromium) with no serious or
critical violation, in English and French, on a desktop and a phone; and a round is played by keyboard alone.

The pages: the lobby, the new-game form, a game's thread with the panel of the player who owes each step's move
(nomination, ballot, discard, enactment, investigation, special election, execution, execution vote), the
sign-ups, the graveyard, the secret history, the rules, the confirmation page, the profile pages, the
notifications, the absences, the devices page, the offline page, every moderation page and the account pages (the
second factors' pages met on the way to setting one up are in tests/e2e/test_second_factor.py).
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games.models import PushDevice
from games.notify.webpush import new_private_key
from games.services import cancel, create_game
from games.services.forum import mark_read, post_message
from games.services.knowledge import record_witness
from games.services.transfer import import_script
from tests.conftest import _missing
from tests.e2e.pages import AXE, SERIOUS, second_factor_used, signed_in
from tests.factories import governments, make_user, played_to_the_end, running_game, votes

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEVEN = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
STEPS = ("nominate", "vote", "discard", "enact", "investigate", "special_election", "execute")
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def seven(*actions) -> object:
    return running_game(7, actions=list(actions), now=timezone.now(), execution_vote=True)


def nominate(president: str, chancellor: str) -> dict:
    return {"type": "nominate", "by": president, "target": chancellor}


def build_world() -> dict[str, list[str]]:
    """The pages to check, by who looks at them."""
    moderator = make_user("zoe")
    moderator.groups.add(Group.objects.get(name="moderators"))
    lobby = create_game(make_user("ann"), player_count=5, name="Open table")
    for seed in range(6):  # rated games: a leaderboard, ann's rating with its plot, ratings beside sign-ups
        import_script(played_to_the_end(5, seed), now=timezone.now() - timedelta(days=10 - seed), rated=True)
    # A 7-player game (investigate at 2, special election at 3, execution at 4) with the execution vote variant.
    to_investigate = [*governments(("ann", "bob"), ("bob", "cat"), players=7)]
    to_elect = [*to_investigate, {"type": "investigate", "by": "bob", "target": "ann"}]
    to_elect += governments(("cat", "dan"), players=7)
    elected = [*to_elect, {"type": "special_election", "by": "cat", "target": "eve"}]
    to_execute = [*elected, *governments(("eve", "fay"), players=7)]
    to_vote_execution = [*to_execute, {"type": "execute", "by": "eve", "target": "gus"}]
    nomination = seven()
    ballot = seven(nominate("ann", "bob"))
    discard = seven(nominate("ann", "bob"), *votes(*SEVEN))
    enact = seven(nominate("ann", "bob"), *votes(*SEVEN), {"type": "discard", "by": "ann", "policy": "F"})
    investigation = seven(*to_investigate)
    special = seven(*to_elect)
    execute = seven(*to_execute)
    execution_vote = seven(*to_vote_execution)
    finished = running_game(now=timezone.now())
    post_message(finished.pk, make_user("ann"), "Good game, **everyone**.")
    cancel(finished.pk, moderator)
    mark_read(make_user("eve"), execution_vote, "main", timezone.now() - timedelta(hours=1))
    post_message(execution_vote.pk, make_user("cat"), "I trust @dan.")  # eve's page: a "New posts" line above
    record_witness(execution_vote, moderator)  # past the warning there (issue 29); asked first on the nomination's
    PushDevice.objects.create(user=make_user("ann"), endpoint="https://push.example.org/1", p256dh="k", auth="a",
                              server_key="the site's key", browser="Firefox · Android",
                              created_at=timezone.now())  # fmt: skip
    pages = {
        None: ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", f"/games/{lobby.pk}/",
               f"/games/{lobby.pk}/rules/", f"/games/{finished.pk}/history/", f"/games/{finished.pk}/replay/",
               "/stats/", "/offline/", "/ratings/", "/ratings/how/"],
        "ann": ["/", "/games/new/", "/profile/", "/profile/absences/", "/profile/tokens/", "/notifications/",
                "/profile/devices/", "/accounts/2fa/", "/accounts/sessions/",
                "/users/ann/", f"/games/{nomination.pk}/", f"/games/{discard.pk}/"],
        "cat": [f"/games/{ballot.pk}/", f"/games/{special.pk}/"],
        "bob": [f"/games/{investigation.pk}/", f"/games/{enact.pk}/"],
        "eve": [f"/games/{execute.pk}/", f"/games/{execution_vote.pk}/"],
        "zed": [f"/games/{execution_vote.pk}/graveyard/"],  # a spectator reads the graveyard
        "zoe": ["/moderation/", f"/moderation/games/{execution_vote.pk}/", f"/moderation/games/{nomination.pk}/",
                "/moderation/reports/",
                "/moderation/users/", "/moderation/audit/"],
    }  # fmt: skip
    return pages


@pytest.fixture
def axe_source() -> str:
    if not AXE.exists():
        _missing(f"needs axe-core at {AXE}: make test installs it with npm (package-lock.json)")
    return AXE.read_text()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_no_serious_or_critical_accessibility_violation_on_any_page(
    browser, live_server, axe_source, settings, language, device
):
    settings.VAPID_PRIVATE_KEY = new_private_key()  # the devices page as a site that pushes shows it
    pages = build_world()
    found = {}

    def check(page, what: str) -> None:
        violations = page.evaluate(SERIOUS)
        if violations:
            found[f"{page.url} ({what})"] = violations

    for who, urls in pages.items():
        if who is None:
            context = browser.new_context(base_url=live_server.url, viewport=VIEWPORTS[device])
            page = context.new_page()
            page.set_extra_http_headers({"Accept-Language": language})
        else:
            page = signed_in(browser, live_server.url, who, language=language, viewport=VIEWPORTS[device])
            if who == "zoe":  # the moderator: her pages ask for a second factor, which she used at sign-in
                second_factor_used(page, who)
        page.context.add_init_script(script=axe_source)  # through the browser, not the page: the CSP stays on
        for url in urls:
            page.goto(url)
            check(page, url)
        if who == "ann":  # the page that asks before a move, as a browser without JavaScript gets it
            page.goto(urls[-2])
            page.evaluate("document.querySelectorAll('[data-confirm]').forEach(e => e.removeAttribute('data-confirm'))")
            page.locator("#target-nominate").select_option("bob")
            page.locator("#panel form button[type=submit]").first.click()
            expect(page.locator("main form input[name=confirmed][value=yes]")).to_have_count(1)
            check(page, "the confirmation page")
        page.context.close()
    assert found == {}


def test_a_round_is_played_by_keyboard_alone(browser, live_server):
    """Tab to the control, Enter (or Space, arrows) to use it, for the nomination, the ballots, the discard and
    the enactment; the browser's question is answered by the keyboard too (Playwright accepts the dialog)."""
    game = running_game(now=timezone.now())
    players = {name: signed_in(browser, live_server.url, name) for name in ("ann", "bob", "cat", "dan", "eve")}
    for page in players.values():
        page.on("dialog", lambda dialog: dialog.accept())

    def tab_to(page, selector: str, limit: int = 200) -> None:
        """Press Tab until the element matching `selector` has the focus."""
        for _ in range(limit):
            if page.evaluate("sel => document.activeElement && document.activeElement.matches(sel)", selector):
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")

    ann = players["ann"]
    ann.goto(f"/games/{game.pk}/")
    tab_to(ann, "#target-nominate")
    ann.keyboard.press("ArrowDown")  # from "Choose a player" to bob
    ann.keyboard.press("ArrowDown")  # from bob to cat
    tab_to(ann, "#panel form button[type=submit]")
    ann.keyboard.press("Enter")
    expect(ann.locator("ul.messages")).to_contain_text("You nominated cat as chancellor.")
    for page in players.values():
        page.goto(f"/games/{game.pk}/")
        tab_to(page, "#panel button[value=ja]")
        page.keyboard.press("Enter")
        expect(page.locator("ul.messages")).to_contain_text("Your ballot is Ja.")
    ann.goto(f"/games/{game.pk}/")
    tab_to(ann, "#panel button[name=policy]")
    ann.keyboard.press("Enter")
    expect(ann.locator("ul.messages")).to_contain_text("You discarded")
    cat = players["cat"]
    cat.goto(f"/games/{game.pk}/")
    tab_to(cat, "#panel button[name=policy]")
    cat.keyboard.press("Enter")
    expect(cat.locator("ul.messages")).to_contain_text("You enacted")
    game.refresh_from_db()
    assert game.load_state().fascist_policies + game.load_state().liberal_policies == 1
    for page in players.values():
        page.context.close()


def test_the_world_has_every_step_it_claims(db):
    """The pages above show the panels they are meant to: each viewer owes that step's move."""
    pages = build_world()
    owed = set()
    for who in ("ann", "cat", "bob", "eve"):
        client = Client()
        client.force_login(make_user(who))
        for url in pages[who]:
            if url.startswith("/games/"):
                html = client.get(url).content.decode()
                owed.update(kind for kind in STEPS if f'name="type" value="{kind}"' in html)
    assert owed == set(STEPS)
