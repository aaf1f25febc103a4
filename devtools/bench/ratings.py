"""Simulated leagues for `manage.py bench_ratings`, and the three rating systems it measures on them.

A league is a few hundred players whose skills are known to the simulation and hidden from the systems, who play
one game after another. Each game has a table size (5 to 10) and a variant of the house rules; its players are
picked at random, the more active ones more often; roles are dealt as the rules deal them. The winner is drawn
from a known model that is not the site's: the liberals' chance at equal skill is set by the table size and the
variant (`SIDE_CHANCE`), and a side's skill is the mean of its seats' skills, Hitler's seat counting for
`HITLER_WEIGHT` of another fascist's. A few seats change hands during a game (a substitute takes the rest of the
game, `Holder.share`), and a few players are exiled, which also costs their side; so the site's handling of shares
and exiles is measured too. A league is fully determined by its seed.

The systems see the same games in the same order and predict each one before they learn its result:
- `Elo`: secrethitler.io's way: one number a player (1600 at first), a side rated as its members' average, every
  member moved by the same fixed K times the surprise;
- `PlainOpenSkill`: openskill's `BradleyTerryFull` with its defaults, a side a team of its players' ratings, no
  side terms;
- `Ours`: games/ratings.py as the site feeds it: dynamics added to every rating that plays, the liberals' baseline
  from the results seen so far (`Baselines`), predict, rate, then the result added to the baselines.
Neither baseline knows of seats changing hands: each seat counts for the player who held it longest.
"""

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

from games.ratings import Baselines, Holder, SeatPlayed, Skill, predict, rate, with_dynamics

LIBERALS = {5: 3, 6: 4, 7: 4, 8: 5, 9: 5, 10: 6}  # the rules' deal: the rest are fascists, one of them Hitler
VARIANTS = ("standard", "rebalanced", "house")  # the settings keys the systems see
VARIANT_WEIGHTS = (0.6, 0.3, 0.1)
# The liberals' chance at equal skill, by table size, for each variant in VARIANTS' order: what a system has to find.
SIDE_CHANCE = {
    5: (0.55, 0.50, 0.60),
    6: (0.60, 0.52, 0.45),
    7: (0.42, 0.50, 0.38),
    8: (0.50, 0.55, 0.44),
    9: (0.35, 0.45, 0.40),
    10: (0.46, 0.52, 0.58),
}
HITLER_WEIGHT = 0.5  # Hitler's skill counts for half a fascist's in the fascists' mean: the role hides and waits
ACTIVITY_SPREAD = 0.6  # a player's activity is exp(N(0, this)): the most active play several times the least
SUBSTITUTE = 0.02  # a seat's chance to change hands during a game
EXILE = 0.05  # a game's chance that one of its players is exiled and replaced
EXILE_COST = 0.3  # what an exile costs the exiled player's side, in the logit of its chance
SHARE_RANGE = (0.2, 0.8)  # the part of the game's rounds the first holder of a changed seat held it


@dataclass(frozen=True)
class SimulatedGame:
    players: int
    variant: str
    seats: list[SeatPlayed]
    chance: float  # the liberals' chance by the known model
    liberals_won: bool


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def logit(p: float) -> float:
    return math.log(p / (1 - p))


