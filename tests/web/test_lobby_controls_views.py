"""The creator's controls on an open game's page: remove a sign-up, start early, change the settings; and the
new-game form's fast table (durations in minutes)."""

import pytest

from games.models import Game, Notification
from games.services import create_game, join_game
from tests.factories import NAMES, form_data
from tests.games.helpers import reload, user

pytestmark = pytest.mark.django_db


def lobby(client_for, players: int, **options) -> Game:
    """Ann's open game for 7 with `players` signed up (she is the first), each able to sign in."""
    for name in NAMES[:players]:
        client_for(name)
    game = create_game(user("ann"), **{"player_count": 7, **options})
    for name in NAMES[1:players]:
        join_game(game.pk, user(name))
    return reload(game)


def test_only_the_creator_sees_the_controls(client_for, client):
    game = lobby(client_for, 5)
    mine = client_for("ann").get(game.get_absolute_url()).content.decode()
    assert "Start now with 5 players" in mine and "Change the settings" in mine
    assert mine.count("Remove</button>") == 4  # everyone's but her own
    for page in (client_for("bob").get(game.get_absolute_url()), client.get(game.get_absolute_url())):
        text = page.content.decode()
        assert "creator-controls" not in text and "Remove</button>" not in text


def test_a_moderator_sees_the_controls(client_for, moderator):
    game = lobby(client_for, 3)
    text = moderator.get(game.get_absolute_url()).content.decode()
    assert "Change the settings" in text and "once 5 players have signed up" in text


def test_the_creator_starts_early(client_for):
    game = lobby(client_for, 5)
    page = client_for("ann").post(f"/games/{game.pk}/start/", follow=True)
    assert "The game has started with 5 players." in page.content.decode()
    game = reload(game)
    assert game.status == Game.Status.RUNNING and game.player_count == 5


def test_starting_early_by_another_player_or_too_soon_is_refused_with_a_message(client_for):
    game = lobby(client_for, 4)
    page = client_for("ann").post(f"/games/{game.pk}/start/", follow=True)
    assert "A game starts with 5 players at least: 4 have signed up." in page.content.decode()
    page = client_for("bob").post(f"/games/{game.pk}/start/", follow=True)
    assert "Only the game&#x27;s creator or a moderator can do this." in page.content.decode()
    assert reload(game).status == Game.Status.OPEN


def test_the_creator_removes_a_player(client_for):
    game = lobby(client_for, 3)
    seat = game.seats.get(name="bob")
    page = client_for("ann").post(f"/games/{game.pk}/signups/{seat.pk}/remove/", follow=True)
    assert "bob is no longer signed up for this game." in page.content.decode()
    assert list(game.seats.values_list("name", flat=True).order_by("pk")) == ["ann", "cat"]
    bell = client_for("bob").get("/notifications/").content.decode()
    assert "ann removed you from the sign-ups of" in bell


def test_removing_oneself_is_refused_and_changes_nothing(client_for):
    game = lobby(client_for, 2)
    seat = game.seats.get(name="ann")
    page = client_for("ann").post(f"/games/{game.pk}/signups/{seat.pk}/remove/", follow=True)
    assert "You cannot remove yourself: leave the game instead." in page.content.decode()
    assert game.seats.count() == 2


def test_the_settings_page_is_the_new_game_form_filled_with_the_games_settings(client_for):
    game = lobby(client_for, 2, name="Tuesday table", nomination_hours=30, election_hours=60)
    page = client_for("ann").get(f"/games/{game.pk}/settings/")
    text = page.content.decode()
    assert page.status_code == 200 and "Settings of Tuesday table" in text
    assert 'value="Tuesday table"' in text and 'name="nomination_hours" value="30"' in text
    assert client_for("bob").get(f"/games/{game.pk}/settings/").status_code == 403


def test_saving_the_settings_tells_those_signed_up(client_for):
    game = lobby(client_for, 3)
    data = form_data(player_count=6, nomination_hours=12, election_hours=36)
    page = client_for("ann").post(f"/games/{game.pk}/settings/", data, follow=True)
    assert "The settings are saved; everyone signed up is told that they changed." in page.content.decode()
    game = reload(game)
    assert (game.player_count, game.nomination_hours, game.name) == (6, 12, "Friday game")
    told = Notification.objects.filter(kind=Notification.Kind.SETTINGS).values_list("user__username", flat=True)
    assert sorted(told) == ["bob", "cat"]
    bell = client_for("bob").get("/notifications/").content.decode()
    assert "The settings of Friday game changed since you signed up" in bell
    assert f'href="/games/{game.pk}/rules/"' in bell


def test_a_table_below_the_players_signed_up_is_refused_on_the_form(client_for):
    game = lobby(client_for, 6)
    page = client_for("ann").post(f"/games/{game.pk}/settings/", form_data(player_count=5))
    assert page.status_code == 200
    assert "6 players have already signed up: the game cannot be for fewer." in page.content.decode()
    assert reload(game).player_count == 7 and not Notification.objects.filter(kind="settings").exists()


def test_the_settings_of_a_started_game_cannot_be_changed(client_for):
    game = lobby(client_for, 5, player_count=5)
    page = client_for("ann").get(f"/games/{game.pk}/settings/", follow=True)
    assert "no longer open for sign-ups" in page.content.decode()
    client_for("ann").post(f"/games/{game.pk}/settings/", form_data(nomination_hours=3))
    assert reload(game).nomination_hours == 48


def test_the_new_game_form_offers_a_fast_table_counted_in_minutes(client_for):
    ann = client_for("ann")
    assert "A fast table: the durations below count in minutes" in ann.get("/games/new/").content.decode()
    ann.post("/games/new/", form_data(minute_durations="on", nomination_hours=5, election_hours=10))
    game = Game.objects.get()
    assert game.minute_durations and game.nomination_hours == 5
    form = ann.get(f"/games/{game.pk}/settings/").content.decode()
    assert "Minutes to nominate" in form and "Hours to nominate" not in form
    rules = ann.get(f"/games/{game.pk}/rules/").content.decode()
    assert "The candidate has 5 minutes" in rules and "Minutes to nominate" in rules


def test_a_zero_minute_duration_is_refused_in_minutes(client_for):
    page = client_for("ann").post("/games/new/", form_data(minute_durations="on", discard_hours=0))
    assert "A duration is at least one minute." in page.content.decode()
    assert not Game.objects.exists()


def test_an_unlisted_games_controls_work_at_its_secret_address(client_for):
    game = lobby(client_for, 5, visibility=Game.Visibility.UNLISTED)
    ann = client_for("ann")
    page = ann.get(game.get_absolute_url()).content.decode()
    seat = game.seats.get(name="bob")
    remove = f"/games/u/{game.link_key}/signups/{seat.pk}/remove/"
    assert f'action="{remove}"' in page and f'href="/games/u/{game.link_key}/settings/"' in page
    ann.post(remove)
    assert not game.seats.filter(name="bob").exists()
    assert ann.get(f"/games/u/{game.link_key}/settings/").status_code == 200
