"""The statements written as SQL, each checked against the plain ORM's answer (tests/games/test_sql.py): those on
paths that run all the time and that the ORM measurably slows, building them in more time than the database runs
them (a game and its seats, which every page and move reads; the live page's fingerprint; a page of a thread's
posts; the lobby's lists; the sweep's batch of game rows), and the API's request count, which needs an upsert
that returns the count. Everything else reads and writes through the ORM."""

from collections import namedtuple
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model

from .api import ApiRequestCount
from .forum import Claim, Post, ThreadRead
from .game import PLAYED_FIELDS, SETTINGS_FIELDS, Absence, ActionRecord, Game, Seat
from .notes import Note
from .profile import Profile, Rename
from .proposals import Proposal, ProposalBallot
from .ratings import RatingChange

User = get_user_model()

# What the fingerprint reads of the game's row: what it is and who may read it at its number (its visibility and
# link key, which its links carry too), its rematch once one is made, the running game, and its settings.
GAME_FIELDS = ("status", "step_number", "event_count", "waiting", "deadline", "paused_at", "thread_locked", "name",
               "visibility", "link_key", "rematch", *SETTINGS_FIELDS)  # fmt: skip
AGGREGATES = ("live_posts", "live_posts_ids", "live_posts_hidden", "live_posts_signed", "live_posts_edited",
              "live_renamed", "live_claims", "live_seats", "live_seats_ids", "live_seats_active", "live_own_actions",
              "live_own_absences", "live_own_absences_started", "live_own_absences_over", "live_own_notes",
              "live_read_mark", "live_proposals", "live_proposals_closed", "live_proposal_ballots",
              "live_ratings")  # fmt: skip


def fingerprint(game_id: int, thread: str, viewer_id: int, now: datetime) -> tuple | None:
    """GAME_FIELDS, then AGGREGATES, of the game, its `thread` and what `viewer_id` (0: nobody) has in it at
    `now`, in one row; None if there is no game. Moments as the database gives them (moment_converter)."""
    params = {"game": game_id, "thread": thread, "viewer": viewer_id}
    with connection.cursor() as cursor:
        cursor.execute(_fingerprint_sql(), params | {"now": connection.ops.adapt_datetimefield_value(now)})
        return cursor.fetchone()


@cache
def _fingerprint_sql() -> str:
    """Each aggregate reads its table once and gives one row, even over no rows. The tables are named from the
    models; the columns are written as the models name them (none sets db_column)."""
    models = (Game, Post, Claim, Seat, Rename, ActionRecord, Absence, Note, ThreadRead, Proposal, ProposalBallot,
              RatingChange)  # fmt: skip
    game, post, claim, seat, rename, action, absence, note, read, proposal, ballot, rated = (
        connection.ops.quote_name(m._meta.db_table) for m in models
    )
    fields = ", ".join(f"g.{connection.ops.quote_name(Game._meta.get_field(name).column)}" for name in GAME_FIELDS)
    return f"""
        SELECT {fields}, p.n, p.ids, p.hidden, p.signed, p.edited, rn.last, c.n, s.n, s.ids, s.active, a.n, o.n,
               o.started, o.ended, n.saved, r.mark, pr.n, pr.closed, pb.n, rt.last
        FROM {game} g
        CROSS JOIN (SELECT COUNT(*) AS n, SUM(id) AS ids, SUM(CASE WHEN hidden_at IS NULL THEN 0 ELSE id END) AS hidden,
                           COUNT(author_id) AS signed, MAX(edited_at) AS edited
                    FROM {post} WHERE game_id = %(game)s AND thread = %(thread)s) p
        CROSS JOIN (SELECT COUNT(*) AS n FROM {claim} WHERE game_id = %(game)s) c
        CROSS JOIN (SELECT COUNT(*) AS n, SUM(id) AS ids, SUM(CASE WHEN active THEN 1 ELSE 0 END) AS active
                    FROM {seat} WHERE game_id = %(game)s) s
        CROSS JOIN (SELECT MAX(id) AS last FROM {rename}) rn
        CROSS JOIN (SELECT COUNT(*) AS n FROM {action} WHERE game_id = %(game)s AND actor_id = %(viewer)s) a
        CROSS JOIN (SELECT COUNT(*) AS n, SUM(CASE WHEN absence.starts_at <= %(now)s THEN 1 ELSE 0 END) AS started,
                           SUM(CASE WHEN absence.ends_at <= %(now)s OR absence.ended_early_at <= %(now)s
                               THEN 1 ELSE 0 END) AS ended
                    FROM {absence} absence JOIN {seat} own ON own.id = absence.seat_id
                    WHERE own.game_id = %(game)s AND own.user_id = %(viewer)s) o
        CROSS JOIN (SELECT MAX(updated_at) AS saved FROM {note} WHERE game_id = %(game)s AND author_id = %(viewer)s) n
        CROSS JOIN (SELECT MAX(last_read_at) AS mark FROM {read}
                    WHERE game_id = %(game)s AND thread = %(thread)s AND user_id = %(viewer)s) r
        CROSS JOIN (SELECT COUNT(*) AS n, COUNT(closed_at) AS closed FROM {proposal} WHERE game_id = %(game)s) pr
        CROSS JOIN (SELECT COUNT(*) AS n FROM {ballot} ballot JOIN {proposal} voted ON voted.id = ballot.proposal_id
                    WHERE voted.game_id = %(game)s) pb
        CROSS JOIN (SELECT MAX(id) AS last FROM {rated}) rt
        WHERE g.id = %(game)s
    """


