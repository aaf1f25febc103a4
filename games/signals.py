"""Sent after a transaction that changed a game has committed: announcements and notifications hang here."""

from django.dispatch import Signal

# kwargs: game_id, step_number, events (the new public events, as dicts with their "type")
game_changed = Signal()

# kwargs: game_id, name (the one the game knew them by), user_id (their account, None if it is gone). A person
# waiting for a seat was dropped because they had seen the game's secrets (games.services.play); the moderation
# app records it and tells the moderators.
newcomer_dropped = Signal()

# kwargs: game, user, reason. Someone outside the game was shown a running game's secrets (the admin): games has
# recorded them as a witness; the moderation app puts it in the audit log.
secrets_shown = Signal()
