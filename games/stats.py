"""The statistics communities argue over, from finished public games only (an unlisted game is for
who has its link): site-wide, per table size and per setting that changes the balance, the games, the liberal and
fascist wins by each way of winning, the average rounds and the share of chaos policies, each win rate with its 95%
interval (Wilson's), so that a community can see whether a variant is balanced; and per player, the games played as
each role and won by team, and, if the player chose to show it, how often their claims matched the cards they drew.

Each is one query over what a game's end wrote (games/services/results.py): its number of queries does not grow
with the number of games. The site's page keeps its HTML as a fragment keyed by that query's rows, so a game that
ends is the only thing that makes it anew."""

import json
import math
from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count, Sum

from games.announcements import ROLE
from games.engine.settings import Settings
from games.models import Claim, Game, Seat
from games.ratings import BALANCE, balance_key

# Each way of winning (a game's win_reason), by the team it makes win.
WAYS = {
    "liberal": ("liberal_policies", "hitler_executed", "hitler_exiled"),
    "fascist": ("fascist_policies", "hitler_elected"),
}
SIZES = range(5, 11)
Z = 1.959964  # the 97.5th percentile of the normal distribution: a 95% interval


@dataclass
class Tally:
    """Finished games counted together (a table size, a setting's value, the site)."""

    games: int = 0
    ways: Counter = field(default_factory=Counter)  # games won by each way (win_reason)
    rounds: int = 0
    policies: int = 0
    chaos: int = 0

    def add(self, row: dict) -> None:
        self.games += row["games"]
        self.ways[row["win_reason"]] += row["games"]
        self.rounds += row["rounds"] or 0
        self.policies += row["policies"] or 0
        self.chaos += row["chaos"] or 0

    def wins(self, team: str) -> int:
        return sum(self.ways[way] for way in WAYS[team])

    def as_dict(self) -> dict:
        liberal, fascist = self.wins("liberal"), self.wins("fascist")
        low, high = wilson(liberal, self.games)
        return {
            "games": self.games,
            "liberal_wins": liberal,
            "fascist_wins": fascist,
            "wins_by_way": {way: self.ways[way] for team in WAYS.values() for way in team},
            "liberal_win_rate": liberal / self.games if self.games else None,
            "liberal_win_rate_interval": [low, high] if self.games else None,
            "average_rounds": self.rounds / self.games if self.games else None,
            "chaos_share": self.chaos / self.policies if self.policies else None,
        }


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% interval of a rate seen `successes` times in `trials` (Wilson's score interval: sound at 0 and 1 and
    for few games, where the normal approximation's is not)."""
    if not trials:
        return 0.0, 1.0
    rate, z2 = successes / trials, Z * Z
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def site_rows() -> tuple[tuple, ...]:
    """The finished games grouped by table size, settings and result, in one query: all the site's figures come
    from these rows (and the page's fragment is keyed by them)."""
    finished = Game.objects.filter(status=Game.Status.FINISHED, visibility=Game.Visibility.PUBLIC).exclude(winner="")
    grouped = finished.values("player_count", "house_rules", "win_reason").annotate(
        games=Count("pk"), rounds=Sum("rounds"), policies=Sum("policies"), chaos=Sum("chaos_policies")
    )
    rows = grouped.order_by("player_count", "win_reason")
    return tuple(
        (
            row["player_count"],
            balance_key(row["house_rules"], row["player_count"]),
            row["win_reason"],
            row["games"],
            row["rounds"],
            row["policies"],
            row["chaos"],
        )
        for row in rows
    )


def site_stats(rows: tuple[tuple, ...]) -> dict:
    """Every figure of the site from `site_rows()`: overall, per table size (5 to 10) and per value of each
    setting in BALANCE."""
    overall, sizes, variants = Tally(), {size: Tally() for size in SIZES}, {}
    for size, balance, reason, games, rounds, policies, chaos in rows:
        row = {"win_reason": reason, "games": games, "rounds": rounds, "policies": policies, "chaos": chaos}
        overall.add(row)
        sizes.setdefault(size, Tally()).add(row)
        for name, value in json.loads(balance).items():
            variants.setdefault(name, {}).setdefault(json.dumps(value), Tally()).add(row)
    defaults = Settings().to_dict()
    return {
        "overall": overall.as_dict(),
        "by_table_size": [{"players": size, **tally.as_dict()} for size, tally in sorted(sizes.items())],
        "by_setting": [
            {
                "setting": name,
                "value": json.loads(value),
                "default": json.loads(value) == defaults[name],
                **tally.as_dict(),
            }
            for name in BALANCE
            for value, tally in sorted(variants.get(name, {}).items())
        ],
    }


def player_stats(user, *, claims: bool) -> dict:
    """A player's finished games as each role and won by team (one query), and with `claims` (their choice to
    show it) how many of their claims matched the cards they drew (one more)."""
    public = {"game__status": Game.Status.FINISHED, "game__visibility": Game.Visibility.PUBLIC}
    seats = Seat.objects.filter(user=user, **public).exclude(role="")
    rows = seats.values("role", "game__winner").annotate(games=Count("game", distinct=True))
    roles, won = Counter(), Counter()
    for row in rows:
        roles[row["role"]] += row["games"]
        team = "liberal" if row["role"] == "liberal" else "fascist"
        if row["game__winner"] == team:
            won[team] += row["games"]
    played = {team: sum(roles[role] for role in roles if (role == "liberal") == (team == "liberal"))
              for team in WAYS}  # fmt: skip
    found = {
        "games": sum(roles.values()),
        "as_role": {role: roles[role] for role in ("liberal", "fascist", "hitler")},
        "won": {team: won[team] for team in WAYS},
        "played": played,
        "claims": None,
    }
    if claims:
        mine = Claim.objects.filter(author=user, matched__isnull=False, **public)
        counted = dict(mine.values("matched").annotate(n=Count("pk")).values_list("matched", "n"))
        found["claims"] = {"matched": counted.get(True, 0), "did_not_match": counted.get(False, 0)}
    return found


# The plot of the liberals' win rate by table size (templates/games/_win_rate_plot.html): an SVG 360 x 220, drawn
# here as coordinates, with classes only (the CSP allows no inline style).
PLOT = {"width": 360, "height": 220, "left": 44, "right": 12, "top": 14, "bottom": 34}


def win_rate_plot(by_table_size: list[dict]) -> dict:
    """Each table size's liberal win rate as a point with its 95% interval as a bar, on axes from 0 to 100%."""
    inner_w = PLOT["width"] - PLOT["left"] - PLOT["right"]
    inner_h = PLOT["height"] - PLOT["top"] - PLOT["bottom"]
    step = inner_w / len(SIZES)

    def y(rate: float) -> float:
        return round(PLOT["top"] + inner_h * (1 - rate), 1)

    points = []
    for index, row in enumerate(by_table_size):
        x = round(PLOT["left"] + step * (index + 0.5), 1)
        point = {"x": x, "players": row["players"], "games": row["games"], "rate": row["liberal_win_rate"]}
        if row["games"]:
            low, high = row["liberal_win_rate_interval"]
            point |= {"y": y(row["liberal_win_rate"]), "low": y(low), "high": y(high),
                      "percent": round(100 * row["liberal_win_rate"])}  # fmt: skip
        points.append(point)
    ticks = [{"y": y(share / 100), "label": f"{share}%"} for share in (0, 25, 50, 75, 100)]
    return {**PLOT, "points": points, "ticks": ticks, "axis_y": y(0), "half": y(0.5),
            "label_y": PLOT["height"] - 8, "right_x": PLOT["width"] - PLOT["right"]}  # fmt: skip


# The plot of a player's rating after each rated game (templates/games/_rating_plot.html): an SVG like the one above.
RATING_PLOT = {"width": 360, "height": 200, "left": 40, "right": 12, "top": 12, "bottom": 28}


def rating_plot(history: list) -> dict | None:
    """A player's rating after each rated game (RatingChange rows, oldest first): its mean as a line, the band
    three deviations below it shaded down to the conservative figure the leaderboard ranks by, as a dot a game.
    None with no game."""
    if not history:
        return None
    means = [change.mu for change in history]
    lows = [change.mu - 3 * change.sigma for change in history]
    top, bottom = math.ceil(max(means) / 5) * 5, math.floor(min(lows) / 5) * 5
    if top == bottom:
        top += 5
    inner_w = RATING_PLOT["width"] - RATING_PLOT["left"] - RATING_PLOT["right"]
    inner_h = RATING_PLOT["height"] - RATING_PLOT["top"] - RATING_PLOT["bottom"]

    def x(index: int) -> float:
        return round(RATING_PLOT["left"] + inner_w * ((index + 0.5) / len(history)), 1)

    def y(value: float) -> float:
        return round(RATING_PLOT["top"] + inner_h * (top - value) / (top - bottom), 1)

    points = [
        {"x": x(i), "mean": y(change.mu), "low": y(change.mu - 3 * change.sigma), "number": i + 1,
         "conservative": change.mu - 3 * change.sigma, "mu": change.mu, "sigma": change.sigma, "won": change.won,
         "game": change.rated_game.game, "role_name": ROLE[change.role](),
         "share": change.share, "percent": round(100 * change.share)}
        for i, change in enumerate(history)
    ]  # fmt: skip
    band = [f"{p['x']},{p['mean']}" for p in points] + [f"{p['x']},{p['low']}" for p in reversed(points)]
    step = max(5, math.ceil((top - bottom) / 4 / 5) * 5)
    ticks = [{"y": y(value), "label": str(value)} for value in range(bottom, top + 1, step)]
    return {**RATING_PLOT, "points": points, "band": " ".join(band), "line": " ".join(band[: len(points)]),
            "ticks": ticks, "right_x": RATING_PLOT["width"] - RATING_PLOT["right"],
            "label_y": RATING_PLOT["height"] - 8}  # fmt: skip
