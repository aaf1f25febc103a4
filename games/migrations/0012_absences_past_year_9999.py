# Issue 27: absences announced before dates were bounded, ending at or after year 10000 in UTC. PostgreSQL stored
# them, but no Python datetime can hold them: reading one raised DataError, and the player's pages with it. None
# ever covered a deadline (an absence lasts at most 90 days, so it began in year 9999): they are removed.
# SQLite could never store them (the conversion to UTC overflowed before the insert).

from django.db import migrations

PAST_YEAR_9999 = "DELETE FROM games_absence WHERE ends_at >= '10000-01-01 00:00:00+00' OR starts_at >= '9999-01-01'"


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PAST_YEAR_9999)


class Migration(migrations.Migration):
    dependencies = [("games", "0011_outbox_failures")]

    operations = [migrations.RunPython(remove, migrations.RunPython.noop)]
