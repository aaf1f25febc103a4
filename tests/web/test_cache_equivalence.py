"""Every cached page is the page its templates render with nothing kept, over random sequences of changes.

Seeded sequences of posts, moves, edits, hides and restores, renamed authors, pauses, locks and a visitor signing
in and out change a running game; after each, every reader (a visitor, a player, a spectator, a moderator, each in
a language and a time zone drawn anew) reads the lobby, the statistics and the thread's pages twice with the caches
on (made, then kept) and once with them bypassed (games.fragments.bypassed), and the three must be the same but for
the request's own values (the forms' CSRF token, the live tag). A conditional request with the ETag the reader was
last given answers 304 exactly when the page rendered with nothing kept is unchanged: never a stale page, and within
the minute never a page sent again for nothing."""

import difflib
import random
import re
from contextlib import contextmanager, suppress
from datetime import datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.db import transaction
from django.test import Client

from games import fragments
from games.engine import random_move
from games.engine.notation import write_move
from games.models import Game, Post, Profile
from games.services import GameError, lock_thread, make_move, pause, resume, unlock_thread
from games.services.forum import edit_post, post_message
from games.views.thread import PAGE_SIZE
from moderation.services import set_post_hidden
from tests.factories import START, make_user, running_game

pytestmark = pytest.mark.django_db

SEEDS = range(3)
STEPS = 12
LANGUAGES = ("en", "fr", "pl", "es")
ZONES = ("UTC", "Europe/Warsaw", "America/Mexico_City")
OWN_VALUES = [
    re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'),
    re.compile(r'(data-etag=")[^"]*'),
]


def without_own_values(page: str, now: datetime) -> str:
    """The page without this request's values: its CSRF tokens, its live tag, and its moment (a page with no post
    yet says it was read up to the moment it was asked for)."""
    for pattern in OWN_VALUES:
        page = pattern.sub(r"\1-", page)
    moment = now.isoformat()
    page = page.replace(f'data-read="{moment}"', 'data-read="-"')
    return page.replace(f'value="{moment}"></form>', 'value="-"></form>')


def difference(before: str, now: str) -> str:
    return "\n".join(difflib.unified_diff(before.splitlines(), now.splitlines(), lineterm="", n=1))


@contextmanager
def undone():
    """What a request writes (a reader's read mark) undone after it: each rendering of a page sees the same rows."""
    point = transaction.savepoint()
    try:
        yield
    finally:
        transaction.savepoint_rollback(point)


