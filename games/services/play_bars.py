"""Users barred from taking a seat for a while: the moderators' bans write the bar, the lobby reads it."""

from datetime import datetime

from games.models import PlayBar


def set_play_bar(user, until: datetime | None) -> None:
    """`user` may not take a seat until `until`; None lifts the bar."""
    if until is None:
        PlayBar.objects.filter(user=user).delete()
    else:
        PlayBar.objects.update_or_create(user=user, defaults={"until": until})


def is_barred(user, now: datetime) -> bool:
    return PlayBar.objects.filter(user=user, until__gt=now).exists()
