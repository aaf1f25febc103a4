# Each account's username as it reads on screen (games.names), for the check that refuses a new name a reader could
# take for an existing one; filled here for the accounts made before.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from games.names import skeleton_key

BATCH = 1000


def fill(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    NameSkeleton = apps.get_model("games", "NameSkeleton")
    users = User._default_manager.order_by("pk").values_list("pk", "username")
    rows = []
    for pk, name in users.iterator(chunk_size=BATCH):
        rows.append(NameSkeleton(user_id=pk, key=skeleton_key(name)))
        if len(rows) == BATCH:
            NameSkeleton.objects.bulk_create(rows)
            rows = []
    NameSkeleton.objects.bulk_create(rows)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0027_game_started_notice'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='NameSkeleton',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='name_skeleton', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('key', models.CharField(help_text="the SHA-256 of the username's skeleton (games.names)", max_length=64)),
            ],
            options={
                'indexes': [models.Index(fields=['key'], name='name_skeleton_key')],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
