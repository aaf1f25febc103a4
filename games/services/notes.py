"""A player's private notes on a game: kept by whoever holds, held or waits for a seat in it, read by
them alone. A spectator or a moderator has no seat row and keeps none: notes are a player's aid to the game, and
a page that showed a notes box to everyone would tell nothing anyway."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Note, Seat
from games.models.notes import NOTES_TOO_LONG

from .errors import GameError
from .play import lock_game


def may_keep_notes(game: Game, user) -> bool:
    return bool(user and user.is_authenticated) and Seat.objects.filter(game=game, user=user).exists()


def notes_of(game: Game, user) -> str:
    """The author's own notes on the game ("" when none): call only for `user` themselves."""
    return Note.objects.filter(game=game, author=user).values_list("body", flat=True).first() or ""


def check_notes(game: Game, user, body: str) -> str:
    """The body as it would be kept, or the GameError `save_notes` would raise: read, not saved."""
    if not may_keep_notes(game, user):
        raise GameError(_("Only the players of this game keep notes on it."), code="not_in_game")
    body = body.replace("\r\n", "\n")
    if len(body) > Note.MAX_BODY:
        raise GameError(NOTES_TOO_LONG % {"show_value": len(body), "limit_value": Note.MAX_BODY}, code="notes_too_long")
    return body


def save_notes(game_id: int, user, body: str, *, now: datetime | None = None) -> bool:
    """Keep `body` as the user's notes on the game (all blank: none are kept). Returns whether any are kept."""
    now = now or timezone.now()
    with transaction.atomic():
        game = lock_game(game_id)
        body = check_notes(game, user, body)
        if not body.strip():
            Note.objects.filter(game=game, author=user).delete()
            return False
        Note.objects.update_or_create(game=game, author=user, defaults={"body": body, "updated_at": now})
        return True
