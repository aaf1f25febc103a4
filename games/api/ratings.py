"""The ratings: the leaderboard overall or in one season, and a player's ratings with their history, the figures
of the leaderboard page and the profile (games/services/ratings.py reads them, games/ratings.py is the model). Only
finished rated games move a rating: a running game shows nowhere here."""

from datetime import datetime
from typing import Annotated

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from ninja import Field, Path, Query, Schema

from games.api.auth import READ
from games.api.common import PAGE, Cursor, Router
from games.api.problems import refusals
from games.models import Rating
from games.models.ratings import OVERALL
from games.services import GameError
from games.services.ratings import LEADERBOARD_MIN_GAMES, history, leaderboard, seasons

router = Router()

Season = Annotated[
    str | None,
    Query(
        pattern=r"^\d{4}-Q[1-4]$",
        max_length=7,
        description="a season, the quarter its games ended in (UTC), as 2026-Q4; none: every season (overall)",
    ),
]
MU = "the skill the ratings give them, its mean (a newcomer's: 25)"
SIGMA = "the uncertainty of that skill, a standard deviation (a newcomer's: 25/3), made smaller by rated games"
CONSERVATIVE = (
    "mu - 3 sigma: the skill they have at least, almost surely (a newcomer's: 0); the leaderboard ranks by it, and a "
    "game's min_rating asks for it"
)
GAMES = "the rated games counted in this rating"


class Figures(Schema):
    mu: float = Field(description=MU)
    sigma: float = Field(description=SIGMA)
    conservative: float = Field(description=CONSERVATIVE)
    games: int = Field(description=GAMES)


class Ranked(Figures):
    rank: int = Field(description="the place on the leaderboard, from 1")
    username: str


class Leaderboard(Schema):
    season: str | None = Field(description="the season shown; null: overall, every season counted")
    seasons: list[str] = Field(description="the seasons with rated games, the latest first")
    min_games: int = Field(description="the rated games a rating must count to be ranked")
    ratings: list[Ranked]


class SeasonFigures(Figures):
    season: str


class Point(Schema):
    game: int = Field(description="the rated game's id")
    url: str = Field(description="the game's page")
    finished_at: datetime
    season: str = Field(description="the season the game counts in")
    role: str = Field(description="the role of the seat they held: liberal, fascist or hitler")
    won: bool = Field(description="as counted for them: a player exiled from their seat lost, whatever their team did")
    share: float = Field(description="the part of the game's rounds they held the seat (a seat that changed hands)")
    mu: float = Field(description=f"after the game: {MU}")
    sigma: float = Field(description=f"after the game: {SIGMA}")
    conservative: float = Field(description=f"after the game: {CONSERVATIVE}")


class PlayerRatings(Schema):
    username: str
    overall: Figures | None = Field(description="their rating over every season; null before their first rated game")
    seasons: list[SeasonFigures] = Field(description="their rating in each season they played in, the latest first")
    history: list[Point] = Field(description="their overall rating after each rated game, the oldest first")


def _figures(rating) -> dict:
    return {"mu": rating.mu, "sigma": rating.sigma, "conservative": rating.mu - 3 * rating.sigma, "games": rating.games}


@router.get("/ratings", response={200: Leaderboard, **refusals(401, 404, 422, 429)}, auth=READ, tags=["read"])
def ratings(request, season: Season = None, after: Cursor = 0):
    """The leaderboard, overall or in one season: the ratings counted from at least `min_games` rated games, best
    conservative figure first, at most 100 from the rank after `after` (the last rank read). A season with no
    rated game is a 404 (no_such_season)."""
    known = seasons()
    if season is not None and season not in known:
        raise GameError(_("No rated game ended in that season."), code="no_such_season")
    rows = leaderboard(season or OVERALL, min_games=LEADERBOARD_MIN_GAMES)[after : after + PAGE]
    ranked = [
        {**_figures(rating), "rank": after + index, "username": rating.user.username}
        for index, rating in enumerate(rows, start=1)
    ]
    return {"season": season, "seasons": known, "min_games": LEADERBOARD_MIN_GAMES, "ratings": ranked}


@router.get(
    "/ratings/players/{username}", response={200: PlayerRatings, **refusals(401, 404, 429)}, auth=READ, tags=["read"]
)
def player_ratings(request, username: Path[str]):
    """A player's rating overall and in each season, and their overall rating after each rated game. A player who
    has played no rated game to its end is answered all the same: a null `overall`, no season and no history."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise GameError(_("There is no such player."), code="no_such_player")
    stored = {rating.season: rating for rating in Rating.objects.filter(user=user).order_by("-season")}
    overall = stored.pop(OVERALL, None)
    return {
        "username": user.username,
        "overall": _figures(overall) if overall else None,
        "seasons": [{**_figures(rating), "season": season} for season, rating in stored.items()],
        "history": [_point(change) for change in history(user, OVERALL)],
    }


def _point(change) -> dict:
    game = change.rated_game.game
    return {
        "game": game.pk,
        "url": game.get_absolute_url(),
        "finished_at": game.finished_at,
        "season": change.rated_game.season,
        "role": change.role,
        "won": change.won,
        "share": change.share,
        "mu": change.mu,
        "sigma": change.sigma,
        "conservative": change.mu - 3 * change.sigma,
    }