def moment_converter() -> Callable[[object], datetime | None]:
    """A moment as a statement here gave it, made what the ORM would make of it: PostgreSQL's are datetimes
    already, SQLite's are text (read as UTC). The converters are those of a DateTimeField, any one: they are its
    type's."""
    column = Post._meta.get_field("created_at").get_col("row")
    converters = connection.ops.get_db_converters(column) + column.field.get_db_converters(connection)

    def convert(value):
        for converter in converters:
            value = converter(value, column, connection)
        return value

    return convert


def save_played(games: Sequence[Game]) -> None:
    """Each game's PLAYED_FIELDS, one UPDATE a game sent together in one executemany: what bulk_update writes,
    without building a CASE per field and game (for a sweep's batch, more than the sweep's own work)."""
    fields = [Game._meta.get_field(name) for name in PLAYED_FIELDS]
    rows = [[field.get_db_prep_save(getattr(game, field.attname), connection) for field in fields] + [game.pk]
            for game in games]  # fmt: skip
    with connection.cursor() as cursor:
        cursor.executemany(_save_played_sql(), rows)


@cache
def _save_played_sql() -> str:
    fields = [Game._meta.get_field(name) for name in PLAYED_FIELDS]
    assignments = ", ".join(f"{connection.ops.quote_name(field.column)} = %s" for field in fields)
    return f"UPDATE {connection.ops.quote_name(Game._meta.db_table)} SET {assignments} WHERE id = %s"


def count_api_request(token_id: int, minute: int) -> int:
    """One more request by the token in this minute, counted in one statement every process shares: the count now."""
    with connection.cursor() as cursor:
        cursor.execute(_count_sql(), [token_id, minute])
        (count,) = cursor.fetchone()
    return count


@cache
def _count_sql() -> str:
    table = connection.ops.quote_name(ApiRequestCount._meta.db_table)
    return (
        f"INSERT INTO {table} (token_id, minute, count) VALUES (%s, %s, 1) "
        f"ON CONFLICT (token_id, minute) DO UPDATE SET count = {table}.count + 1 RETURNING count"
    )


def game(game_id: int, *, lock: bool = False) -> Game | None:
    """The game with this id (locked for update if `lock`), or None: what Game.objects.get gives."""
    found = _objects(Game, "id = %(id)s", {"id": game_id}, lock=lock)
    return found[0] if found else None


def seats(game: Game) -> list[Seat]:
    """The game's seats in their order (Seat.Meta: by number, then joining), each knowing its game, as
    game.seats.all() gives them."""
    found = _objects(Seat, "game_id = %(game)s", {"game": game.pk}, order="number, joined_at")
    for seat in found:
        seat.game = game
    return found


def _objects(model: type[Model], where: str, params: dict, *, order: str = "", lock: bool = False) -> list[Model]:
    """The `model`'s rows `where` says (SQL over its columns, %(name)s parameters), locked for update if `lock`
    (where the database can), made as the ORM makes them: every column converted by its field, then
    Model.from_db."""
    with connection.cursor() as cursor:
        cursor.execute(_select(model, where, order, lock and connection.features.has_select_for_update), params)
        found = cursor.fetchall()
    fields = model._meta.concrete_fields
    columns = [field.get_col(model._meta.db_table) for field in fields]
    chains = [(n, column, connection.ops.get_db_converters(column) + column.field.get_db_converters(connection))
              for n, column in enumerate(columns)]  # fmt: skip
    chains = [(n, column, chain) for n, column, chain in chains if chain]
    names = [field.attname for field in fields]
    made = []
    for row in found:
        values = list(row)
        for n, column, chain in chains:
            for converter in chain:
                values[n] = converter(values[n], column, connection)
        made.append(model.from_db(connection.alias, names, values))
    return made


@cache
def _select(model: type[Model], where: str, order: str, lock: bool) -> str:
    columns = ", ".join(connection.ops.quote_name(field.column) for field in model._meta.concrete_fields)
    table = connection.ops.quote_name(model._meta.db_table)
    return (
        f"SELECT {columns} FROM {table} WHERE {where}"
        + (f" ORDER BY {order}" if order else "")
        + (" FOR UPDATE" if lock else "")
    )


# A post as a thread's page shows it (games.presenters.POST_FIELDS), column by column.
POST_COLUMNS = ("p.id", "p.author_id", "p.html", "p.created_at", "p.edited_at", "p.hidden_at", "u.username",
                "f.display_name")  # fmt: skip
POST_MOMENTS = tuple(POST_COLUMNS.index(column) for column in ("p.created_at", "p.edited_at", "p.hidden_at"))


