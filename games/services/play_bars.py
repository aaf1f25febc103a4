"""Users barred from taking a seat for a while: by the moderators' bans in force, read where they are kept."""

from datetime import datetime

from games.models import Ban


def is_barred(user, now: datetime) -> bool:
    return Ban.objects.filter(user=user).in_force(now).exists()
