# An unlisted game's secret address (games/u/<link_key>/): strangers no longer read it at its number. The games
# unlisted before get their key here; their old numeric addresses then answer 404 to anyone not in them.

from django.db import migrations, models

from games.models.game import new_link_key


def give_keys(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(visibility="unlisted", link_key="").only("pk").iterator(chunk_size=100):
        Game.objects.filter(pk=game.pk).update(link_key=new_link_key())


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0021_signing_key'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='link_key',
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.RunPython(give_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.UniqueConstraint(condition=models.Q(('link_key', ''), _negated=True), fields=('link_key',), name='game_link_key_unique'),
        ),
    ]
