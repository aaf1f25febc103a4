"""Channels: how the people of a game, and the services they connect, hear of it and answer it.

The state-change services (games.services) call the functions below, in their transaction, and know no channel:
- `notify_changes(changes)`: games changed; the bell makes the notices they owe (bell.py), then each channel hears
  of the changes and those notices;
- `notify_mentions`, `notify_absence`, `notify_removed`, `notify_settings_changed`, `notify_rematch`: notices made
  outside a change; `notify_post`: a new post in a thread.

Out: `bell.py` (the in-site notices, which the other channels read; `messages.py` says them), `email.py` (the
email outbox; `email_compose.py` writes each email, `unsubscribe.py` its links), `webhooks.py` (the webhooks'
outbox; `webhook_targets.py` the addresses they may reach), `push.py` (Web Push's outbox; `webpush.py` the
protocol: the endpoint's check, the payload's encryption, the VAPID signature), `calendar.py` (the deadlines feed,
read on demand).
In: `replies.py` (a reply by email, posted or made a move; `reply_tokens.py`, `reply_text.py`, `commands.py`).
`failures.py` is the outboxes' one-failure-at-a-time record; `outbox.py` how the webhooks' and the pushes' claim their
rows.

Adding a channel (a chat service, say):
1. a module here with a subclass of `channels.Channel` that writes its outbox rows in the hooks it needs (often
   `changes` alone) and wakes its worker after commit with `games.dispatch.queue_now("games.<its task>")`;
2. its outbox's sending as a function that takes `failures` (failures.py) and returns how many it sent, run by a
   task in games/tasks.py (and beat in settings);
3. its dotted path in `channels.CHANNELS`, and one test file, tests/notify/test_<channel>.py.
"""

from .bell import (
    notify_absence,
    notify_changes,
    notify_mentions,
    notify_rematch,
    notify_removed,
    notify_settings_changed,
)
from .channels import Channel, notify_post

__all__ = [
    "Channel",
    "notify_absence",
    "notify_changes",
    "notify_mentions",
    "notify_post",
    "notify_rematch",
    "notify_removed",
    "notify_settings_changed",
]
