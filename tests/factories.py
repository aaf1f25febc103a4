"""Building users and games for the Django-side tests."""

from datetime import UTC, datetime
from pathlib import Path

from django.contrib.auth import get_user_model

from games.models import Game
from games.services.transfer import import_script

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe"]
SHARED_SCENARIOS = Path(__file__).resolve().parents[2] / "shared" / "scenarios"
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

_ROLES = {
    5: ["liberal", "fascist", "hitler", "liberal", "liberal"],
    7: ["liberal", "fascist", "hitler", "fascist", "liberal", "liberal", "liberal"],
}


def make_user(username: str, *, password: str = "pw-for-tests-1"):
    user, _ = get_user_model().objects.get_or_create(username=username)
    user.email = user.email or f"{username}@example.com"
    user.set_password(password)
    user.save()
    return user


def script(players: int = 5, *, actions: list | None = None, deck: str = "F" * 11 + "L" * 6, **settings) -> dict:
    """A replay script with fixed roles, deck and first president (ann), for games built by import."""
    names = NAMES[:players]
    return {
        "players": names,
        "roles": dict(zip(names, _ROLES[players], strict=True)),
        "deck": list(deck),
        "first_president": "ann",
        "seed": 1,
        "settings": settings,
        "actions": actions or [],
    }


def running_game(players: int = 5, *, actions: list | None = None, now: datetime = START, **settings) -> Game:
    """A running game whose current step started at `now`, its players users named ann, bob, ..."""
    return import_script(script(players, actions=actions, **settings), now=now)


def votes(*names: str, ballot: str = "ja") -> list[dict]:
    return [{"type": "vote", "by": name, "vote": ballot} for name in names]


def governments(*pairs: tuple[str, str], players: int = 5, policy: str = "F") -> list[dict]:
    """Script actions for elected governments (president, chancellor), each enacting `policy`."""
    actions = []
    for president, chancellor in pairs:
        actions.append({"type": "nominate", "by": president, "target": chancellor})
        actions += votes(*NAMES[:players])
        actions.append({"type": "discard", "by": president, "policy": "F"})
        actions.append({"type": "enact", "by": chancellor, "policy": policy})
    return actions