@dataclass
class League:
    """The hidden skills (N(0, 1)) and activities of `players` players; `games()` draws their games."""

    seed: int
    players: int
    skill_effect: float = 1.0  # the known model's weight of the sides' difference in mean skill, in logits

    def __post_init__(self):
        self.rnd = random.Random(self.seed)
        self.skills = [self.rnd.gauss(0, 1) for _ in range(self.players)]
        self.activity = [math.exp(self.rnd.gauss(0, ACTIVITY_SPREAD)) for _ in range(self.players)]

    def games(self) -> Iterator[SimulatedGame]:
        while True:
            yield self._game()

    def _pick(self, count: int, besides: set[int] = frozenset()) -> list[int]:
        """`count` players by activity, none twice nor from `besides` (Efraimidis and Spirakis's weighted draw)."""
        keys = ((self.rnd.random() ** (1 / weight), key) for key, weight in enumerate(self.activity))
        return [key for _order, key in sorted(keys, reverse=True) if key not in besides][:count]

    def _game(self) -> SimulatedGame:
        rnd = self.rnd
        players = rnd.randint(5, 10)
        variant = rnd.choices(VARIANTS, VARIANT_WEIGHTS)[0]
        table = self._pick(players)  # in random order: the first are the liberals, then Hitler, then fascists
        liberals = LIBERALS[players]
        changed = [seat for seat in range(players) if rnd.random() < SUBSTITUTE]
        exiled = rnd.randrange(players) if rnd.random() < EXILE else None
        if exiled is not None and exiled not in changed:
            changed.append(exiled)
        newcomers = dict(zip(changed, self._pick(len(changed), set(table)), strict=True))
        seats = []
        for seat, key in enumerate(table):
            side = "liberal" if seat < liberals else "fascist"
            if seat in newcomers:
                share = rnd.uniform(*SHARE_RANGE)
                holders = (Holder(key, share, seat == exiled), Holder(newcomers[seat], 1 - share))
            else:
                holders = (Holder(key),)
            seats.append(SeatPlayed(side, holders))
        chance = self._chance(seats, players, variant, exiled)
        return SimulatedGame(players, variant, seats, chance, rnd.random() < chance)

    def _chance(self, seats: list[SeatPlayed], players: int, variant: str, exiled: int | None) -> float:
        liberals = LIBERALS[players]
        skill = [sum(holder.share * self.skills[holder.key] for holder in seat.holders) for seat in seats]
        weights = [1.0] * liberals + [HITLER_WEIGHT] + [1.0] * (players - liberals - 1)
        liberal = sum(skill[:liberals]) / liberals
        fascist = sum(w * s for w, s in zip(weights[liberals:], skill[liberals:], strict=True)) / sum(
            weights[liberals:]
        )
        x = logit(SIDE_CHANCE[players][VARIANTS.index(variant)]) + self.skill_effect * (liberal - fascist)
        if exiled is not None:
            x += EXILE_COST if exiled >= liberals else -EXILE_COST
        return sigmoid(x)


def main_holders(game: SimulatedGame, side: str) -> list[object]:
    """A side's players as a system that knows nothing of seats changing hands sees them: each seat's longest."""
    return [max(seat.holders, key=lambda holder: holder.share).key for seat in game.seats if seat.team == side]


class Elo:
    name = "Elo (secrethitler.io)"
    START, K = 1600.0, 32.0

    def __init__(self, players: int):
        self.ratings = [self.START] * players

    def predict(self, game: SimulatedGame) -> float:
        liberal, fascist = (self._average(main_holders(game, side)) for side in ("liberal", "fascist"))
        return 1 / (1 + 10 ** ((fascist - liberal) / 400))

    def update(self, game: SimulatedGame, predicted: float) -> None:
        surprise = game.liberals_won - predicted  # the liberals'; the fascists' is its opposite
        for side, sign in (("liberal", 1), ("fascist", -1)):
            for key in main_holders(game, side):
                self.ratings[key] += sign * self.K * surprise

    def _average(self, keys: list[int]) -> float:
        return sum(self.ratings[key] for key in keys) / len(keys)

    def scores(self) -> list[float]:
        return list(self.ratings)

    def conservative(self) -> None:
        return None


class PlainOpenSkill:
    name = "OpenSkill (plain)"

    def __init__(self, players: int):
        self.model = BradleyTerryFull()
        self.ratings = [self.model.rating() for _ in range(players)]

    def _teams(self, game: SimulatedGame) -> list[list]:
        return [[self.ratings[key] for key in main_holders(game, side)] for side in ("liberal", "fascist")]

    def predict(self, game: SimulatedGame) -> float:
        return self.model.predict_win(self._teams(game))[0]

    def update(self, game: SimulatedGame, predicted: float) -> None:
        rated = self.model.rate(self._teams(game), ranks=[0, 1] if game.liberals_won else [1, 0])
        for side, team in zip(("liberal", "fascist"), rated, strict=True):
            for key, rating in zip(main_holders(game, side), team, strict=True):
                self.ratings[key] = rating

    def scores(self) -> list[float]:
        return [rating.mu for rating in self.ratings]

    def conservative(self) -> list[float]:
        return [rating.mu - 3 * rating.sigma for rating in self.ratings]


