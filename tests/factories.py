"""Building users, games, tokens, subscriptions, forms and emails for the Django-side tests: the one place where
test modules take shared builders from (tests/test_layout.py keeps test modules from importing each other)."""

import time
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from pathlib import Path

from allauth.account.authentication import AUTHENTICATION_METHODS_SESSION_KEY
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.models import ApiToken, Game, Post, WebhookSubscription
from games.notify.email import send_due_emails
from games.replay import random_script
from games.services.transfer import import_script

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe"]
SHARED_SCENARIOS = Path(__file__).resolve().parents[2] / "shared" / "scenarios"
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

_ROLES = {
    5: ["liberal", "fascist", "hitler", "liberal", "liberal"],
    7: ["liberal", "fascist", "hitler", "fascist", "liberal", "liberal", "liberal"],
}


def make_user(username: str, *, password: str = "pw-for-tests-1", verified: bool = True):
    """A user as the site makes them: with a verified email address (only then may they play), unless not
    `verified`."""
    user, _ = get_user_model().objects.get_or_create(username=username)
    user.email = user.email or f"{username}@example.com"
    user.set_password(password)
    user.save()
    if verified:
        EmailAddress.objects.get_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
    return user


def recorded(session, user, **record) -> None:
    """`session` (a signed-in one) records a way `user` proved who they are, as allauth writes it when they do it
    through its pages (tests/web/test_second_factor.py goes through them)."""
    records = session.get(AUTHENTICATION_METHODS_SESSION_KEY, [])
    session[AUTHENTICATION_METHODS_SESSION_KEY] = [*records, {"at": time.time(), **record}]
    session["account_authentication_methods_user"] = str(user.pk)
    session.save()


def signed_in_with(client: Client, user, **record) -> Client:
    """`client`'s session (signed in by `force_login`) records a way `user` proved who they are."""
    recorded(client.session, user, **record)
    return client


def app_used(session, user) -> None:
    """`user` has an authenticator app, and `session` signed in with it (a moderator's, staff's)."""
    app = Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).first()
    if app is None:
        app = TOTP.activate(user, generate_totp_secret()).instance
    recorded(session, user, method="mfa", id=app.pk, type=app.type)


def with_second_factor(client: Client, user) -> Client:
    """`user` has an authenticator app, and `client`'s session signed in with it."""
    app_used(client.session, user)
    return client


def reauthenticated(client: Client, user) -> Client:
    """`client` was just asked for `user`'s password again (allauth's reauthentication), as before a token is made."""
    return signed_in_with(client, user, method="password", reauthenticated=True)


def strongly_signed_in(client: Client, user) -> Client:
    """`client` signed in as `user` with a second factor, and just asked again (reauthenticated): staff or a moderator
    at work, past every check the admin and the moderation pages make."""
    client.force_login(user)
    return reauthenticated(with_second_factor(client, user), user)


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


def played_to_the_end(players: int, seed: int) -> dict:
    """The replay script of a game played from its deal to its end by random legal moves (games.engine.random_move),
    the deal drawn from `seed`: every power, veto and chaos a long random game meets."""
    return random_script(NAMES[:players], seed)


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


# ann, bob, cat and dan govern, then dan executes eve: a game with a dead player.
EXECUTED = [
    *governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann")),
    {"type": "execute", "by": "dan", "target": "eve"},
]
# The same four governments, then dan executes cat, Hitler: the liberals win.
HITLER_EXECUTED = [*EXECUTED[:-1], {"type": "execute", "by": "dan", "target": "cat"}]


def finished_game(**settings) -> Game:
    """A five-player game the liberals won, its players ann, bob, ... with verified emails (they may make a game)."""
    for name in NAMES[:5]:
        make_user(name)
    game = running_game(actions=HITLER_EXECUTED, **settings)
    return Game.objects.get(pk=game.pk)


