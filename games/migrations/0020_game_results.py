# Issue 31: what the statistics read of a finished game (games/stats.py), written when a game ends from now on
# (games/services/results.py), and here for the games that ended before: their rounds, policies and chaos
# policies, each seat's role, whether each claim matched the cards drawn; and a player's choice to show that.

from django.db import migrations, models

from games.engine import codec
from games.engine.settings import HouseRules
from games.services.results import write


def backfill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameEvent = apps.get_model("games", "GameEvent")
    Seat = apps.get_model("games", "Seat")
    Claim = apps.get_model("games", "Claim")
    ended = Game.objects.filter(status__in=("finished", "cancelled"), state__isnull=False).order_by("pk")
    for game in ended.iterator(chunk_size=100):
        state = codec.decode(game.state, HouseRules.from_dict(game.house_rules).for_engine())
        write(game, state, GameEvent.objects.filter(game=game, type="chaos").count(), Seat.objects, Claim.objects)
        game.save(update_fields=["rounds", "policies", "chaos_policies"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_post_page_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="claim",
            name="matched",
            field=models.BooleanField(help_text="whether the cards were those really drawn: set at the end", null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="chaos_policies",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="policies",
            field=models.PositiveIntegerField(blank=True, help_text="enacted, chaos's included", null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="rounds",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="profile",
            name="show_claims",
            field=models.BooleanField(
                default=False,
                verbose_name="show on my profile how often my claims matched the cards I drew (finished games)",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="role",
            field=models.CharField(blank=True, help_text="the seat's role, written when the game ends", max_length=10),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
