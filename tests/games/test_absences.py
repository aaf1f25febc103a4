"""E4: absences announced in advance, within the game's notice and cap; ended early by a moderator."""

from datetime import timedelta

import pytest

from games.services import GameError, declare_absence, end_absence, sweep_due_deadlines
from tests.factories import START, make_user, running_game

from .helpers import state_of, user

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


def test_e4_an_absence_needs_24_hours_notice():
    game = running_game()
    with pytest.raises(GameError, match="at least 24 hours before"):
        declare_absence(game.pk, user("ann"), START + 23 * HOUR, START + 2 * DAY, now=START)
    declare_absence(game.pk, user("ann"), START + DAY, START + 2 * DAY, now=START)


def test_e4_absences_are_capped_per_player():
    game = running_game()
    declare_absence(game.pk, user("ann"), START + DAY, START + 5 * DAY, now=START)
    with pytest.raises(GameError, match="7 days in all"):
        declare_absence(game.pk, user("ann"), START + 6 * DAY, START + 10 * DAY, now=START)
    declare_absence(game.pk, user("ann"), START + 6 * DAY, START + 9 * DAY, now=START)


def test_e4_absences_must_make_sense():
    game = running_game()
    with pytest.raises(GameError, match="end after it starts"):
        declare_absence(game.pk, user("ann"), START + 3 * DAY, START + 2 * DAY, now=START)
    declare_absence(game.pk, user("ann"), START + DAY, START + 3 * DAY, now=START)
    with pytest.raises(GameError, match="overlaps"):
        declare_absence(game.pk, user("ann"), START + 2 * DAY, START + 4 * DAY, now=START)
    with pytest.raises(GameError, match="Only a player"):
        declare_absence(game.pk, make_user("zed"), START + 5 * DAY, START + 6 * DAY, now=START)


def test_e4_an_absence_ended_early_no_longer_excuses():
    game = running_game()
    absence = declare_absence(game.pk, user("ann"), START + DAY, START + 3 * DAY, now=START)
    end_absence(absence.pk, now=START + 30 * HOUR)
    sweep_due_deadlines(now=START + 48 * HOUR)
    assert state_of(game)["missed"]["ann"] == 1


def test_e4_an_absence_not_yet_begun_is_withdrawn():
    game = running_game()
    absence = declare_absence(game.pk, user("ann"), START + DAY, START + 3 * DAY, now=START)
    end_absence(absence.pk, now=START + HOUR)
    assert not type(absence).objects.exists()
    with pytest.raises(GameError, match="already over"):
        later = declare_absence(game.pk, user("ann"), START + DAY, START + 2 * DAY, now=START)
        end_absence(later.pk, now=START + 3 * DAY)


def test_e4_absences_stored_past_year_9999_before_dates_were_bounded_are_removed():
    """Issue 27: PostgreSQL held them, no Python datetime can; the migration removes them (none ever excused a
    miss) and the reads that raised DataError work again."""
    import importlib

    from django.db import connection
    from django.db.utils import DataError

    from games.models import Absence

    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL could store year 10000")
    game = running_game()
    kept = declare_absence(game.pk, user("ann"), START + DAY, START + 2 * DAY, now=START)
    seat = game.seats.get(name="bob").pk
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO games_absence (seat_id, starts_at, ends_at, created_at) VALUES (%s, "
            "'9999-12-31T23:59:59+14:00', '9999-12-31T23:59:59-14:00', now())",
            [seat],
        )
    with pytest.raises(DataError):
        list(Absence.objects.all())
    migration = importlib.import_module("games.migrations.0012_absences_past_year_9999")
    with connection.schema_editor() as editor:
        migration.remove(None, editor)
    assert list(Absence.objects.all()) == [kept]
