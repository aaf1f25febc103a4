"""The channels' one interface (as healthchecks' transports): each way news of the games leaves the site is a
`Channel`, listed in CHANNELS, and hears of every change, notice and post through the same three hooks.

Each hook runs inside the transaction of what it announces, so that nothing rolled back is announced and nothing
committed is lost: a channel writes its outbox rows there, and wakes its worker with `transaction.on_commit`
(games.dispatch.queue_now). It sends nothing slow itself: its outbox does, outside any transaction, at least once.
"""

from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING

from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from games.models import Game, Notification, Post
    from games.services.play import Change

# Dotted paths, read at the first notice: a channel's module imports the models and services it needs, and the
# services import this one. In the order their outboxes are woken.
CHANNELS = ("games.notify.webhooks.Webhooks", "games.notify.push.Push", "games.notify.email.Email")


class Channel:
    """A hook a channel does not need stays as it is here: a no-op."""

    def changes(self, changes: "list[Change]", notices: "list[Notification]") -> None:
        """Games changed (a move, a deadline, a lobby filled), with the notices just made for them (bell.py)."""

    def notices(self, notices: "list[Notification]", now: datetime) -> None:
        """Notices made outside a change: reminders, mentions, absences, a webhook disabled."""

    def post(self, game: "Game", post: "Post", now: datetime) -> None:
        """A new post in one of a game's threads."""


@cache
def channels() -> list[Channel]:
    return [import_string(path)() for path in CHANNELS]


def notify_post(game: "Game", post: "Post", now: datetime) -> None:
    """A new post, for every channel (call in the transaction that made it)."""
    for channel in channels():
        channel.post(game, post, now)


def notify_notices(notices: "list[Notification]", now: datetime) -> None:
    for channel in channels():
        channel.notices(notices, now)
