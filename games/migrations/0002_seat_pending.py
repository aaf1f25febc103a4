import json

from django.conf import settings
from django.db import migrations, models


def rows_for_pending_replacements(apps, schema_editor):
    """Running games' replacements scheduled before this field: the person named gets their pending row, so
    that they are in the game for every check (they may not moderate it nor read its graveyard)."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    for game in Game.objects.filter(status="running").exclude(state=None):
        state = game.state if isinstance(game.state, dict) else json.loads(game.state)  # text from 0004 on
        for kind, _seat, name in state.get("pending", []):
            user = User.objects.filter(username=name).first()
            if kind == "replace" and not Seat.objects.filter(game=game, name=name).exists():
                Seat.objects.create(game=game, user=user, name=name, number=None, active=False, pending=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="pending",
            field=models.BooleanField(
                default=False,
                help_text="named by a moderator to take a seat when the round ends (E8); not seated yet",
            ),
        ),
        migrations.RunPython(rows_for_pending_replacements, migrations.RunPython.noop),
    ]
