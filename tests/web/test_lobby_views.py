"""The lobby pages: listing, creating, joining and leaving games."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group

from games.models import Game, Seat
from games.services import create_game
from moderation.services import ban
from tests.factories import form_data, make_user, running_game
from tests.games.helpers import user

pytestmark = pytest.mark.django_db


def test_home_lists_open_running_and_finished_games(client, client_for):
    running_game()
    ann = client_for("zoe")
    ann.post("/games/new/", {**form_data(), "name": "Open one"})
    page = client.get("/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Open one" in text and "Imported game (5 players)" in text


def test_a_game_in_my_games_and_in_the_running_list_counts_down_in_both(client_for):
    """Each countdown has an id of its own: with one id for both, the page's script counted only the first down."""
    game = running_game()
    page = client_for("ann").get("/").content.decode()  # ann plays it: in her games, and in the public list
    countdowns = re.findall(r'data-countdown="([^"]+)"', page)
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(countdowns) == 2 and len(set(countdowns)) == 2 and set(countdowns) <= set(ids)
    assert f"cd-{game.pk}" in countdowns
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_create_a_game_with_every_setting(client_for):
    response = client_for("ann").post("/games/new/", form_data(execution_vote="on", deadline_hour=23))
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert (game.name, game.player_count, game.rules.execution_vote, game.deadline_hour) == ("Friday game", 5, True, 23)
    assert game.seats.get().name == "ann"


def test_the_create_form_refuses_bad_settings_and_says_why(client_for):
    response = client_for("ann").post("/games/new/", form_data(player_count=11, nomination_hours=0))
    assert response.status_code == 200
    assert not Game.objects.exists()
    text = response.content.decode()
    assert "less than or equal to 10" in text and "at least one hour" in text


def test_t1_the_create_form_refuses_a_vote_closing_before_the_nomination_deadline(client_for):
    # Both count from the round's start (T1): 5 h to nominate and a vote closing 2 h after the start contradict.
    ann = client_for("ann")
    for election_hours in (2, 5):
        response = ann.post("/games/new/", form_data(nomination_hours=5, election_hours=election_hours))
        assert response.status_code == 200
        assert not Game.objects.exists()
        errors = response.context["form"].errors
        assert list(errors) == ["election_hours"]
        assert "after the nomination's deadline" in errors["election_hours"][0]
        assert "after the nomination&#x27;s deadline" in response.content.decode()
    ann.post("/games/new/", form_data(nomination_hours=5, election_hours=6))
    assert Game.objects.get().election_hours == 6


def test_creating_needs_a_signed_in_user_with_a_verified_email(client):
    assert client.get("/games/new/").status_code == 302
    user = make_user("ann", verified=False)
    client.force_login(user)
    response = client.post("/games/new/", form_data())
    assert response.status_code == 302 and "/accounts/email/" in response.url
    assert not Game.objects.exists()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    client.post("/games/new/", form_data())
    assert Game.objects.count() == 1


def test_joining_needs_a_verified_email_and_sends_to_the_email_page(client, client_for):
    client_for("ann").post("/games/new/", form_data())
    game = Game.objects.get()
    client.force_login(make_user("zed", verified=False))
    response = client.post(f"/games/{game.pk}/join/")
    assert response.status_code == 302 and response.url == "/accounts/email/"
    page = client.get(response.url).content.decode()
    assert "Verify your email address first: deadline reminders go there." in page
    assert not Seat.objects.filter(game=game, user__username="zed").exists()


def test_join_fill_and_start(client_for):
    client_for("ann").post("/games/new/", form_data())
    game = Game.objects.get()
    for name in ("bob", "cat", "dan", "eve"):
        response = client_for(name).post(f"/games/{game.pk}/join/")
        assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_join_refusals_are_explained(client_for):
    game = running_game()
    response = client_for("zed").post(f"/games/{game.pk}/join/", follow=True)
    assert "This game is not open for sign-ups." in response.content.decode()
    response = client_for("zed").post(f"/games/{game.pk}/join/", {"as": "substitute"}, follow=True)
    page = response.content.decode()
    assert "You are a substitute: if a seat is given up, the first substitute takes it." in page
    assert "You are in." not in page  # a substitute is not seated
    assert Game.objects.get(pk=game.pk).load_state().substitutes == ["zed"]


def test_leave_before_the_start(client_for):
    client_for("ann").post("/games/new/", form_data())
    game = Game.objects.get()
    bob = client_for("bob")
    bob.post(f"/games/{game.pk}/join/")
    response = bob.post(f"/games/{game.pk}/leave/", follow=True)
    assert "You have left the game." in response.content.decode()
    assert game.seats.count() == 1


