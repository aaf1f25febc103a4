"""The lobby: the public games open for sign-ups and running."""

from datetime import datetime

from ninja import Field, Schema

from games.api.auth import READ
from games.api.common import PAGE, Router
from games.api.problems import refusals
from games.models import Game
from games.services.lobby import signed_up

router = Router()
RATED = "whether its result moves its players' ratings (an unlisted game's never does)"
MIN_RATING = (
    "the overall rating a person needs to sign up, as its conservative figure (mu - 3 sigma, a newcomer's: 0); "
    "null: anyone may"
)


class GameSummary(Schema):
    id: int
    name: str
    status: str
    player_count: int
    players: int
    deadline: datetime | None
    url: str
    rated: bool = Field(description=RATED)
    min_rating: float | None = Field(description=MIN_RATING)


class Lobby(Schema):
    open: list[GameSummary]
    running: list[GameSummary]


def _summary(game: Game, players: int) -> dict:
    return {"id": game.pk, "name": game.name, "status": game.status, "player_count": game.player_count,
            "players": players, "deadline": game.deadline, "url": game.get_absolute_url(), "rated": game.is_rated,
            "min_rating": game.min_rating}  # fmt: skip


@router.get("/lobby", response={200: Lobby, **refusals(401, 429)}, auth=READ, tags=["read"])
def lobby(request):
    """The public games open for sign-ups and running (at most 100 of each)."""
    public = Game.objects.filter(visibility=Game.Visibility.PUBLIC).defer("state")
    open_games = public.filter(status=Game.Status.OPEN).annotate(players=signed_up()).order_by("lobby_closes_at", "pk")
    running = public.filter(status=Game.Status.RUNNING).order_by("-started_at", "pk")
    return {
        "open": [_summary(g, g.players) for g in open_games[:PAGE]],
        "running": [_summary(g, g.player_count) for g in running[:PAGE]],
    }
