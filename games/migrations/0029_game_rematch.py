import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0028_name_skeletons'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='rematch',
            field=models.OneToOneField(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rematch_of', to='games.game'),
        ),
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=[('your_move', 'Your move'), ('reminder', 'Deadline reminder'), ('warning', 'Missed-round warning'), ('exiled', 'Exile'), ('absence', 'Absence confirmed'), ('event', 'Game event'), ('mention', 'Mention'), ('webhook', 'Webhook disabled'), ('game_over', 'Game over'), ('game_started', 'Game started'), ('seated', 'Seat taken over'), ('removed', "Removed from a game's sign-ups"), ('settings', 'Game settings changed'), ('proposal', 'Proposal of the table'), ('rematch', 'Invitation to a rematch')], max_length=12),
        ),
        migrations.AlterField(
            model_name='profile',
            name='email_moves',
            field=models.BooleanField(default=True, verbose_name='email me when my games start, when I take over a seat, when it is my move, when my games end and when I am invited to a rematch'),
        ),
    ]
