# The fingerprint of the key the site signs reply addresses with; `migrate` records it when it ends (post_migrate,
# games.notify.signing_key), so a site upgraded has it before the first reply is read.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0020_game_results'),
    ]

    operations = [
        migrations.CreateModel(
            name='SigningKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('fingerprint', models.CharField(max_length=64)),
                ('recorded_at', models.DateTimeField()),
            ],
            options={
                'constraints': [models.CheckConstraint(condition=models.Q(('pk', 1)), name='signing_key_one_row')],
            },
        ),
    ]
