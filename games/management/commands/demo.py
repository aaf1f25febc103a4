"""`manage.py demo`: a moderator, players and games at interesting points, and rated games enough for a
leaderboard, to look around (DEBUG only).

Running it twice changes nothing. Every demo account's password is DEMO_PASSWORD (README: Try it).
"""

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.models import Game
from games.replay import random_script
from games.services import create_game, join_game
from games.services.forum import post_message
from games.services.transfer import import_script

DEMO_PASSWORD = "demo-password-1"
PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
MODERATOR = "moderator"
DECK = list("FFLFFLFFLFFLFFLFL")
FIVE = PLAYERS[:5]
# Each scripted game deals its own roles, as games from the lobby do: nobody's role follows their name or seat.
DEALS = {
    "mid-election": ["fascist", "liberal", "liberal", "hitler", "liberal"],
    "legislative": ["liberal", "liberal", "hitler", "liberal", "fascist"],
    "finished": ["liberal", "hitler", "liberal", "fascist", "liberal"],
    "execution": ["liberal", "liberal", "fascist", "liberal", "hitler"],
}


RATED_TABLES = 10


def rated_table(number: int) -> dict:
    """A finished game of five to eight demo players, played by random legal moves (the same each time)."""
    players = (PLAYERS[number % len(PLAYERS) :] + PLAYERS[: number % len(PLAYERS)])[: 5 + number % 4]
    return random_script(players, number)


def government(president: str, chancellor: str, discard: str, enact: str) -> list[dict]:
    return [
        {"type": "nominate", "by": president, "target": chancellor},
        *({"type": "vote", "by": name, "vote": "ja"} for name in FIVE),
        {"type": "discard", "by": president, "policy": discard},
        {"type": "enact", "by": chancellor, "policy": enact},
    ]


def script(deal: str, actions: list[dict]) -> dict:
    roles = dict(zip(FIVE, DEALS[deal], strict=True))
    return {"players": FIVE, "roles": roles, "deck": DECK, "first_president": "ann", "seed": 5, "actions": actions}


MID_ELECTION = script(
    "mid-election",
    [
        *government("ann", "dan", "F", "L"),
        {"type": "nominate", "by": "bob", "target": "cat"},
        {"type": "vote", "by": "ann", "vote": "nein"},
        {"type": "vote", "by": "bob", "vote": "ja"},
    ],
)
LEGISLATIVE = script("legislative", [*government("ann", "dan", "F", "L"), *government("bob", "eve", "L", "F")[:6]])
# Four fascist policies: dan, the president, owes an execution (R23), the seats he may choose lit on the board.
EXECUTION = script(
    "execution",
    [
        *government("ann", "dan", "L", "F"),
        *government("bob", "eve", "L", "F"),
        *government("cat", "ann", "L", "F"),
        *government("dan", "bob", "L", "F"),
    ],
)
FINISHED = script(
    "finished",
    [
        *government("ann", "dan", "F", "L"),
        *government("bob", "eve", "L", "F"),
        *government("cat", "ann", "F", "L"),
        *government("dan", "bob", "L", "F"),
        *government("eve", "ann", "F", "L"),
        *government("ann", "cat", "F", "L"),
        *government("bob", "dan", "F", "L"),
    ],
)
# The fast game's durations, in minutes: its first deadline passes a minute after its start (the sweep runs every
# 30 seconds), and every later one within a few minutes, so that its timeouts, warnings and exiles happen as you
# watch (README: Try it).
QUICK_MINUTES = {
    "nomination_hours": 1,
    "election_hours": 3,
    "discard_hours": 1,
    "legislative_hours": 2,
    "veto_reply_hours": 1,
    "veto_enact_hours": 1,
    "power_hours": 1,
    "execution_vote_hours": 2,
}
FINISHED["reshuffles"] = [list("LFFLFFLFFFFF")]


class Command(BaseCommand):
    help = "Create demo accounts and games (only with DEBUG on). Running it twice changes nothing."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("demo refuses to run unless DEBUG is on: it creates accounts with known passwords")
        if Game.objects.filter(name__startswith="Demo:").exists():
            self.stdout.write("The demo is already loaded.")
        else:
            with transaction.atomic():
                self._load()
            self.stdout.write("Demo loaded.")
        self.stdout.write(
            f"Sign in at {settings.SITE_URL}/accounts/login/ as any of {', '.join(PLAYERS)} or {MODERATOR} "
            f"(email NAME@example.com), password {DEMO_PASSWORD}"
        )

    def _load(self) -> None:
        users = {name: self._user(name) for name in [*PLAYERS, MODERATOR]}
        moderators, _ = Group.objects.get_or_create(name="moderators")
        users[MODERATOR].groups.add(moderators)
        users[MODERATOR].is_staff = True
        users[MODERATOR].save(update_fields=["is_staff"])
        lobby = create_game(users["fay"], name="Demo: open lobby", player_count=7)
        join_game(lobby.pk, users["gus"])
        election = import_script(MID_ELECTION, name="Demo: mid-election")
        post_message(election.pk, users["ann"], "I voted **Nein**: @cat has been too quiet.")
        post_message(election.pk, users["cat"], "> too quiet\n\nI was asleep. Ja from me, obviously.")
        import_script(LEGISLATIVE, name="Demo: legislative session")
        import_script(FINISHED, name="Demo: finished", rated=True)
        for number in range(RATED_TABLES):  # the leaderboard: every demo player in five rated games or more
            import_script(rated_table(number), name=f"Demo: rated table {number + 1}", rated=True)
        import_script(EXECUTION, name="Demo: an execution to choose")
        quick = create_game(
            users["ann"], name="Demo: minute-long deadlines", player_count=5, minute_durations=True, **QUICK_MINUTES
        )
        for name in ("bob", "cat", "dan", "eve"):
            join_game(quick.pk, users[name])

    def _user(self, name: str):
        user, created = get_user_model().objects.get_or_create(username=name, defaults={"email": f"{name}@example.com"})
        if created or not user.has_usable_password():
            user.email = f"{name}@example.com"
            user.set_password(DEMO_PASSWORD)
            user.save()
        EmailAddress.objects.update_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
        return user
