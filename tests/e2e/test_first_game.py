"""What a first whole game in Chromium showed (issue 11), each checked the way the players met it: a French
sign-up, the new-game form, a refused post, the moderator's seat table, quotes, the lobby, the settings."""

import re

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game, Profile
from games.services import cancel, create_game
from games.services.moves import make_move
from tests.e2e.pages import PASSWORD, second_factor_used, signed_in
from tests.factories import governments, make_user, running_game, votes

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_french_sign_up_stays_french_and_takes_the_browser_s_time_zone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="fr-FR", timezone_id="Europe/Paris")
    page = context.new_page()
    page.goto("/accounts/signup/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    main = page.locator("main")
    main.locator("input[name=email]").fill("amelie@example.com")
    main.locator("input[name=username]").fill("amelie")
    main.locator("input[name=password1]").fill(PASSWORD)
    main.locator("input[name=password2]").fill(PASSWORD)
    main.locator("button[type=submit]").click()
    link = re.search(r"/accounts/confirm-email/\S+", mail.outbox[-1].body).group(0)
    page.goto(link)
    page.locator("main button[type=submit]").click()  # confirmed in the browser that signed up: signed in there
    page.goto("/profile/")
    expect(page.locator("h1")).to_have_text("Votre profil")
    expect(page.locator("select[name=time_zone]")).to_have_value("Europe/Paris")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")  # still French after the profile page
    assert (Profile.objects.get(user__username="amelie").language) == "fr"
    context.close()


def test_the_new_game_form_speaks_french_without_rule_codes(browser, live_server):
    page = signed_in(browser, live_server.url, "amelie", language="fr")
    Profile.objects.filter(user__username="amelie").update(language="fr")
    page.goto("/games/new/")
    labels = " ".join(page.locator("main form label").all_inner_texts())
    for english in ("Visibility", "Missing vote", "Nomination timeout", "Power timeout"):
        assert english.lower() not in labels.lower(), english
    assert not re.search(r"\((R|T|E)\d+\)", page.locator("main").inner_text())
    page.context.close()


def test_r18_a_post_refused_during_the_session_keeps_its_text(browser, live_server):
    nominated = [{"type": "nominate", "by": "ann", "target": "bob"}, *votes("ann", "bob", "cat", "dan")]
    game = running_game(now=timezone.now(), actions=nominated)
    page = signed_in(browser, live_server.url, "cat")
    page.goto(f"/games/{game.pk}/")  # the vote is open, and so is the thread
    make_move(game.pk, make_user("eve"), {"type": "vote", "vote": "ja"}, game.step_number)  # the session begins
    page.locator("#id_body").fill("Ann, what did you draw? Tell us everything.")
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.locator("ul.messages .error")).to_contain_text("legislative session")
    expect(page.locator("#kept-text")).to_have_value("Ann, what did you draw? Tell us everything.")
    assert not game.posts.exists()
    page.context.close()


def test_the_moderator_offers_only_living_seats_and_cancelling_asks_first(browser, live_server):
    actions = governments(("ann", "bob"), ("bob", "cat"), ("cat", "dan"), ("dan", "eve"))
    game = running_game(now=timezone.now(), actions=[*actions, {"type": "execute", "by": "dan", "target": "ann"}])
    moderator = make_user("zoe")
    moderator.groups.add(Group.objects.get(name="moderators"))
    page = second_factor_used(signed_in(browser, live_server.url, "zoe"), "zoe")
    page.goto(f"/moderation/games/{game.pk}/")
    page.get_by_role("button", name="I understand: show me the secrets").click()
    expect(page.locator("table tr", has_text="ann")).to_contain_text("executed")
    for select in page.locator("select[name=player]").all():
        assert "ann" not in select.locator("option").all_inner_texts()
    page.get_by_role("button", name="Cancel the game").click()  # the confirmation box is not ticked
    expect(page.locator("input[name=confirm]:invalid")).to_have_count(1)  # the browser asks for it, sends nothing
    expect(page.locator("ul.messages")).to_have_count(0)
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    page.context.close()


def test_quotes_name_their_author_and_the_jump_link_is_for_readers_with_posts(browser, live_server):
    game = running_game(now=timezone.now())
    visitor = browser.new_context(base_url=live_server.url).new_page()
    visitor.goto(f"/games/{game.pk}/")
    expect(visitor.get_by_role("link", name="Jump to the first unread post")).to_have_count(0)
    ann = signed_in(browser, live_server.url, "ann")
    ann.goto(f"/games/{game.pk}/")
    expect(ann.get_by_role("link", name="Jump to the first unread post")).to_have_count(0)  # nothing posted yet
    ann.locator("#id_body").fill("Bob is a liberal.")
    ann.get_by_role("button", name="Post", exact=True).click()
    bob = signed_in(browser, live_server.url, "bob")
    bob.goto(f"/games/{game.pk}/")
    bob.get_by_role("link", name="Reply with quote").click()
    expect(bob.locator("#id_body")).to_have_value(re.compile(r"^\[\*\*ann\*\* wrote:\]\(/games/\d+/.*#post-\d+\)"))
    bob.get_by_role("button", name="Post", exact=True).click()
    reply = bob.locator("article.post .body").last
    expect(reply.locator("blockquote")).to_contain_text("Bob is a liberal.")
    expect(reply.get_by_role("link", name="ann wrote:")).to_have_attribute("href", re.compile(r"#post-\d+$"))
    for page in (visitor, ann, bob):
        page.context.close()


def test_the_settings_are_shown_before_joining_and_finished_games_are_in_the_lobby(browser, live_server):
    lobby = create_game(make_user("ann"), player_count=5, execution_vote=True, name="Partie lente")
    page = signed_in(browser, live_server.url, "bob")
    page.goto(f"/games/{lobby.pk}/")
    settings = page.locator("#settings")
    expect(settings).to_have_attribute("open", "")
    expect(settings).to_contain_text("Executions need a vote")
    expect(settings).not_to_contain_text("(T1)")
    page.get_by_role("link", name="Rules of this game").click()
    expect(page.locator("main")).to_contain_text("5 players: 3 liberals, 1 fascist and Hitler.")
    finished = running_game(now=timezone.now())
    cancel(finished.pk, make_user("zoe"))
    page.goto("/")
    mine = page.locator("main section", has_text="My finished games")
    expect(mine.get_by_role("link", name=finished.name)).to_have_count(1)
    expect(mine).to_contain_text("cancelled")
    page.context.close()
