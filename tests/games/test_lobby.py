"""The lobby: create, join as player or substitute, leave, start when full, refusals (issue 3, E5, E6)."""

from datetime import timedelta

import pytest

from games.engine import summary
from games.models import Game, GameEvent, Seat
from games.services import (
    GameError,
    close_stale_lobbies,
    create_game,
    join_game,
    leave_game,
    participation_record,
    request_resignation,
)
from tests.factories import NAMES, START, make_user

pytestmark = pytest.mark.django_db


def filled_game(players=5, **options):
    users = [make_user(name) for name in NAMES[:players]]
    game = create_game(users[0], now=START, player_count=players, **options)
    for user in users[1:]:
        join_game(game.pk, user, now=START)
    game.refresh_from_db()
    return game, users


def test_new_game_has_the_seed_durations():
    game = create_game(make_user("ann"), now=START)
    assert (game.nomination_hours, game.election_hours) == (48, 168)
    assert (game.discard_hours, game.legislative_hours, game.power_hours) == (24, 48, 48)
    assert game.status == Game.Status.OPEN
    assert game.lobby_closes_at == START + timedelta(days=14)
    assert list(game.seats.values_list("user__username", flat=True)) == ["ann"]


def test_invalid_settings_are_refused():
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        create_game(make_user("ann"), player_count=11)


def test_t1_a_vote_closing_before_the_nomination_deadline_is_refused():
    from django.core.exceptions import ValidationError

    ann = make_user("ann")
    for election_hours in (2, 5):
        with pytest.raises(ValidationError) as refused:
            create_game(ann, nomination_hours=5, election_hours=election_hours)
        assert "after the nomination's deadline" in refused.value.message_dict["election_hours"][0]
    assert not Game.objects.exists() and not Seat.objects.exists()
    assert create_game(ann, nomination_hours=5, election_hours=6).election_hours == 6


def test_the_last_player_to_join_starts_the_game():
    game, _users = filled_game(5)
    assert game.status == Game.Status.RUNNING
    assert sorted(game.seats.values_list("number", flat=True)) == [0, 1, 2, 3, 4]
    state = game.load_state()
    assert summary(state)["step"] == "nominate"
    assert sorted(state.names(range(5))) == sorted(NAMES[:5])
    assert game.setup["seed"] == game.seed
    assert game.deadline == START + timedelta(hours=48)
    assert GameEvent.objects.filter(game=game, type="game_started").exists()


def test_r1_roles_dealt_by_the_engine_from_the_stored_seed():
    game, _ = filled_game(7)
    state = game.load_state()
    roles = sorted(seat.role for seat in state.seats)
    assert roles == sorted(["liberal"] * 4 + ["fascist"] * 2 + ["hitler"])


def test_joining_twice_or_a_full_game_is_refused():
    game, users = filled_game(5)
    with pytest.raises(GameError, match="not open for sign-ups"):
        join_game(game.pk, make_user("zed"))
    open_game = create_game(users[0])
    with pytest.raises(GameError, match="already in this game"):
        join_game(open_game.pk, users[0])


def test_e5_substitute_signs_up_before_or_during_the_game():
    users = [make_user(name) for name in NAMES[:5]]
    game = create_game(users[0], player_count=5, now=START)
    join_game(game.pk, make_user("sam"), as_substitute=True, now=START)
    for user in users[1:]:
        join_game(game.pk, user, now=START)
    join_game(game.pk, make_user("sue"), as_substitute=True, now=START)
    state = Game.objects.get(pk=game.pk).load_state()
    assert state.substitutes == ["sam", "sue"]
    assert Seat.objects.get(game=game, user__username="sam").number is None


def test_leave_before_the_start_only():
    users = [make_user(name) for name in NAMES[:5]]
    game = create_game(users[0], player_count=5)
    join_game(game.pk, users[1])
    leave_game(game.pk, users[1])
    assert game.seats.count() == 1
    with pytest.raises(GameError, match="not in this game"):
        leave_game(game.pk, users[1])
    running, _ = filled_game(5)
    with pytest.raises(GameError, match="before it starts"):
        leave_game(running.pk, users[0])


def test_a_creator_who_leaves_their_lobby_alone_closes_it():
    ann = make_user("ann")
    game = create_game(ann, now=START)
    leave_game(game.pk, ann)
    game.refresh_from_db()
    assert game.status == Game.Status.CLOSED  # as a lobby that did not fill: it leaves the list
    assert not game.seats.exists()
    with pytest.raises(GameError, match="not open"):
        join_game(game.pk, make_user("bob"))


