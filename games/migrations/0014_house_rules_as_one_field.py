"""A game's house rules move from a column each into one JSON field, read through the engine's `Settings`
(issue 28): a rule declared later needs no migration, it takes its default in the games made before it."""

from django.db import migrations, models

import games.models.game

# The columns as they were: this migration must not follow later declarations.
BOOLEANS = {
    "hitler_blind_small": False,
    "tracker_resets_on_election": False,
    "execution_vote": False,
    "close_vote_early": True,
    "quiet_legislature": True,
}
CHOICES = {"missing_vote": "abstain", "nomination_timeout": "fail", "power_timeout": "forfeit"}
COLUMNS = [*BOOLEANS, *CHOICES]
BATCH = 500


def into_one_field(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    games = []
    for game in Game.objects.only("pk", *COLUMNS).iterator(chunk_size=BATCH):
        game.house_rules = {name: getattr(game, name) for name in COLUMNS}
        games.append(game)
    Game.objects.bulk_update(games, ["house_rules"], batch_size=BATCH)


def into_columns(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    defaults = {**BOOLEANS, **CHOICES}
    games = []
    for game in Game.objects.only("pk", "house_rules").iterator(chunk_size=BATCH):
        for name in COLUMNS:
            setattr(game, name, (game.house_rules or {}).get(name, defaults[name]))
        games.append(game)
    Game.objects.bulk_update(games, COLUMNS, batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_inbound_dedup_by_person"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="house_rules",
            field=models.JSONField(
                blank=True,
                default=games.models.game.default_house_rules,
                validators=[games.models.game.validate_house_rules],
            ),
        ),
        migrations.RunPython(into_one_field, into_columns),
        *(migrations.RemoveField(model_name="game", name=name) for name in COLUMNS),
        migrations.AlterField(
            model_name="game",
            name="setup",
            field=models.JSONField(
                blank=True,
                help_text="the replay script's set-up (players, seed, rng); its settings: house_rules",
                null=True,
            ),
        ),
    ]
