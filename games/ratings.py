"""The rating model: each person's skill as a mean and its uncertainty (mu, sigma), updated by a finished game's
result, for a team game whose two sides are unequal. Pure Python, no database: the service (games/services/
ratings.py) feeds it the games in the order they were rated, and `manage.py recompute_ratings` feeds it the same
games again, so both reach the same figures to the last digit.

The core is openskill's Bradley-Terry model (Weng and Lin's, `BradleyTerryFull`, its default constants): a win
moves each member of a team by their share of the team's uncertainty. Four things go further, for Secret Hitler:

- A side plays as well as its members do on average: openskill adds its members' skills, so each seat is given to
  it as its skill divided by the side's size, and its answer scaled back (the same model, written for means). A
  liberal side, larger than the fascists', is not stronger for it.
- The side a seat had. At equal skill, the liberals do not win half the games: their chance depends on the table
  size and the house rules. The liberals' strength carries the side's baseline, the chance the finished rated games
  before this one give liberals at that table size and those settings (`Baselines`). Winning the side that usually
  loses moves a rating more; losing it, less.
- Seats that changed hands. A seat keeps its role when a substitute or a replacement takes it (E5, E8): everyone
  who held it played its side, for the share of the game's rounds they held it (`Holder.share`), and their rating
  moves by that share of the seat's change.
- Exiles. A player exiled from a seat (E3, E8) left their team short: the game counts as a loss for them, at the
  share they held, whatever their team did. A replacement a moderator arranged (a resignation) counts nothing
  against anyone (E8): it is rated by the team's result like any other holder.
"""

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from openskill.models import BradleyTerryFull, BradleyTerryFullRating

from games.engine.settings import Settings

