"""Plain rows read by SQL written out once (the thread's fingerprint and page, the lobby's lists: the ORM's building
of a query cost more than running it), with their moments given as the ORM would give them."""

from collections.abc import Callable
from datetime import datetime

from django.db import connection

from .models import Post


def moment_converter() -> Callable[[object], datetime | None]:
    """A moment as the database gave it, made what the ORM would make of it: PostgreSQL's are datetimes already,
    SQLite's are text (read as UTC). The converters are those of a DateTimeField, any one: they are its type's."""
    column = Post._meta.get_field("created_at").get_col("row")
    converters = connection.ops.get_db_converters(column) + column.field.get_db_converters(connection)

    def convert(value):
        for converter in converters:
            value = converter(value, column, connection)
        return value

    return convert