def page_posts(game_id: int, thread: str, start: int, stop: int) -> list[tuple]:
    """Posts `start` to `stop` of the thread, in its order, as plain rows of POST_COLUMNS. Their ids are read from
    the thread's index alone (post_page_idx), then those rows only, joined with their authors: joined first, the
    page after an OFFSET would join and sort every post before it."""
    with connection.cursor() as cursor:
        cursor.execute(_page_sql(), {"game": game_id, "thread": thread, "start": start, "count": stop - start})
        rows = cursor.fetchall()
    convert = moment_converter()
    return [tuple(convert(value) if n in POST_MOMENTS else value for n, value in enumerate(row)) for row in rows]


@cache
def _page_sql() -> str:
    post, user, profile = (connection.ops.quote_name(m._meta.db_table) for m in (Post, User, Profile))
    return f"""
        SELECT {", ".join(POST_COLUMNS)}
        FROM {post} p LEFT JOIN {user} u ON u.id = p.author_id LEFT JOIN {profile} f ON f.user_id = u.id
        WHERE p.id IN (SELECT id FROM {post} WHERE game_id = %(game)s AND thread = %(thread)s
                       ORDER BY created_at, id LIMIT %(count)s OFFSET %(start)s)
        ORDER BY p.created_at, p.id
    """


# The columns each of the lobby's public lists shows (games/_*_games.html), and nothing else: a game row has some
# forty columns.
OpenGame = namedtuple("OpenGame", "pk name players player_count nomination_hours election_hours legislative_hours "
                      "power_hours lobby_closes_at rated min_rating")  # fmt: skip
RunningGame = namedtuple("RunningGame", "pk name deadline")
FinishedGame = namedtuple("FinishedGame", "pk name winner")


def lobby_lists(listed: int, finished_listed: int) -> dict[str, tuple]:
    """The lobby's public open games (by their lobby's closing), running games and finished or cancelled ones (the
    newest first), `listed` of the first two and `finished_listed` of the last, in one round trip."""
    params = {"public": Game.Visibility.PUBLIC, "open": Game.Status.OPEN, "running": Game.Status.RUNNING,
              "finished": Game.Status.FINISHED, "cancelled": Game.Status.CANCELLED, "listed": listed,
              "finished_listed": finished_listed}  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(_lists_sql(), params)
        found = cursor.fetchall()
    moment = moment_converter()
    lists = {"open_games": [], "running_games": [], "finished_games": []}
    opened, running, finished = lists.values()
    for row in found:
        if row[0] == 0:
            opened.append(OpenGame(*row[1:9], moment(row[9]), bool(row[11]), row[12]))
        elif row[0] == 1:
            running.append(RunningGame(row[1], row[2], moment(row[9])))
        else:
            finished.append(FinishedGame(row[1], row[2], row[10]))
    return {name: tuple(games) for name, games in lists.items()}


@cache
def _lists_sql() -> str:
    """Each list (0 open, 1 running, 2 finished) an arm in its own order, in the columns: list, the OpenGame's first
    eight, a moment (the lobby's closing, the deadline), the winner, the open game's rating settings, the place in
    its list. The arms are
    subqueries so that each may have its order and limit (SQLite has no parenthesised arms)."""
    game, seat = (connection.ops.quote_name(model._meta.db_table) for model in (Game, Seat))
    players = f"(SELECT COUNT(*) FROM {seat} s WHERE s.game_id = g.id AND NOT s.is_substitute)"
    public = f"FROM {game} g WHERE g.visibility = %(public)s AND"
    nothing = ", ".join(["CAST(NULL AS integer)"] * 6)  # the open list's counts and durations
    unrated = "CAST(NULL AS boolean), CAST(NULL AS double precision)"  # the open list's rating settings

    def arm(number: int, columns: str, where: str, order: str, limit: str) -> str:
        return f"""SELECT * FROM (SELECT {number} AS list, g.id, g.name, {columns}, ROW_NUMBER() OVER (ORDER BY {order})
                   AS place {public} {where} ORDER BY {order} LIMIT %({limit})s) AS list{number}"""

    opened = arm(0, f"{players}, g.player_count, g.nomination_hours, g.election_hours, g.legislative_hours, "
                 "g.power_hours, g.lobby_closes_at, CAST(NULL AS varchar(16)), g.rated, g.min_rating",
                 "g.status = %(open)s",
                 "g.lobby_closes_at, g.id", "listed")  # fmt: skip
    running = arm(1, f"{nothing}, g.deadline, CAST(NULL AS varchar(16)), {unrated}", "g.status = %(running)s",
                  "g.started_at DESC, g.id DESC", "listed")  # fmt: skip
    finished = arm(2, f"{nothing}, CAST(NULL AS timestamp with time zone), g.winner, {unrated}",
                   "g.status IN (%(finished)s, %(cancelled)s)", "g.finished_at DESC, g.id DESC",
                   "finished_listed")  # fmt: skip
    return f"{opened} UNION ALL {running} UNION ALL {finished} ORDER BY list, place"