# Two games with the same public moves and other roles and hands: nothing anyone is sent or shown may differ.
PLAYERS = NAMES[:5]
# Same enacted policies (four fascist), other hands; the peek after the third shows other cards.
DECK_A = list("FFLFLFFFFFFLLLLFF")
DECK_B = list("FFFFFLFFFFLFLLLLF")
ROLES_A = {"ann": "liberal", "bob": "fascist", "cat": "hitler", "dan": "liberal", "eve": "liberal"}
ROLES_B = {"ann": "fascist", "bob": "liberal", "cat": "liberal", "dan": "hitler", "eve": "liberal"}
ACTIONS = [
    *governments(("ann", "bob"), ("bob", "cat"), ("cat", "dan"), ("dan", "eve")),
    {"type": "execute", "by": "dan", "target": "ann"},
    {"type": "nominate", "by": "eve", "target": "bob"},
    {"type": "timeout"},
]


def form_data(**changes) -> dict:
    """The new-game form as a person fills it in, with `changes`."""
    data = {
        "name": "Friday game",
        "player_count": 5,
        "visibility": "public",
        "close_vote_early": "on",
        "quiet_legislature": "on",
        "missing_vote": "abstain",
        "nomination_timeout": "fail",
        "power_timeout": "forfeit",
        "nomination_hours": 48,
        "election_hours": 168,
        "discard_hours": 24,
        "legislative_hours": 48,
        "veto_reply_hours": 24,
        "veto_enact_hours": 24,
        "power_hours": 48,
        "execution_vote_hours": 48,
        "time_zone": "Europe/Madrid",
        "absence_notice_hours": 24,
        "absence_max_days": 7,
        "lobby_days": 14,
    }
    data.update(changes)
    return data


def token_for(name: str, scope: str = "play") -> str:
    secret = ApiToken.new_secret()
    ApiToken.objects.create(
        user=make_user(name), name="test", digest=ApiToken.digest_of(secret), prefix=secret[:8], scope=scope,
        created_at=timezone.now(),
    )  # fmt: skip
    return secret


class Api:
    """A client of the API as a program is: a token in the Authorization header, JSON in and out."""

    def __init__(self, secret: str | None = None):
        self.client = Client(SERVER_NAME="127.0.0.1")
        self.headers = {"HTTP_AUTHORIZATION": f"Bearer {secret}"} if secret else {}

    def get(self, path: str, **headers):
        return self.client.get(f"/api/v1{path}", **self.headers, **headers)

    def head(self, path: str, **headers):
        return self.client.head(f"/api/v1{path}", **self.headers, **headers)

    def post(self, path: str, body: dict | None = None):
        return self.client.post(f"/api/v1{path}", body or {}, content_type="application/json", **self.headers)

    def put(self, path: str, body: dict | None = None):
        return self.client.put(f"/api/v1{path}", body or {}, content_type="application/json", **self.headers)

    def delete(self, path: str):
        return self.client.delete(f"/api/v1{path}", **self.headers)


def game_now(players: int = 5) -> Game:
    return running_game(players, now=timezone.now())


def subscribe(kind: str, url: str, *, owner: str = "ann", game=None) -> WebhookSubscription:
    return WebhookSubscription.objects.create(
        owner=make_user(owner), kind=kind, game=game, url=url, secret="whsec_test", created_at=timezone.now()
    )


def your_move_email(game: Game, to: str = "ann@example.com"):
    send_due_emails(now=START)
    return next(m for m in mail.outbox if m.to == [to] and game.name in m.subject)


def reply_to(original, body: str, *, sender: str = "ann@example.com", message_id: str = "<r1@mail.example>",
             to: str | None = None, **headers) -> bytes:  # fmt: skip
    """A reply as a mail client writes it: the text, then the email quoted back under an "On ... wrote:" line."""
    reply = EmailMessage(policy=policy.SMTP)
    reply["From"] = f"Ann <{sender}>"
    reply["To"] = to or original.extra_headers["Reply-To"]
    reply["Subject"] = f"Re: {original.subject}"
    reply["Message-ID"] = message_id
    for name, value in headers.items():
        reply[name.replace("_", "-")] = value
    quoted = "\n".join(f"> {line}" for line in original.body.splitlines())
    reply.set_content(f"{body}\n\nOn Mon, 2 Mar 2026 at 12:00, Secret Hitler by post wrote:\n{quoted}\n")
    return reply.as_bytes()


def posts(game: Game) -> list[str]:
    return list(Post.objects.filter(game=game).values_list("body", flat=True))
