"""The statistics: the site's finished games by table size and by setting, and a player's record, the
same figures as the statistics page and the profile (games/stats.py)."""

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from ninja import Field, Path, Schema

from games.api.auth import READ
from games.api.common import Router
from games.api.problems import refusals
from games.services import GameError
from games.stats import player_stats, site_rows, site_stats

router = Router()


class Tally(Schema):
    games: int
    liberal_wins: int
    fascist_wins: int
    wins_by_way: dict[str, int] = Field(
        description="games won by each way: liberal_policies, hitler_executed, hitler_exiled (the liberals); "
        "fascist_policies, hitler_elected (the fascists)"
    )
    liberal_win_rate: float | None = Field(description="liberal wins / games; null with no game")
    liberal_win_rate_interval: list[float] | None = Field(
        description="its 95% interval [low, high] (Wilson's score interval); null with no game"
    )
    average_rounds: float | None
    chaos_share: float | None = Field(description="chaos policies / policies enacted; null with none enacted")


class TableSize(Tally):
    players: int


class SettingValue(Tally):
    setting: str = Field(description="a setting that changes the balance (RULES.md), as replay scripts name it")
    value: Any
    default: bool = Field(description="whether the value is RULES.md's default")


class SiteStats(Schema):
    overall: Tally
    by_table_size: list[TableSize]
    by_setting: list[SettingValue]


class ClaimsRecord(Schema):
    matched: int
    did_not_match: int


class PlayerStats(Schema):
    games: int = Field(description="finished games played to their end")
    as_role: dict[str, int] = Field(description="games played as liberal, fascist and hitler")
    played: dict[str, int] = Field(description="games played on each team: liberal, fascist")
    won: dict[str, int] = Field(description="games won on each team")
    claims: ClaimsRecord | None = Field(description="their claims against the cards drawn: only if they show it")


@router.get("/stats", response={200: SiteStats, **refusals(401, 429)}, auth=READ, tags=["read"], url_name="stats")
def stats(request):
    """Every finished game of the site (cancelled games aside): overall, by table size and by value of each
    setting that changes the balance, with the liberals' win rate and its 95% interval."""
    return site_stats(site_rows())


@router.get(
    "/stats/players/{username}", response={200: PlayerStats, **refusals(401, 404, 429)}, auth=READ, tags=["read"]
)
def player(request, username: Path[str]):
    """A player's finished games as each role and won by team; their claims' record if they chose to show it."""
    user = get_user_model().objects.filter(username=username, is_active=True).select_related("profile").first()
    if user is None:
        raise GameError(_("There is no such player."), code="no_such_player")
    profile = getattr(user, "profile", None)
    return player_stats(user, claims=bool(profile and profile.show_claims))
