"""The table of Django's default cache (settings.CACHES): allauth's counts of sign-in and second-factor attempts, and
the authenticator codes already used, shared by every process."""

from django.core.management import call_command
from django.db import migrations


def make_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("games", "0032_web_push")]
    operations = [migrations.RunPython(make_table, migrations.RunPython.noop)]
