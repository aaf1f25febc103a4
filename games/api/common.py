"""What the operations of every resource share: their router, the path and cursor parameters, the page size, the
game a path names (by its number, or an unlisted game by its link key), and a write's answer."""

from typing import Annotated, Any

import ninja
from django.utils.translation import gettext as _
from ninja import Field, Path, Query, Schema

from games.access import may_read_at_number
from games.models import Game
from games.services import GameError

MAX_ID = 10**18  # as the site's <id:...> converter: a bigger number is no row, and PostgreSQL refuses it
PAGE = 100
Id = Annotated[int, Path(ge=1, le=MAX_ID)]
Cursor = Annotated[int, Query(ge=0, le=MAX_ID)]
LinkKey = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{22,64}$", description="an unlisted game's link key")]


class Router(ninja.Router):
    def get(self, path: str, **kwargs):
        """Every read answers HEAD too: as GET, with the same ETag and 304, without the body (HTTP semantics,
        RFC 9110 9.3.2; the body is dropped by sh_site.middleware.api_etags)."""
        return self.api_operation(["GET", "HEAD"], path, **kwargs)


def find_game(request, game_id: int, *fields: str) -> Game:
    """The game with this number, for the caller (the token's owner, or nobody): an unlisted game is no game to a
    stranger here, as on the site (games.access). `fields`: read only those (with what the check needs)."""
    games = Game.objects.filter(pk=game_id)
    game = (games.only(*fields, "visibility", "created_by") if fields else games).first()
    if game is None or not may_read_at_number(game, request.auth.user):
        raise GameError(_("There is no such game."), code="no_such_game")
    return game


def find_unlisted_game(key: str) -> Game:
    """The unlisted game whose link key this is: whoever holds the key reads it."""
    game = Game.objects.filter(link_key=key, visibility=Game.Visibility.UNLISTED).first()
    if game is None:
        raise GameError(_("There is no such game."), code="no_such_game")
    return game


class Done(Schema):
    done: bool = True
    events: list[dict[str, Any]] = []


class MoveDone(Done):
    message: str = Field(
        description="what the move did, in the player's words and language (a ballot that closed "
        "the vote says so, with the result)"
    )