class Ours:
    name = "ours"

    def __init__(self, players: int):
        self.skills = [Skill()] * players
        self.baselines = Baselines()
        self.before: dict = {}
        self.chance = 0.5

    def predict(self, game: SimulatedGame) -> float:
        keys = [holder.key for seat in game.seats for holder in seat.holders]
        self.before = {key: with_dynamics(self.skills[key]) for key in keys}
        self.chance = self.baselines.chance(game.players, game.variant)
        return predict(game.seats, self.before, self.chance)

    def update(self, game: SimulatedGame, predicted: float) -> None:
        for key, update in rate(game.seats, self.before, game.liberals_won, self.chance).items():
            self.skills[key] = update.after
        self.baselines.add(game.players, game.variant, game.liberals_won)

    def scores(self) -> list[float]:
        return [skill.mu for skill in self.skills]

    def conservative(self) -> list[float]:
        return [skill.conservative for skill in self.skills]


SYSTEMS = (Elo, PlainOpenSkill, Ours)


def ranks(values: list[float]) -> list[float]:
    """Each value's rank, 1 the lowest; tied values share their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for index in order[start : end + 1]:
            result[index] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation: Pearson's of the ranks (0 when either side is all ties)."""
    x, y = ranks(a), ranks(b)
    mean = (len(x) + 1) / 2
    covariance = sum((p - mean) * (q - mean) for p, q in zip(x, y, strict=True))
    spread = math.sqrt(sum((p - mean) ** 2 for p in x) * sum((q - mean) ** 2 for q in y))
    return covariance / spread if spread else 0.0


def log_loss(predicted: float, won: bool) -> float:
    p = min(max(predicted, 1e-15), 1 - 1e-15)
    return -math.log(p if won else 1 - p)


def brier(predicted: float, won: bool) -> float:
    return (predicted - won) ** 2


@dataclass
class Stretch:
    """Sums over the games of one stretch of a league, for one system."""

    games: int = 0
    log_loss: float = 0.0
    brier: float = 0.0

    def add(self, predicted: float, won: bool) -> None:
        self.games += 1
        self.log_loss += log_loss(predicted, won)
        self.brier += brier(predicted, won)


def run_league(league: League, checkpoints: list[int]) -> dict:
    """Feeds every system the league's games in order, predicting each before its result, until the players have
    played `checkpoints[-1]` games each on average (seats dealt / players). At each checkpoint, per system: the
    rank correlation of the ratings (mu; Elo's number) with the hidden skills, the same for the conservative
    figure (mu - 3 sigma) where a system has one, and the log loss and Brier score of the predictions made in the
    stretch since the checkpoint before. Also, for each system, every (prediction, liberals won) pair, and the
    known model's own figures for each stretch (the floor no system can beat on average)."""
    systems = [system(league.players) for system in SYSTEMS]
    figures = {system.name: [] for system in systems}
    predictions = {system.name: [] for system in systems}
    floor = []
    seats = 0
    games = league.games()
    for checkpoint in checkpoints:
        stretches = {system.name: Stretch() for system in systems}
        known = Stretch()
        while seats < checkpoint * league.players:
            game = next(games)
            seats += game.players
            known.add(game.chance, game.liberals_won)
            for system in systems:
                predicted = system.predict(game)
                system.update(game, predicted)
                stretches[system.name].add(predicted, game.liberals_won)
                predictions[system.name].append((predicted, game.liberals_won))
        for system in systems:
            stretch, conservative = stretches[system.name], system.conservative()
            figures[system.name].append(
                {
                    "games": stretch.games,
                    "rank_correlation": spearman(system.scores(), league.skills),
                    "rank_correlation_conservative": conservative and spearman(conservative, league.skills),
                    "log_loss": stretch.log_loss / stretch.games,
                    "brier": stretch.brier / stretch.games,
                }
            )
        floor.append({"log_loss": known.log_loss / known.games, "brier": known.brier / known.games})
    return {"figures": figures, "predictions": predictions, "floor": floor}


def calibration(pairs: list[tuple[float, bool]]) -> list[dict]:
    """By tenth of the prediction (0-10%, ..., 90-100%): games, mean predicted, observed liberal win rate."""
    tenths = [[] for _ in range(10)]
    for predicted, won in pairs:
        tenths[min(int(predicted * 10), 9)].append((predicted, won))
    return [
        {
            "tenth": tenth,
            "games": len(rows),
            "predicted": sum(p for p, _won in rows) / len(rows) if rows else None,
            "observed": sum(won for _p, won in rows) / len(rows) if rows else None,
        }
        for tenth, rows in enumerate(tenths)
    ]
