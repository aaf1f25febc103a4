"""Profiles: time zone and language, the public participation record (E6), and deleting an account."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game, Post, Profile, Seat
from games.services import end_now, sweep_due_deadlines
from tests.factories import START, make_user, running_game
from tests.games.helpers import state_of

pytestmark = pytest.mark.django_db


def test_deadlines_shown_in_the_viewers_time_zone_with_the_offset(client_for):
    game = running_game(now=datetime(2026, 7, 1, 12, 0, tzinfo=UTC))
    ann = client_for("ann")
    ann.post("/profile/", {"display_name": "Ann", "time_zone": "Europe/Madrid", "language": "en", "reminders": "both"})
    assert Profile.objects.get(user__username="ann").time_zone == "Europe/Madrid"
    page = ann.get(f"/games/{game.pk}/").content.decode()
    assert "Fri 3 Jul 2026, 14:00 CEST (UTC+02:00)" in page


def test_a_bad_time_zone_is_refused(client_for):
    response = client_for("ann").post("/profile/", {"time_zone": "Mars/Olympus", "language": "en"})
    assert "Select a valid choice" in response.content.decode()


def test_the_language_is_remembered_in_the_profile(client_for):
    ann = client_for("ann")
    ann.post("/language/", {"language": "fr", "next": "/"})
    assert Profile.objects.get(user__username="ann").language == "fr"
    assert ann.get("/").headers["Content-Language"] == "fr"


def test_e6_public_profile_shows_games_missed_rounds_and_exiles(client):
    game = running_game()
    sweep_due_deadlines(now=game.deadline)
    Seat.objects.filter(name="ann").update(exiled_at=START)
    page = client.get("/users/ann/").content.decode()
    assert "<dt>Games played</dt><dd>1</dd><dt>Rounds missed</dt><dd>1</dd><dt>Exiles</dt><dd>1</dd>" in page


def test_deleting_an_account_keeps_posts_and_hands_the_seat_on_without_a_mark(client_for, client):
    game = running_game(now=timezone.now())
    cat = client_for("cat")
    cat.post(f"/games/{game.pk}/post/", {"body": "I am not Hitler", "thread": "main"})
    assert "Type your user name" in cat.post("/profile/delete/", {"confirm": "wrong"}).content.decode()
    cat.post("/profile/delete/", {"confirm": "cat"})
    assert not get_user_model().objects.filter(username="cat").exists()
    post = Post.objects.get()
    assert post.author is None
    assert "deleted user" in client.get(f"/games/{game.pk}/").content.decode()
    end_now(game.pk, make_user("mod"))  # the round ends: the seat leaves play
    seat = Seat.objects.get(game=game, name="cat")
    assert (seat.user, seat.exiled_at, seat.exile_reason) == (None, None, "account_deleted")
    assert state_of(game)["winner"] == "liberal"  # cat was Hitler: E5


def test_unlisted_games_stay_off_public_profiles(client):
    game = running_game()
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.UNLISTED)
    assert "Imported game" not in client.get("/users/ann/").content.decode()


@pytest.mark.parametrize(("language", "saved"), [("fr", "Votre profil est enregistré."), ("pl", "Profil zapisany.")])
def test_the_saved_profile_is_confirmed_in_the_language_just_chosen(client_for, language, saved):
    ann = client_for("ann")
    ann.get("/profile/")  # read in English
    form = {"display_name": "Ann", "time_zone": "Europe/Paris", "language": language, "reminders": "both"}
    page = ann.post("/profile/", form, follow=True)
    assert page.headers["Content-Language"] == language
    assert saved in page.content.decode()
    assert "Your profile is saved." not in page.content.decode()
