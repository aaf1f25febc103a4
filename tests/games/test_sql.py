"""The statements written as SQL (games/models/sql.py) answer what the plain ORM answers."""

import json
from datetime import timedelta

import pytest
from django.db.models import BigIntegerField, Case, Count, Max, Q, Sum, When

from games.models import (
    Absence,
    ActionRecord,
    ApiToken,
    Claim,
    Game,
    Note,
    Post,
    Proposal,
    ProposalBallot,
    RatingChange,
    Rename,
    Seat,
    ThreadRead,
    sql,
)
from games.models.game import PLAYED_FIELDS
from games.presenters import POST_FIELDS
from games.services import create_game, make_move
from games.services.forum import post_message
from games.services.proposals import propose
from tests.factories import START, make_user, running_game

from .helpers import reload, user

pytestmark = pytest.mark.django_db
ID = BigIntegerField()
MOMENTS = ("deadline", "paused_at", "live_posts_edited", "live_own_notes", "live_read_mark")


def plain_fingerprint(game_id: int, thread: str, viewer: int, now) -> tuple | None:
    """What sql.fingerprint reads, asked of the ORM one table at a time."""
    game = Game.objects.filter(pk=game_id).values_list(*sql.GAME_FIELDS).first()
    if game is None:
        return None
    posts = Post.objects.filter(game_id=game_id, thread=thread).aggregate(
        n=Count("pk"), ids=Sum("pk"), hidden=Sum(Case(When(hidden_at=None, then=0), default="pk", output_field=ID)),
        signed=Count("author"), edited=Max("edited_at"),
    )  # fmt: skip
    seats = Seat.objects.filter(game_id=game_id).aggregate(
        n=Count("pk"), ids=Sum("pk"), active=Sum(Case(When(active=True, then=1), default=0))
    )
    own = Absence.objects.filter(seat__game_id=game_id, seat__user_id=viewer).aggregate(
        n=Count("pk"), started=Sum(Case(When(starts_at__lte=now, then=1), default=0)),
        ended=Sum(Case(When(Q(ends_at__lte=now) | Q(ended_early_at__lte=now), then=1), default=0)),
    )  # fmt: skip
    notes = Note.objects.filter(game_id=game_id, author_id=viewer).aggregate(saved=Max("updated_at"))
    read = ThreadRead.objects.filter(game_id=game_id, thread=thread, user_id=viewer).aggregate(mark=Max("last_read_at"))
    proposals = Proposal.objects.filter(game_id=game_id).aggregate(n=Count("pk"), closed=Count("closed_at"))
    return (
        *game, posts["n"], posts["ids"], posts["hidden"], posts["signed"], posts["edited"],
        Rename.objects.aggregate(last=Max("pk"))["last"],
        Claim.objects.filter(game_id=game_id).count(), seats["n"], seats["ids"], seats["active"],
        ActionRecord.objects.filter(game_id=game_id, actor_id=viewer).count(), own["n"], own["started"], own["ended"],
        notes["saved"], read["mark"], proposals["n"], proposals["closed"],
        ProposalBallot.objects.filter(proposal__game_id=game_id).count(),
        RatingChange.objects.aggregate(last=Max("pk"))["last"],
    )  # fmt: skip


def as_read(row: tuple) -> tuple:
    """The statement's row with its moments as the ORM gives them (SQLite gives text), and the seats that owe a move
    and the house rules as the ORM decodes them (the statement gives the JSON's text, which is all a fingerprint
    compares)."""
    convert, names = sql.moment_converter(), sql.GAME_FIELDS + sql.AGGREGATES
    read = {name: convert(value) if name in MOMENTS else value for name, value in zip(names, row, strict=True)}
    return tuple((read | {name: json.loads(read[name]) for name in ("waiting", "house_rules")}).values())


def fingerprints_agree(game: Game, thread: str, viewer: int, now) -> bool:
    row = sql.fingerprint(game.pk, thread, viewer, now)
    return as_read(row) == plain_fingerprint(game.pk, thread, viewer, now)


def test_the_fingerprint_of_a_game_with_nothing_in_its_thread_is_the_orms():
    game = running_game()
    assert fingerprints_agree(game, Post.Thread.MAIN, 0, START)
    assert fingerprints_agree(game, Post.Thread.GRAVEYARD, user("ann").pk, START)


def test_the_fingerprint_of_a_played_and_discussed_game_is_the_orms():
    game = running_game()
    ann = user("ann")
    now = START + timedelta(hours=1)
    first = post_message(game.pk, ann, "Hello", now=now)
    post_message(game.pk, user("bob"), "Hi", now=now)
    Post.objects.filter(pk=first.pk).update(hidden_at=now, edited_at=now)
    state = reload(game).load_state()
    make_move(game.pk, ann, {"type": "nominate", "target": state.seats[1].name}, state.step_number, now=now)
    seat = Seat.objects.get(game=game, user=ann)
    Absence.objects.create(seat=seat, starts_at=now, ends_at=now + timedelta(days=2))
    Absence.objects.create(seat=seat, starts_at=now - timedelta(days=3), ends_at=now - timedelta(days=1))
    Note.objects.create(game=game, author=ann, body="bob lies", updated_at=now)
    ThreadRead.objects.create(game=game, user=ann, thread=Post.Thread.MAIN, last_read_at=now)
    propose(game.pk, ann, "extend", hours=6, now=now)
    ann.username = "anne"
    ann.save()
    Claim.objects.create(
        game=game, round=1, office=Claim.Office.PRESIDENT, author=ann, author_name="ann", cards="FFL", created_at=now
    )
    for viewer in (0, ann.pk, user("bob").pk):
        assert fingerprints_agree(game, Post.Thread.MAIN, viewer, now + timedelta(days=1))


