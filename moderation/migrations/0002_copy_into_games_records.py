"""Copy the moderators' bans in force and who has seen a running game's secrets into games' own records
(issue 28): games reads them there and never imports moderation; moderation writes them from now on."""

from django.db import migrations
from django.db.models import F, Max, Min


def copy_bars(apps, schema_editor):
    """A bar for each user with a ban in force, to its longest's end."""
    Ban = apps.get_model("moderation", "Ban")
    PlayBar = apps.get_model("games", "PlayBar")
    bars = Ban.objects.filter(lifted_at=None).values("user_id").annotate(until=Max("until"))
    PlayBar.objects.bulk_create(PlayBar(user_id=row["user_id"], until=row["until"]) for row in bars)


def copy_witnesses(apps, schema_editor):
    """A witness for each moderator with an audit entry on a game written once it had started, from their first."""
    AuditEntry = apps.get_model("moderation", "AuditEntry")
    SecretWitness = apps.get_model("games", "SecretWitness")
    seen = (
        AuditEntry.objects.filter(actor__isnull=False, game__started_at__isnull=False)
        .filter(created_at__gte=F("game__started_at"))
        .values("game_id", "actor_id")
        .annotate(seen_at=Min("created_at"))
    )
    SecretWitness.objects.bulk_create(
        SecretWitness(game_id=row["game_id"], user_id=row["actor_id"], seen_at=row["seen_at"]) for row in seen
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_play_bars_and_secret_witnesses"),
        ("moderation", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(copy_bars, migrations.RunPython.noop),
        migrations.RunPython(copy_witnesses, migrations.RunPython.noop),
    ]
