"""The creator's controls of an open game: removing a sign-up, starting early, changing the settings (R1), and
every refusal changing nothing."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group

from games.models import Game, GameEvent, Notification, Seat
from games.services import GameError, create_game, join_game
from games.services.lobby_controls import edit_settings, remove_player, start_early
from tests.factories import NAMES, START, make_user
from tests.games.helpers import reload

pytestmark = pytest.mark.django_db


def lobby(players: int, *, substitutes: int = 0, **options) -> tuple[Game, list]:
    """An open game for 7 (unless told) by ann, with `players` signed up and `substitutes` after them."""
    users = [make_user(name) for name in NAMES[: players + substitutes]]
    game = create_game(users[0], now=START, **{"player_count": 7, **options})
    for number, user in enumerate(users[1:], start=1):
        join_game(game.pk, user, as_substitute=number >= players, now=START)
    return reload(game), users


def moderator():
    mod = make_user("mod")
    mod.groups.add(Group.objects.get(name="moderators"))
    return mod


def refused(call, code: str) -> GameError:
    with pytest.raises(GameError) as refusal:
        call()
    assert refusal.value.code == code
    return refusal.value


def test_the_creator_removes_a_player_who_is_told_and_may_join_again():
    game, (ann, bob, *_rest) = lobby(3)
    seat = game.seats.get(user=bob)
    removed = remove_player(game.pk, ann, seat.pk, now=START)
    assert removed.name == "bob"
    assert not game.seats.filter(user=bob).exists()
    notice = Notification.objects.get(user=bob, kind=Notification.Kind.REMOVED)
    assert notice.data == {"by": "ann"} and notice.game == game
    assert notice.email == Notification.Email.PENDING  # by email too, as a game's start is
    join_game(game.pk, bob, now=START)
    assert game.seats.filter(user=bob).exists()


def test_a_substitute_may_be_removed_too():
    game, users = lobby(2, substitutes=1)
    substitute = game.seats.get(is_substitute=True)
    remove_player(game.pk, users[0], substitute.pk, now=START)
    assert list(game.seats.values_list("name", flat=True).order_by("pk")) == ["ann", "bob"]


def test_the_creator_cannot_remove_themselves():
    game, (ann, *_rest) = lobby(2)
    error = refused(lambda: remove_player(game.pk, ann, game.seats.get(user=ann).pk), "own_seat")
    assert "leave the game" in str(error)
    assert game.seats.count() == 2


def test_a_stranger_or_another_player_cannot_remove_anyone():
    game, (_ann, bob, cat) = lobby(3)
    for someone in (bob, make_user("zed")):
        refused(lambda someone=someone: remove_player(game.pk, someone, game.seats.get(user=cat).pk), "not_creator")
    assert game.seats.count() == 3
    assert not Notification.objects.filter(kind=Notification.Kind.REMOVED).exists()


def test_a_moderator_who_removes_the_creator_passes_the_game_on():
    game, (ann, bob, _cat) = lobby(3)
    remove_player(game.pk, moderator(), game.seats.get(user=ann).pk, now=START)
    assert reload(game).created_by == bob


def test_no_one_is_removed_once_the_game_has_started():
    game, users = lobby(5, player_count=5)
    assert game.status == Game.Status.RUNNING
    refused(lambda: remove_player(game.pk, users[0], game.seats.get(user=users[1]).pk), "game_started")
    assert game.seats.count() == 5


def test_removing_a_seat_not_in_the_game_is_refused():
    game, (ann, *_rest) = lobby(2)
    other = create_game(make_user("zed"), now=START, name="Other")
    refused(lambda: remove_player(game.pk, ann, other.seats.get().pk), "not_in_game")
    assert other.seats.count() == 1


def test_r1_starting_early_deals_the_players_signed_up_and_keeps_the_substitutes_waiting():
    game, users = lobby(6, substitutes=1)
    assert start_early(game.pk, users[0], now=START) == 6
    game = reload(game)
    assert game.status == Game.Status.RUNNING and game.player_count == 6
    assert sorted(game.seats.filter(is_substitute=False).values_list("number", flat=True)) == list(range(6))
    substitute = game.seats.get(is_substitute=True)
    assert substitute.number is None and substitute.active
    state = game.load_state()
    assert len(state.seats) == 6
    assert sorted(seat.role for seat in state.seats).count("liberal") == 4  # six players: four liberals (R1)
    assert GameEvent.objects.filter(game=game, type="game_started").exists()
    assert game.deadline == START + timedelta(hours=game.nomination_hours)


def test_r1_starting_early_with_fewer_than_five_players_is_refused():
    game, users = lobby(4, substitutes=2)
    error = refused(lambda: start_early(game.pk, users[0], now=START), "too_few_players")
    assert str(error) == "A game starts with 5 players at least: 4 have signed up."
    game = reload(game)
    assert game.status == Game.Status.OPEN and game.player_count == 7 and game.seed is None


def test_starting_early_is_the_creators_or_a_moderators():
    game, users = lobby(5)
    refused(lambda: start_early(game.pk, users[1], now=START), "not_creator")
    assert reload(game).status == Game.Status.OPEN
    assert start_early(game.pk, moderator(), now=START) == 5


def test_a_started_game_cannot_start_again():
    game, users = lobby(5, player_count=5)
    refused(lambda: start_early(game.pk, users[0], now=START), "game_started")


def test_the_creator_changes_the_settings_and_everyone_signed_up_is_told():
    game, (ann, _bob, _cat) = lobby(2, substitutes=1)
    changed = edit_settings(
        game.pk, ann, now=START, nomination_hours=12, minute_durations=True, close_vote_early=False, name="Fast one"
    )
    assert changed == ["name", "nomination_hours", "minute_durations", "close_vote_early"]
    game = reload(game)
    assert (game.name, game.nomination_hours, game.minute_durations) == ("Fast one", 12, True)
    assert game.rules.close_vote_early is False
    assert game.duration("nomination") == timedelta(minutes=12)
    told = Notification.objects.filter(kind=Notification.Kind.SETTINGS)
    assert sorted(told.values_list("user__username", flat=True)) == ["bob", "cat"]  # not ann, who changed them
    assert told.first().data["changed"] == changed


def test_settings_left_as_they_were_change_nothing_and_tell_no_one():
    game, (ann, _bob) = lobby(2)
    assert edit_settings(game.pk, ann, now=START, nomination_hours=game.nomination_hours) == []
    assert not Notification.objects.filter(kind=Notification.Kind.SETTINGS).exists()


def test_a_table_smaller_than_the_players_signed_up_is_refused():
    game, users = lobby(6)
    error = refused(lambda: edit_settings(game.pk, users[0], now=START, player_count=5), "below_signed_up")
    assert str(error) == "6 players have already signed up: the game cannot be for fewer."
    assert reload(game).player_count == 7
    assert not Notification.objects.filter(kind=Notification.Kind.SETTINGS).exists()


def test_a_table_as_small_as_the_players_signed_up_is_full_and_starts():
    game, users = lobby(6)
    edit_settings(game.pk, users[0], now=START, player_count=6)
    game = reload(game)
    assert game.status == Game.Status.RUNNING and len(game.load_state().seats) == 6


def test_settings_a_new_game_could_not_have_are_refused():
    game, (ann, _bob) = lobby(2)
    refused(lambda: edit_settings(game.pk, ann, now=START, nomination_hours=10, election_hours=5), "bad_setting")
    refused(lambda: edit_settings(game.pk, ann, now=START, player_count=11), "bad_setting")
    refused(lambda: edit_settings(game.pk, ann, now=START, seed=4), "bad_setting")
    game = reload(game)
    assert (game.nomination_hours, game.player_count, game.seed) == (48, 7, None)


def test_a_lobby_shortened_to_before_now_is_refused_and_a_longer_one_closes_later():
    game, (ann, _bob) = lobby(2, lobby_days=14)
    refused(lambda: edit_settings(game.pk, ann, now=START + timedelta(days=3), lobby_days=2), "lobby_too_short")
    edit_settings(game.pk, ann, now=START + timedelta(days=3), lobby_days=20)
    assert reload(game).lobby_closes_at == START + timedelta(days=20)


def test_the_settings_are_the_creators_or_a_moderators_and_only_before_the_start():
    game, (_ann, bob) = lobby(2)
    refused(lambda: edit_settings(game.pk, bob, now=START, nomination_hours=3), "not_creator")
    assert edit_settings(game.pk, moderator(), now=START, nomination_hours=3) == ["nomination_hours"]
    assert set(Notification.objects.values_list("user__username", flat=True)) == {"ann", "bob"}
    started, users = lobby(5, player_count=5, name="Started")
    refused(lambda: edit_settings(started.pk, users[0], now=START, nomination_hours=3), "game_started")
    assert reload(started).nomination_hours == 48
    assert Seat.objects.filter(game=started).count() == 5
