"""What new users found wrong (issue 41), in Chromium, in English on a desktop and another language on a phone:
under the execution vote (R23) each voter's ballot names whose execution it is and tells its target it is their
own, and once the vote closes the thread names every ballot; an absence refused shows its form again; sign-up
errors sit under their own fields, all at once; a moderator seats the waiting substitute, who is told; every seated
player is told the game started; a username reading like another's is refused; a session is announced as closing
the thread only where it does."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from games.services import create_game, end_now, join_game, make_move
from tests.e2e.pages import VIEWPORTS, said, second_factor_used, signed_in, signing_up
from tests.factories import governments, make_user, running_game, votes
from tests.games.helpers import reload, user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
# 5 players: dan's government enacts the 4th fascist policy and he proposes to execute eve.
PROPOSED = [*governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann")),
            {"type": "execute", "by": "dan", "target": "eve"}]  # fmt: skip


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("es", "phone")])
def test_r23_the_ballot_names_its_target_and_the_thread_names_every_ballot(browser, live_server, language, device):
    game = running_game(actions=PROPOSED, execution_vote=True, now=timezone.now())
    ann = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[device])
    ann.goto(f"/games/{game.pk}/")
    expect(ann.locator("#panel")).to_contain_text(said(language, "Your ballot on executing %(target)s", target="eve"))
    eve = signed_in(browser, live_server.url, "eve", language=language, viewport=VIEWPORTS[device])
    eve.goto(f"/games/{game.pk}/")
    expect(eve.locator("#panel")).to_contain_text(said(language, "Your ballot on your own execution"))
    for name, ballot in (("ann", "ja"), ("bob", "ja"), ("cat", "ja"), ("dan", "nein"), ("eve", "nein")):
        make_move(game.pk, user(name), {"type": "vote", "vote": ballot}, reload(game).step_number)
    ann.goto(f"/games/{game.pk}/?page=last")
    closed = ann.locator(".entry.announcement").filter(
        has_text=said(language, "The execution of %(target)s is approved.", target="eve")
    )
    expect(closed).to_have_count(1)
    for name in ("ann: Ja", "bob: Ja", "cat: Ja", "dan: Nein", "eve: Nein"):
        expect(closed).to_contain_text(name)
    expect(ann.locator("#history")).to_contain_text("dan: Nein")
    ann.context.close()
    eve.context.close()


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("fr", "phone")])
def test_e4_an_absence_refused_shows_its_form_again_with_the_dates_kept_and_why(browser, live_server, language, device):
    """Issue 41's sixth bug: a start under the game's notice gave a bare "Bad request (400)" and lost the dates."""
    game = running_game(now=timezone.now())
    page = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[device])
    page.goto(f"/games/{game.pk}/")
    page.locator("#absences summary").click()
    start = timezone.localtime(timezone.now() + timedelta(hours=2))  # under the game's 24 hours of notice
    typed = (start.strftime("%Y-%m-%dT%H:%M"), (start + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"))
    page.locator("#away-from").fill(typed[0])
    page.locator("#away-to").fill(typed[1])
    page.get_by_role("button", name=said(language, "Announce"), exact=True).click()
    refused = said(language, "An absence must be announced at least %(hours)s hours before it starts.", hours=24)
    expect(page.locator("main")).to_contain_text(refused)
    expect(page.locator("#away-from")).to_have_value(typed[0])
    expect(page.locator("#away-to")).to_have_value(typed[1])
    page.context.close()


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("es", "phone")])
def test_sign_up_errors_sit_under_their_own_fields_and_a_mismatch_comes_with_the_others(
    browser, live_server, language, device
):
    """Issue 41's ninth bug: the password's errors showed under the username, and a mismatch only once the rest
    was fixed."""
    context, page = signing_up(browser, live_server, language, device, "ana", "ana@example.com", "short", "other")
    for field in ("password1", "password2"):
        errors = page.locator(f"#id_{field}_error")
        expect(errors).to_be_visible()
        assert page.locator(f"#id_{field}").get_attribute("aria-describedby").find(f"id_{field}_error") >= 0
        below = "(a, b) => a.getBoundingClientRect().bottom <= b.getBoundingClientRect().top"
        assert page.locator(f"#id_{field}").evaluate(below, errors.element_handle())  # under its own field
    expect(page.locator("#id_password2_error")).to_contain_text(
        said(language, "You must type the same password each time.")
    )
    expect(page.locator("#id_username_error")).to_have_count(0)
    context.close()


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("pl", "phone")])
def test_e8_a_moderator_seats_the_waiting_substitute_and_she_is_told(browser, live_server, language, device):
    """Issue 41's second and third bugs: replacing dan with élodie, waiting as a substitute, was refused ("already in
    this game"); and whoever took a seat was not told."""
    game = running_game(now=timezone.now())
    join_game(game.pk, make_user("élodie"), as_substitute=True)
    make_user("zoe").groups.add(Group.objects.get(name="moderators"))
    moderator = signed_in(browser, live_server.url, "zoe", language=language, viewport=VIEWPORTS[device])
    second_factor_used(moderator, "zoe")
    moderator.goto(f"/moderation/games/{game.pk}/")
    moderator.get_by_role("button", name=said(language, "I understand: show me the secrets")).click()
    moderator.locator("#player-replace").select_option("dan")
    moderator.locator("#newcomer").fill("élodie")
    moderator.locator("#reason-replace").fill("dan resigned")
    moderator.get_by_role("button", name=said(language, "Replace"), exact=True).click()
    seat = moderator.locator("table tr", has_text="élodie")
    expect(seat).to_contain_text(said(language, "takes the seat at the end of the round"))
    end_now(game.pk, user("zoe"))
    elodie = signed_in(browser, live_server.url, "élodie", language=language, viewport=VIEWPORTS[device])
    elodie.goto("/notifications/")
    told = (
        "You now hold seat %(seat)s in %(game)s, in place of %(replaces)s. Your role is on your private panel; read "
        "the game's thread to catch up."
    )
    expect(elodie.locator("main")).to_contain_text(said(language, told, seat=4, game=game.name, replaces="dan"))
    moderator.context.close()
    elodie.context.close()


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("es", "phone")])
def test_every_seated_player_is_told_the_game_started(browser, live_server, language, device):
    """Issue 41's fifth bug: only the first presidential candidate heard of the start."""
    game = create_game(make_user("ann"), name="Tuesday table", player_count=5)  # ann joins her own game
    for name in ("bob", "cat", "dan", "eve"):
        join_game(game.pk, make_user(name))
    assert reload(game).status == "running"
    bob = signed_in(browser, live_server.url, "bob", language=language, viewport=VIEWPORTS[device])
    bob.goto("/notifications/")
    started = "%(game)s has started. Your role is on your private panel, on the game's page."
    expect(bob.locator("main")).to_contain_text(said(language, started, game="Tuesday table"))
    bob.context.close()


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("fr", "phone")])
def test_a_username_reading_like_another_is_refused_at_sign_up(browser, live_server, language, device):
    """Issue 41's tenth bug: "lucía" registered beside "lucia"."""
    make_user("lucia")
    context, page = signing_up(
        browser, live_server, language, device, "Lucía", "impostor@example.com", *["a-long-pass-phrase-9"] * 2
    )
    refused = said(language, "This name is too close to an existing one: %(name)s.", name="lucia")
    expect(page.locator("#id_username_error")).to_contain_text(refused)
    assert not get_user_model().objects.filter(username="Lucía").exists()
    context.close()


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("es", "phone")])
def test_r18_the_session_is_announced_closed_only_where_the_thread_closes(browser, live_server, language, device):
    """Issue 41's fourth bug: with the thread left open during sessions, each session was still announced as
    closing it."""
    elected = [{"type": "nominate", "by": "ann", "target": "bob"}, *votes("ann", "bob", "cat", "dan", "eve")]
    open_game, quiet_game = (running_game(actions=elected, now=timezone.now()) for _ in range(2))
    open_game.house_rules["quiet_legislature"] = False
    open_game.save()
    page = signed_in(browser, live_server.url, "zed", language=language, viewport=VIEWPORTS[device])
    closed = said(language, "The legislative session begins: the thread is closed until a policy is enacted.")
    page.goto(f"/games/{open_game.pk}/")
    expect(
        page.locator(".entry.announcement", has_text=said(language, "The legislative session begins."))
    ).to_have_count(1)
    expect(page.locator("#entries")).not_to_contain_text(closed)
    page.goto(f"/games/{quiet_game.pk}/")
    expect(page.locator("#entries")).to_contain_text(closed)
    page.context.close()