MODEL = BradleyTerryFull()
MU, SIGMA, BETA, TAU, KAPPA = MODEL.mu, MODEL.sigma, MODEL.beta, MODEL.tau, MODEL.kappa
# openskill adds its dynamics (tau) to every rating it updates; the seats it updates here are made of people who
# already had theirs added, so it is given one too small to count (0 would mean "the model's own").
NO_MORE_DYNAMICS = 1e-300
# The baselines' pull towards the wider figure (the table size's, then the site's): a setting seen in fewer games
# than this leans on the wider figure more than on its own. A win rate from a hundred games is still uncertain by
# about five points, the size of the differences between settings: a narrower figure earns its weight slowly.
PRIOR_GAMES = 100
CHANCE_LIMITS = (0.05, 0.95)  # a baseline is never taken as a certainty
TEAMS = ("liberal", "fascist")
# The settings that change the balance of the game (RULES.md's variants): the statistics page has a table for
# each, and a baseline is counted for each combination of them at each table size.
BALANCE = ("hitler_blind_small", "rebalanced", "execution_vote", "tracker_resets_on_election", "close_vote_early",
           "missing_vote", "nomination_timeout", "power_timeout")  # fmt: skip


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        """The figure the leaderboard ranks by: the skill the person has at least, almost surely (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Holder:
    """A person who held a seat: `key` finds their rating; `share`: the part of the game's rounds they held it
    (a seat's shares add up to 1); `exiled`: they lost it to an exile."""

    key: object
    share: float = 1.0
    exiled: bool = False


@dataclass(frozen=True)
class SeatPlayed:
    team: str  # liberal or fascist (Hitler's seat is a fascist one)
    holders: tuple[Holder, ...]


@dataclass(frozen=True)
class Update:
    """What a game did to one person's rating."""

    after: Skill
    won: bool  # as counted for them (an exiled player lost)
    share: float


def balance_key(house_rules, players: int) -> str:
    """The game's settings that change the balance, as canonical JSON (defaults filled in); `rebalanced` only at
    the table sizes it changes, so that a game it left as it was counts with the others."""
    rules = house_rules if isinstance(house_rules, dict) else json.loads(house_rules or "{}")
    chosen = {name: rules.get(name, default) for name, default in Settings().to_dict().items()}
    chosen["rebalanced"] = Settings(**chosen).as_played(players).rebalanced
    return json.dumps({name: chosen[name] for name in BALANCE}, sort_keys=True)


def team(role: str) -> str:
    return "liberal" if role == "liberal" else "fascist"


@dataclass
class Baselines:
    """The liberals' chance at equal skill by table size and settings, from the rated games seen so far, each
    figure pulled towards the wider one (the table size's towards the site's, the site's towards even) by
    PRIOR_GAMES games' worth."""

    games: dict = field(default_factory=dict)  # (players, settings) -> [liberal wins, games]; settings None: all

    def chance(self, players: int, settings: str) -> float:
        overall = _pulled(self.games.get(None, (0, 0)), 0.5)
        size = _pulled(self.games.get((players, None), (0, 0)), overall)
        chance = _pulled(self.games.get((players, settings), (0, 0)), size)
        return min(max(chance, CHANCE_LIMITS[0]), CHANCE_LIMITS[1])

    def add(self, players: int, settings: str, liberals_won: bool) -> None:
        for key in (None, (players, None), (players, settings)):
            wins, games = self.games.get(key, (0, 0))
            self.games[key] = (wins + liberals_won, games + 1)


def _pulled(counted: tuple[int, int], wider: float) -> float:
    wins, games = counted
    return (wins + PRIOR_GAMES * wider) / (games + PRIOR_GAMES)


def with_dynamics(skill: Skill) -> Skill:
    """A rating about to be updated grows a little less certain first (openskill's tau): skills change."""
    return Skill(skill.mu, math.sqrt(skill.sigma * skill.sigma + TAU * TAU))


def _seat_skill(seat: SeatPlayed, ratings: Mapping[object, Skill]) -> Skill:
    """The seat as one player: its holders' skills by their shares."""
    mu = sum(holder.share * ratings[holder.key].mu for holder in seat.holders)
    variance = sum(holder.share * ratings[holder.key].sigma ** 2 for holder in seat.holders)
    return Skill(mu, math.sqrt(variance))


def _teams(seats: Iterable[SeatPlayed], ratings: Mapping[object, Skill]) -> dict[str, list]:
    """Each side's seats, each with its skill and its part of the side's strength: a side plays as well as its
    members do on average, so a seat counts for its skill divided by the side's size (openskill, which adds its
    members' skills, is given those parts and its answer scaled back)."""
    teams = {side: [] for side in TEAMS}
    for seat in seats:
        teams[seat.team].append(seat)
    return {
        side: [(seat, skill, MODEL.create_rating([skill.mu / len(members), skill.sigma / len(members)]))
               for seat in members for skill in [_seat_skill(seat, ratings)]]
        for side, members in teams.items()
    }  # fmt: skip


def _scale(teams: dict[str, list]) -> float:
    """c, the spread of a game's result (the sides' uncertainties and the game's own, beta), as openskill's
    Bradley-Terry model counts it."""
    variance = sum(part.sigma**2 for side in TEAMS for _seat, _skill, part in teams[side])
    return math.sqrt(variance + 2 * BETA * BETA)


def _logit(chance: float) -> float:
    return math.log(chance / (1 - chance))


def _sides(teams: dict[str, list], chance: float) -> list[BradleyTerryFullRating]:
    """One more member for each side, certain (sigma 0) and never updated, that counts the side's strength from the
    starting skill and carries the liberals' baseline: equal players give the liberals `chance`."""
    offset = _scale(teams) * _logit(chance)
    return [MODEL.create_rating([offset - MU, 0.0]), MODEL.create_rating([-MU, 0.0])]


def predict(seats: list[SeatPlayed], ratings: Mapping[object, Skill], chance: float) -> float:
    """The liberals' chance to win, before the game, by the same model the update uses."""
    teams = _teams(seats, ratings)
    strength = {side: sum(part.mu for _seat, _skill, part in teams[side]) - MU for side in TEAMS}
    return 1 / (1 + math.exp(-((strength["liberal"] - strength["fascist"]) / _scale(teams) + _logit(chance))))


def rate(
    seats: list[SeatPlayed], ratings: Mapping[object, Skill], liberals_won: bool, chance: float
) -> dict[object, Update]:
    """Each holder's new rating after a game the liberals won or lost, whose baseline was `chance`. `ratings` has
    everyone's rating before the game, dynamics included (`with_dynamics`)."""
    teams = _teams(seats, ratings)
    sides = _sides(teams, chance)
    results = {}
    for liberals in (True, False):  # the seats' changes for either result: an exiled player's is a loss
        lineup = [[part for _seat, _skill, part in teams[side]] + [sides[index]] for index, side in enumerate(TEAMS)]
        rated = MODEL.rate(lineup, ranks=[0, 1] if liberals else [1, 0], tau=NO_MORE_DYNAMICS)
        results[liberals] = {
            seat: (skill, Skill(skill.mu + (after.mu - part.mu) * len(teams[side]), after.sigma * len(teams[side])))
            for index, side in enumerate(TEAMS)
            for (seat, skill, part), after in zip(teams[side], rated[index], strict=False)
        }
    updates = {}
    for side in TEAMS:
        for seat, _skill, _part in teams[side]:
            for holder in seat.holders:
                won = (side == "liberal") == liberals_won and not holder.exiled
                before, after = results[(side == "liberal") == won][seat]
                updates[holder.key] = Update(_moved(ratings[holder.key], holder, before, after), won, holder.share)
    return updates


def _moved(skill: Skill, holder: Holder, before: Skill, after: Skill) -> Skill:
    """A holder's share of the seat's change, by their own uncertainty against the seat's (openskill's rule for a
    member of a team: the less certain moves more). A seat with one holder moves them as the seat moved."""
    if holder.share == 1 and before == skill:
        return after
    part = skill.sigma**2 / before.sigma**2
    mu = skill.mu + holder.share * (after.mu - before.mu) * part
    kept = max(1 - (1 - after.sigma**2 / before.sigma**2) * part, KAPPA)
    return Skill(mu, skill.sigma * math.sqrt(1 - holder.share * (1 - kept)))