def test_a_lobby_its_creator_leaves_alone_drops_out_of_the_list(client, client_for):
    ann = client_for("ann")
    ann.post("/games/new/", {**form_data(), "name": "Left behind"})
    game = Game.objects.get()
    assert "Left behind" in client.get("/").content.decode()
    response = ann.post(f"/games/{game.pk}/leave/", follow=True)
    assert "You have left the game." in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.CLOSED
    assert "Left behind" not in client.get("/").content.decode()


def test_join_and_leave_are_post_only(client_for):
    game = running_game()
    assert client_for("ann").get(f"/games/{game.pk}/join/").status_code == 405


def test_unknown_game_is_404(client):
    assert client.get("/games/999/").status_code == 404


def test_a_game_name_is_one_line(client_for):
    response = client_for("ann").post("/games/new/", form_data(name="Evil\r\nBcc: all@example.com"))
    assert "one line of text" in response.content.decode()
    assert not Game.objects.exists()


def test_a_games_settings_are_shown_in_plain_words_before_joining_and_during_play(client):
    import re

    from games.services import create_game

    game = create_game(
        make_user("ann"), player_count=5, execution_vote=True, deadline_hour=23, time_zone="Europe/Madrid"
    )
    page = client.get(f"/games/{game.pk}/").content.decode()
    settings = page[page.index('id="settings" open') :]
    settings = settings[: settings.index("</details>")]
    assert "Executions need a vote</dt><dd>yes</dd>" in settings
    assert "A ballot not cast</dt><dd>Not counted</dd>" in settings
    assert "Hours to nominate</dt><dd>48 hours</dd>" in settings
    assert "23:00 (Europe/Madrid)" in settings
    assert not re.search(r"\([RTE]\d+\)", settings)  # no rule codes in what players read
    running = running_game()
    french = client.get(f"/games/{running.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'id="settings">' in french and "Les réglages de cette partie" in french and "48 heures" in french


def test_my_finished_games_are_listed_on_the_lobby(client_for):
    from games.services import cancel

    game = running_game()
    cancel(game.pk, make_user("mod"))
    page = client_for("ann").get("/").content.decode()
    mine = page[page.index('id="my-finished"') :]
    assert f'href="/games/{game.pk}/"' in mine[: mine.index("</section>")]
    assert 'id="my-finished"' not in client_for("zed").get("/").content.decode()


def test_a_banned_creator_gets_a_message_and_no_empty_game(client_for):
    ann = client_for("ann")
    ban(_moderator(), user("ann"), 3, "spam")
    response = ann.post("/games/new/", form_data())
    assert "banned" in response.content.decode()
    assert not Game.objects.exists()


def _moderator():
    mod = make_user("mod")
    mod.groups.add(Group.objects.get(name="moderators"))
    return mod


def test_e6_each_name_in_the_lobby_shows_its_record_as_the_profile_does(client, client_for):
    old = running_game()  # ann..eve played it; bob missed two rounds and was exiled
    Seat.objects.filter(game=old, name="bob").update(rounds_missed=2, exiled_at=old.started_at)
    client_for("bob").post("/games/new/", {**form_data(), "name": "Next"})
    game = Game.objects.get(name="Next")
    client_for("newbie").post(f"/games/{game.pk}/join/")
    text = " ".join(client.get(f"/games/{game.pk}/").content.decode().split())
    assert '<a href="/users/bob/">bob</a>' in text
    assert "— 1 game played, 2 rounds missed, 1 exile" in text
    assert "— 0 games played, 0 rounds missed, 0 exiles" in text  # newbie
    profile = " ".join(client.get("/users/bob/").content.decode().split())
    assert "<dd>1</dd><dt>Rounds missed</dt><dd>2</dd><dt>Exiles</dt><dd>1</dd>" in profile


def test_e6_a_recently_exiled_reader_is_told_the_game_refuses_them_instead_of_a_join_button(client_for):
    old = running_game()
    zed = make_user("zed")
    Seat.objects.create(game=old, user=zed, name="zed", number=5, active=False, exiled_at=old.started_at)
    strict = create_game(make_user("yan"), exile_lookback_games=3)
    running = running_game()
    Game.objects.filter(pk=running.pk).update(exile_lookback_games=3)
    for game in (strict, running):
        page = client_for("zed").get(f"/games/{game.pk}/").content.decode()
        assert "This game refuses players exiled in any of their last 3 games." in page
        assert "Join as a player" not in page and "Sign up as a substitute" not in page
    assert "Join as a player" in client_for("xia").get(f"/games/{strict.pk}/").content.decode()