def test_no_game_has_no_fingerprint():
    assert sql.fingerprint(0, Post.Thread.MAIN, 0, START) is None
    assert plain_fingerprint(0, Post.Thread.MAIN, 0, START) is None


def test_saving_a_batch_of_played_games_writes_what_bulk_update_writes():
    games = [running_game(), running_game(), running_game()]
    twins = [running_game(), running_game(), running_game()]
    for n, (game, twin) in enumerate(zip(games, twins, strict=True)):
        for row in (game, twin):
            row.step_number, row.waiting, row.thread_locked = 7 + n, [n, 3], bool(n % 2)
            row.deadline, row.paused_at, row.sweep_error = START + timedelta(hours=n), None, f"error {n}"
            row.state, row.winner = f'{{"n": {n}}}', "liberal"
    sql.save_played(games)
    Game.objects.bulk_update(twins, PLAYED_FIELDS)
    for game, twin in zip(games, twins, strict=True):
        written, expected = reload(game), reload(twin)
        assert [getattr(written, name) for name in PLAYED_FIELDS] == [getattr(expected, name) for name in PLAYED_FIELDS]
        assert written.name == game.name and written.step_number == game.step_number


def test_each_api_request_of_a_minute_is_counted_once_and_a_new_minute_starts_at_one():
    token = ApiToken.objects.create(user=make_user("zed"), name="t", digest="d", prefix="p", created_at=START)
    assert [sql.count_api_request(token.pk, 100) for _ in range(3)] == [1, 2, 3]
    assert sql.count_api_request(token.pk, 101) == 1


def fields_of(row) -> dict:
    return {field.attname: getattr(row, field.attname) for field in type(row)._meta.concrete_fields}


@pytest.mark.parametrize("lock", [False, True])
def test_a_game_read_by_its_id_is_the_orms(lock):
    game = running_game()
    read = sql.game(game.pk, lock=lock)
    assert fields_of(read) == fields_of(Game.objects.get(pk=game.pk))
    assert not read._state.adding and sql.game(0) is None


def test_a_games_seats_are_the_orms_in_their_order_each_knowing_its_game():
    game = running_game()
    Seat.objects.create(game=game, user=make_user("sub"), name="sub", is_substitute=True)
    read = sql.seats(game)
    assert [fields_of(seat) for seat in read] == [fields_of(seat) for seat in game.seats.all()]
    assert all(seat.game is game for seat in read)


def plain_page_posts(game_id: int, thread: str, start: int, stop: int) -> list[tuple]:
    ids = Post.objects.filter(game_id=game_id, thread=thread).order_by("created_at", "pk").values("pk")[start:stop]
    return list(Post.objects.filter(pk__in=ids).order_by("created_at", "pk").values_list(*POST_FIELDS))


def test_a_page_of_a_threads_posts_is_the_orms():
    game = running_game()
    for n in range(7):
        post_message(game.pk, user("ann" if n % 2 else "bob"), f"Post {n}", now=START + timedelta(minutes=n))
    Post.objects.filter(game=game, body="Post 3").update(hidden_at=START, edited_at=START, author=None)
    for start, stop in ((0, 3), (2, 6), (5, 26), (9, 12)):
        assert sql.page_posts(game.pk, Post.Thread.MAIN, start, stop) == plain_page_posts(
            game.pk, Post.Thread.MAIN, start, stop
        )


def plain_lobby_lists(listed: int, finished_listed: int) -> dict[str, tuple]:
    public = Game.objects.filter(visibility=Game.Visibility.PUBLIC)
    players = Count("seats", filter=Q(seats__is_substitute=False))
    opened = public.filter(status=Game.Status.OPEN).annotate(players=players).order_by("lobby_closes_at", "pk")
    running = public.filter(status=Game.Status.RUNNING).order_by("-started_at", "-pk")
    finished = public.filter(status__in=(Game.Status.FINISHED, Game.Status.CANCELLED)).order_by("-finished_at", "-pk")
    return {
        "open_games": tuple(opened.values_list(*sql.OpenGame._fields)[:listed]),
        "running_games": tuple(running.values_list(*sql.RunningGame._fields)[:listed]),
        "finished_games": tuple(finished.values_list(*sql.FinishedGame._fields)[:finished_listed]),
    }


def test_the_lobbys_lists_are_the_orms():
    for n in range(3):
        create_game(make_user(f"host{n}"), name=f"Open {n}")
    Game.objects.filter(name="Open 2").update(visibility=Game.Visibility.UNLISTED, link_key="k")
    running = [running_game(), running_game(), running_game()]
    Game.objects.filter(pk=running[0].pk).update(status=Game.Status.FINISHED, finished_at=START, winner="liberal")
    Game.objects.filter(pk=running[1].pk).update(status=Game.Status.CANCELLED, finished_at=START)
    for listed, finished_listed in ((50, 20), (1, 1)):
        lists = sql.lobby_lists(listed, finished_listed)
        assert {name: tuple(map(tuple, rows)) for name, rows in lists.items()} == plain_lobby_lists(
            listed, finished_listed
        )
    assert [len(rows) for rows in sql.lobby_lists(50, 20).values()] == [2, 1, 2]
