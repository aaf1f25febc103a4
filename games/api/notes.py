"""The caller's private notes on a game: theirs alone, as on the game's page."""

from datetime import datetime
from typing import Annotated

from ninja import Field, Schema
from pydantic import StringConstraints

from games.api.auth import SIGNED, player
from games.api.common import Id, Router, find_game
from games.api.problems import WRITE_REFUSALS, refusals
from games.models import Note
from games.services.notes import check_notes, save_notes

router = Router()


class NotesOut(Schema):
    body: str = Field(description="the caller's notes; empty when they keep none")
    updated_at: datetime | None


class NotesIn(Schema):
    body: Annotated[str, StringConstraints(max_length=Note.MAX_BODY, pattern=r"^[^\x00]*$")] = Field(
        description="the whole notes, replacing the old; empty: none kept"
    )


def _notes(game, user) -> dict:
    note = Note.objects.filter(game=game, author=user).first()
    return {"body": note.body if note else "", "updated_at": note.updated_at if note else None}


@router.get(
    "/games/{game_id}/notes", response={200: NotesOut, **refusals(401, 403, 404, 429)}, auth=SIGNED, tags=["read"]
)
def my_notes(request, game_id: Id):
    """The caller's private notes on a game they play or played in: nobody else can read them."""
    game, user = find_game(request, game_id), request.auth.user
    check_notes(game, user, "")  # only a player keeps notes: anyone else is refused, as on the page
    return _notes(game, user)


@router.put("/games/{game_id}/notes", response={200: NotesOut, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def save_my_notes(request, game_id: Id, payload: NotesIn):
    """Replace the caller's private notes on the game (at most 10,000 characters; empty deletes them)."""
    request.sensitive_post_parameters = "__ALL__"
    user, _token = player(request)
    game = find_game(request, game_id)
    save_notes(game.pk, user, payload.body)
    return _notes(game, user)
