"""The statements written as SQL, each checked against the plain ORM's answer (tests/games/test_sql.py): the
live page's fingerprint and the sweep's batch of game rows, on paths that run all the time and that the ORM
measurably slows (the ORM builds them in more time than the database runs them), and the API's request count,
which needs an upsert that returns the count. Everything else reads and writes through the ORM."""

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cache

from django.db import connection

from .api import ApiRequestCount
from .forum import Claim, Post, ThreadRead
from .game import PLAYED_FIELDS, Absence, ActionRecord, Game, Seat
from .notes import Note

# What the fingerprint reads of the game's row: its visibility and link key too (who may read the page at its
# number, and the addresses its links carry).
GAME_FIELDS = ("status", "step_number", "event_count", "waiting", "deadline", "paused_at", "thread_locked", "name",
               "visibility", "link_key")  # fmt: skip
AGGREGATES = ("live_posts", "live_posts_hidden", "live_posts_signed", "live_posts_edited", "live_claims", "live_seats",
              "live_seats_ids", "live_seats_active", "live_own_actions", "live_own_absences",
              "live_own_absences_started", "live_own_absences_over", "live_own_notes", "live_read_mark")  # fmt: skip


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
    models = (Game, Post, Claim, Seat, ActionRecord, Absence, Note, ThreadRead)
    game, post, claim, seat, action, absence, note, read = (connection.ops.quote_name(m._meta.db_table) for m in models)
    fields = ", ".join(f"g.{connection.ops.quote_name(Game._meta.get_field(name).column)}" for name in GAME_FIELDS)
    return f"""
        SELECT {fields}, p.n, p.hidden, p.signed, p.edited, c.n, s.n, s.ids, s.active, a.n, o.n, o.started, o.ended,
               n.saved, r.mark
        FROM {game} g
        CROSS JOIN (SELECT COUNT(*) AS n, SUM(CASE WHEN hidden_at IS NULL THEN 0 ELSE id END) AS hidden,
                           COUNT(author_id) AS signed, MAX(edited_at) AS edited
                    FROM {post} WHERE game_id = %(game)s AND thread = %(thread)s) p
        CROSS JOIN (SELECT COUNT(*) AS n FROM {claim} WHERE game_id = %(game)s) c
        CROSS JOIN (SELECT COUNT(*) AS n, SUM(id) AS ids, SUM(CASE WHEN active THEN 1 ELSE 0 END) AS active
                    FROM {seat} WHERE game_id = %(game)s) s
        CROSS JOIN (SELECT COUNT(*) AS n FROM {action} WHERE game_id = %(game)s AND actor_id = %(viewer)s) a
        CROSS JOIN (SELECT COUNT(*) AS n, SUM(CASE WHEN absence.starts_at <= %(now)s THEN 1 ELSE 0 END) AS started,
                           SUM(CASE WHEN absence.ends_at <= %(now)s OR absence.ended_early_at <= %(now)s
                               THEN 1 ELSE 0 END) AS ended
                    FROM {absence} absence JOIN {seat} own ON own.id = absence.seat_id
                    WHERE own.game_id = %(game)s AND own.user_id = %(viewer)s) o
        CROSS JOIN (SELECT MAX(updated_at) AS saved FROM {note} WHERE game_id = %(game)s AND author_id = %(viewer)s) n
        CROSS JOIN (SELECT MAX(last_read_at) AS mark FROM {read}
                    WHERE game_id = %(game)s AND thread = %(thread)s AND user_id = %(viewer)s) r
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