def test_a_creator_who_leaves_passes_the_lobby_to_the_earliest_player_signed_up():
    ann, bob, cat = (make_user(name) for name in ("ann", "bob", "cat"))
    game = create_game(ann, now=START, player_count=5)
    join_game(game.pk, make_user("sam"), as_substitute=True, now=START)  # a substitute is not the next player
    join_game(game.pk, bob, now=START)
    join_game(game.pk, cat, now=START)
    leave_game(game.pk, ann)
    game.refresh_from_db()
    assert (game.status, game.created_by) == (Game.Status.OPEN, bob)
    leave_game(game.pk, bob)
    game.refresh_from_db()
    assert (game.status, game.created_by) == (Game.Status.OPEN, cat)


def test_a_creator_who_leaves_with_only_substitutes_left_passes_the_lobby_to_one():
    ann, sam = make_user("ann"), make_user("sam")
    game = create_game(ann, now=START, player_count=5)
    join_game(game.pk, sam, as_substitute=True, now=START)
    leave_game(game.pk, ann)
    game.refresh_from_db()
    assert (game.status, game.created_by) == (Game.Status.OPEN, sam)


def test_a_player_who_is_not_the_creator_leaving_keeps_the_lobby_and_its_creator():
    ann, bob = make_user("ann"), make_user("bob")
    game = create_game(ann, now=START, player_count=5)
    join_game(game.pk, bob, now=START)
    leave_game(game.pk, bob)
    game.refresh_from_db()
    assert (game.status, game.created_by) == (Game.Status.OPEN, ann)
    alone = create_game(make_user("zoe"), now=START, join=False)
    join_game(alone.pk, bob, now=START)
    leave_game(alone.pk, bob)  # the last one out of a lobby its creator never joined: not the creator leaving
    alone.refresh_from_db()
    assert alone.status == Game.Status.OPEN


def test_e6_a_game_may_refuse_recently_exiled_players():
    exiled = make_user("ann")
    old, _ = filled_game(5)
    Seat.objects.filter(game=old, user=exiled).update(exiled_at=START)
    strict = create_game(make_user("zoe"), exile_lookback_games=3)
    with pytest.raises(GameError, match="exiled in any of their last 3 games"):
        join_game(strict.pk, exiled)
    lenient = create_game(make_user("zoe"))
    join_game(lenient.pk, exiled)
    assert participation_record(exiled) == {"games": 1, "rounds_missed": 0, "exiles": 1}


def test_lobbies_that_do_not_fill_close():
    game = create_game(make_user("ann"), now=START, lobby_days=3)
    assert close_stale_lobbies(now=START + timedelta(days=2)) == 0
    assert close_stale_lobbies(now=START + timedelta(days=3)) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.CLOSED
    with pytest.raises(GameError, match="not open"):
        join_game(game.pk, make_user("bob"))


def test_resignation_is_a_request_for_a_moderator():
    game, users = filled_game(5)
    seat = request_resignation(game.pk, users[2], now=START)
    assert seat.resign_requested_at == START
    assert seat.active and seat.exiled_at is None


LOBBIES = 36


def test_r1_roles_of_lobby_games_do_not_follow_the_join_order():
    """Fair play, wired: games made through the lobby with the same join order every time (ann first, eve
    last) deal every join position every role. With the seating and the deal drawn from one stream, ann was
    always liberal and eve always Hitler. A fair deal fails this about once in 10^7 runs (0.6^36)."""
    users = [make_user(name) for name in NAMES[:5]]
    roles_of = {name: set() for name in NAMES[:5]}
    seats_of = {name: set() for name in NAMES[:5]}
    firsts = set()
    for _ in range(LOBBIES):
        game = create_game(users[0], now=START, player_count=5)
        for user in users[1:]:
            join_game(game.pk, user, now=START)
        game.refresh_from_db()
        state = game.load_state()
        for number, seat in enumerate(state.seats):
            roles_of[seat.name].add(str(seat.role))
            seats_of[seat.name].add(number)
        firsts.add(state.name(state.president))
        assert game.setup["rng"] == "named-streams"
        assert [seat.name for seat in game.seats.order_by("number")] == [seat.name for seat in state.seats]
    assert roles_of["ann"] != {"liberal"}
    assert roles_of["eve"] != {"hitler"}
    assert all(len(roles) >= 2 for roles in roles_of.values())
    assert all(len(seats) >= 3 for seats in seats_of.values())
    assert len(firsts) >= 3


def test_only_a_verified_email_creates_or_joins_a_game():
    unverified = make_user("zed", verified=False)
    with pytest.raises(GameError, match="Verify your email address first") as refusal:
        create_game(unverified, now=START)
    assert refusal.value.code == "email_unverified" and not Game.objects.exists()
    game = create_game(make_user("ann"), now=START)
    for as_substitute in (False, True):
        with pytest.raises(GameError, match="Verify your email address first"):
            join_game(game.pk, unverified, as_substitute=as_substitute, now=START)
    assert list(game.seats.values_list("name", flat=True)) == ["ann"]
