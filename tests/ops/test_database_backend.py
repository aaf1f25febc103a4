"""The site's PostgreSQL backend (sh_site/postgresql): the parameters are bound on the server, where a statement takes
at most 65,535 of them, and whatever deletes or reads more rows than that at once (a game's cascade, many games, a
long-time player's account, a filter on a long list of ids) is done rather than refused by the database."""

import pytest
from django.db import connection

from games.models import Game, Notification, Post, Seat
from games.services.accounts import delete_account
from tests.factories import START, make_user, running_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
MANY = 70_000  # more than a statement's parameters


def flood(game: Game, author, count: int = MANY) -> list[Post]:
    return Post.objects.bulk_create(
        Post(game=game, author=author, body="spam", html="<p>spam</p>", created_at=START) for _ in range(count)
    )


def test_the_limit_is_declared_so_that_django_splits_what_it_batches():
    assert connection.features.max_query_params == 65_535
    pk = Post._meta.pk
    assert connection.ops.bulk_batch_size([pk, pk, Post._meta.get_field("html")], range(MANY)) == 21_845


def test_a_long_list_of_ids_is_one_parameter_and_a_short_one_keeps_its_in():
    ids = list(range(1, 1001))
    sql, params = Post.objects.filter(pk__in=ids).query.sql_with_params()
    assert '"games_post"."id" = ANY(%s)' in sql and params == (ids,)
    sql, params = Post.objects.filter(pk__in=ids[:999]).query.sql_with_params()
    assert '"games_post"."id" IN (%s, %s' in sql and params == tuple(ids[:999])


def test_a_filter_on_more_ids_than_a_statement_takes_parameters_answers():
    game = running_game()
    ids = [*range(-MANY, 0), game.pk]
    assert list(Game.objects.filter(pk__in=ids)) == [game]
    assert not Game.objects.exclude(pk__in=ids).exists()
    assert Seat.objects.filter(game__in=ids).count() == 5


@pytest.mark.slow
def test_a_game_with_more_posts_than_a_statement_takes_parameters_is_deleted_with_them():
    game = running_game()
    posts = flood(game, make_user("ann"))
    Post.objects.filter(pk=posts[-1].pk).update(quote_of=posts[0])  # set to NULL before its post goes
    game.delete()
    assert not Game.objects.exists() and not Post.objects.exists() and not Seat.objects.exists()


@pytest.mark.slow
def test_games_whose_seats_outnumber_a_statements_parameters_are_deleted_together():
    """`manage.py bench_deadlines --games 10000` cleans up so: 10,000 games of seven seats."""
    users = [make_user(f"bench-{number}") for number in range(7)]
    games = Game.objects.bulk_create(Game(name="bench", status=Game.Status.RUNNING) for _ in range(10_000))
    Seat.objects.bulk_create(
        Seat(game=game, user=user, name=user.username, number=number)
        for game in games
        for number, user in enumerate(users)
    )
    assert Game.objects.filter(name="bench").delete()[1]["games.Seat"] == 70_000
    assert not Seat.objects.exists()


@pytest.mark.slow
def test_a_long_time_players_account_is_deleted_and_their_posts_stay_without_an_author():
    game = running_game()
    veteran = make_user("vet")
    flood(game, veteran)
    Notification.objects.bulk_create(
        Notification(user=veteran, game=game, kind=Notification.Kind.EVENT, key=f"vet-{n}", created_at=START)
        for n in range(MANY)
    )
    delete_account(veteran)
    assert Post.objects.filter(author=None).count() == MANY
    assert not Notification.objects.filter(key__startswith="vet-").exists()