class Sequence:
    def __init__(self, seed: int, settings):
        self.pick = random.Random(seed)
        self.now = START
        self.game = running_game(now=self.now)
        settings.POSTS_PER_MINUTE = settings.POSTS_PER_HOUR = 1000
        for number in range(PAGE_SIZE - 2):  # a few posts more and the thread has a second page
            post_message(self.game.pk, self.pick.choice(self.game_users()), f"Post {number}", now=self.now)
        self.now += timedelta(seconds=1)  # no read mark is the moment a page is read (without_own_values)
        self.moderator = make_user("mod")
        self.moderator.groups.add(Group.objects.get(name="moderators"))
        self.readers = {"visitor": Client(), "spectator": Client(), "player": Client(), "moderator": Client()}
        self.readers["spectator"].force_login(make_user("zed"))
        self.players = self.game_users()
        self.readers["player"].force_login(self.players[0])
        self.readers["moderator"].force_login(self.moderator)
        self.asking = dict.fromkeys(self.readers, ("en", "UTC"))  # each reader's language and zone
        self.held: dict[tuple[str, str], tuple] = {}  # what each reader was last given of each page, and when
        self.counted = {"304": 0, "200": 0}

    def game_users(self) -> list:
        return [seat.user for seat in self.game.seats.select_related("user").order_by("number")]

    def step(self) -> str:
        self.now += timedelta(seconds=self.pick.choice((1, 5, 40, 3600)))
        changes = [self.post, self.post, self.post, self.move, self.move, self.move, self.edit, self.hide,
                   self.rename, self.pause, self.lock, self.sign_in, self.nothing]  # fmt: skip
        change = self.pick.choice(changes)
        # A change refused (a paused game, a locked thread) changes nothing: the pages must agree on that too.
        with time_machine.travel(self.now, tick=False), suppress(GameError):
            change()
        return change.__name__

    def post(self) -> None:
        author = self.pick.choice(self.players)
        post_message(self.game.pk, author, f"Said at {self.now:%H:%M:%S}, **{self.pick.randrange(1000)}**")

    def move(self) -> None:
        """A few moves at random (a round's ballots come together, so that the game moves on)."""
        for _ in range(self.pick.randrange(1, 8)):
            game = Game.objects.get(pk=self.game.pk)
            state = game.load_state()
            if state.over or game.paused_at:
                return
            action = write_move(state, random_move(state, self.pick))
            by = action.pop("by")
            user = next(seat.user for seat in game.seats.select_related("user") if seat.name == by)
            make_move(game.pk, user, action, game.step_number)

    def edit(self) -> None:
        post = self._a_post()
        if post is not None and post.author is not None:
            edit_post(post.pk, post.author, f"{post.body} (edited {self.pick.randrange(1000)})")

    def hide(self) -> None:
        post = self._a_post()
        if post is not None:
            set_post_hidden(self.moderator, post.pk, post.hidden_at is None, "a reason")

    def rename(self) -> None:
        user = self.pick.choice(self.players)
        Profile.objects.update_or_create(user=user, defaults={"display_name": f"Name {self.pick.randrange(1000)}"})

    def sign_in(self) -> None:
        """The visitor signs in (a reader with no seat), or out again: the same pages, now theirs."""
        client = self.readers["visitor"]
        if "_auth_user_id" in client.session:
            client.logout()
        else:
            client.force_login(make_user("walker"))

    def pause(self) -> None:
        (resume if Game.objects.get(pk=self.game.pk).paused_at else pause)(self.game.pk, self.moderator)

    def lock(self) -> None:
        locked = Game.objects.get(pk=self.game.pk).thread_locked
        (unlock_thread if locked else lock_thread)(self.game.pk, self.moderator)

    def nothing(self) -> None:
        pass

    def _a_post(self) -> Post | None:
        posts = list(Post.objects.filter(game=self.game).select_related("author"))
        return self.pick.choice(posts) if posts else None

    def urls(self) -> list[str]:
        pages = -(-Post.objects.filter(game=self.game, thread=Post.Thread.MAIN).count() // PAGE_SIZE)
        thread = f"/games/{self.game.pk}/"
        return ["/", "/stats/", thread] + [f"{thread}?page={number}" for number in range(2, pages + 1)]

    def read_everything(self) -> None:
        for reader, client in self.readers.items():
            if self.pick.random() < 0.3:
                self.asking[reader] = (self.pick.choice(LANGUAGES), self.pick.choice(ZONES))
            language, client.cookies["tz"] = self.asking[reader]
            graveyard = [] if reader in ("visitor", "player") else [f"/games/{self.game.pk}/graveyard/"]
            for url in self.urls() + graveyard:
                self.compare(reader, client, url, language)

    def compare(self, reader: str, client: Client, url: str, language: str) -> None:
        asked = {"HTTP_ACCEPT_LANGUAGE": language}
        where = f"{reader} reading {url} in {self.asking[reader]}"
        with time_machine.travel(self.now, tick=False):
            with undone(), fragments.bypassed():
                plain = client.get(url, **asked)
            assert plain.status_code == 200, where
            plain_page = without_own_values(plain.content.decode(), self.now)
            before = self.held.get((reader, url))
            if before is not None:
                with undone():
                    again = client.get(url, HTTP_IF_NONE_MATCH=before[0], **asked)
                changed = plain_page != before[1]
                if changed:
                    assert again.status_code == 200, f"a stale 304: {where}\n{difference(before[1], plain_page)}"
                elif reader == "visitor" and before[2:] == (self.asking[reader], self.now.replace(second=0)):
                    assert again.status_code == 304, f"an unchanged page sent again: {where}"
                self.counted[str(again.status_code)] = self.counted.get(str(again.status_code), 0) + 1
            with undone():
                made = client.get(url, **asked)
            kept = client.get(url, **asked)
        for response in (made, kept):
            assert without_own_values(response.content.decode(), self.now) == plain_page, f"cached differs: {where}"
        minute = self.now.replace(second=0)
        if "ETag" in kept:
            self.held[(reader, url)] = (kept["ETag"], plain_page, self.asking[reader], minute)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_cached_page_is_the_page_rendered_with_nothing_kept(seed, settings):
    settings.FRAGMENT_CHECK = False  # the comparison here is the check, made on whole pages
    sequence = Sequence(seed, settings)
    sequence.read_everything()
    done = []
    for _ in range(STEPS):
        done.append(sequence.step())
        sequence.read_everything()
    assert sequence.counted["304"] and sequence.counted["200"], (done, sequence.counted)


def test_a_renamed_author_is_no_stale_304(client):
    game = running_game(now=START)
    post_message(game.pk, game.seats.get(number=1).user, "Hello", now=START)
    with time_machine.travel(START + timedelta(seconds=1), tick=False):
        first = client.get(f"/games/{game.pk}/")
        Profile.objects.update_or_create(user=game.seats.get(number=1).user, defaults={"display_name": "Renamed"})
        again = client.get(f"/games/{game.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and b"Renamed" in again.content


def test_a_renamed_username_is_no_stale_304(client):
    """The profile link beside each post holds the username: renamed (in the admin), the page is news."""
    game = running_game(now=START)
    author = game.seats.get(number=1).user
    post_message(game.pk, author, "Hello", now=START)
    with time_machine.travel(START + timedelta(seconds=1), tick=False):
        first = client.get(f"/games/{game.pk}/")
        author.username = "someone-else"
        author.save()
        again = client.get(f"/games/{game.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and b"/users/someone-else/" in again.content
