# The seats that owe a move, kept as a list of seat numbers (JSON) rather than a comma-joined string. Converted
# through a second column, since neither database casts "1,3" to JSON: forward, each string is split into its
# numbers; backward, each list is joined again.

from django.db import migrations, models


def to_lists(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    games = Game.objects.exclude(waiting="").only("pk", "waiting")
    _save(Game, games, "waiting_seats", lambda game: [int(seat) for seat in game.waiting.split(",") if seat.strip()])


def to_strings(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    games = Game.objects.exclude(waiting_seats=[]).only("pk", "waiting_seats")
    _save(Game, games, "waiting", lambda game: ",".join(str(seat) for seat in game.waiting_seats))


def _save(Game, games, field: str, value) -> None:
    batch = []
    for game in games.iterator(chunk_size=2000):
        setattr(game, field, value(game))
        batch.append(game)
        if len(batch) == 2000:
            Game.objects.bulk_update(batch, [field])
            batch = []
    Game.objects.bulk_update(batch, [field])


class Migration(migrations.Migration):
    dependencies = [("games", "0023_bans_kept_by_games")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="waiting_seats",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(to_lists, to_strings),
        migrations.RemoveField(model_name="game", name="waiting"),
        migrations.RenameField(model_name="game", old_name="waiting_seats", new_name="waiting"),
        migrations.AlterField(
            model_name="game",
            name="waiting",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="the seat numbers that owe a move now, for the live page's fingerprint",
            ),
        ),
    ]
