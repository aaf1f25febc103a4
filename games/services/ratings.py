"""Ratings moved by finished games (the model: games/ratings.py). A rated game moves its players' ratings in the
change that ends it (play.persist), in that transaction, exactly once: the game's status changes once under its
lock, and its RatedGame row is one a game. Games are rated one after another (the ledger row's lock), each with
the baselines of the games rated before it, so `recompute` replays them in that order from their results alone
(seats, roles, the public log's exiles and hand-overs, the winner) and reaches the same figures to the last digit.

Each game moves two ratings of each of its players: overall, and the season's (the quarter it ended in, UTC),
which starts afresh each season. Only finished games are rated; a running game moves nothing and shows nowhere.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.db import transaction
from django.db.models import Count, F, Max
from django.utils.translation import gettext as _

from games import ratings as model
from games.engine.events import Exiled, Replaced, RoundStarted, Substituted
from games.models import Game, GameEvent, RatedGame, Rating, RatingChange, RatingLedger, Seat
from games.models.ratings import OVERALL

from .errors import GameError

# The public log's events that say who held each seat for how many rounds.
HOLDING = (RoundStarted.type, Exiled.type, Substituted.type, Replaced.type)
LEADERBOARD_MIN_GAMES = 5  # a rating counted from fewer games is too uncertain to rank


def season_of(moment: datetime) -> str:
    """The season a game that ended at `moment` counts in: its quarter, in UTC (2026-Q4)."""
    moment = moment.astimezone(UTC)
    return f"{moment.year}-Q{(moment.month - 1) // 3 + 1}"


@dataclass
class Played:
    """A finished game as the ratings read it."""

    game: Game
    seats: list[model.SeatPlayed]
    roles: dict  # holder key -> their seat's role
    season: str
    settings: str  # the settings that change the balance (ratings.balance_key)
    liberals_won: bool


def holder_key(seat: Seat):
    """Whose rating a seat's holder moves: their account's; a deleted account's holder is a newcomer, kept nowhere."""
    return seat.user_id if seat.user_id is not None else ("gone", seat.pk)


def played(game: Game, seats: Iterable[Seat], events: Iterable[tuple[str, dict]]) -> Played:
    """Read a finished game: every seat's holders, each with the share of the seat's rounds they held it (counted
    from the rounds that started while they held it: a hand-over takes effect when a round ends, E5, E8; a seat
    left empty by an exile counts no round until a substitute takes it), and whether they were exiled from it. A
    holder of no round is not rated."""
    players = list(game.setup["players"])
    holder = dict(enumerate(players))  # seat number -> the name holding it now
    held = set(holder)  # the seats someone holds: an exile leaves the seat empty until a substitute takes it (E5)
    rounds: dict[str, int] = defaultdict(int)
    exiled: set[str] = set()
    for kind, data in events:
        if kind == RoundStarted.type:
            for number in held:
                rounds[holder[number]] += 1
        elif kind == Exiled.type:
            exiled.add(data["player"])
            held.discard(next(n for n, name in holder.items() if name == data["player"]))
        else:  # Substituted, Replaced: the newcomer takes the seat of whoever it replaces
            number = next(n for n, name in holder.items() if name == data["replaces"])
            holder[number] = data["player"]
            held.add(number)
    rows = {seat.name: seat for seat in seats if seat.number is not None and not seat.pending and seat.role}
    by_number: dict[int, list[Seat]] = defaultdict(list)
    for seat in sorted(rows.values(), key=lambda s: (s.number, s.joined_at, s.pk)):
        if rounds[seat.name]:
            by_number[seat.number].append(seat)
    seated, roles = [], {}
    for number in sorted(by_number):
        held = by_number[number]
        total = sum(rounds[seat.name] for seat in held)
        holders = tuple(model.Holder(holder_key(s), rounds[s.name] / total, s.name in exiled) for s in held)
        seated.append(model.SeatPlayed(model.team(held[0].role), holders))
        roles |= {holder_key(s): s.role for s in held}
    return Played(
        game=game,
        seats=seated,
        roles=roles,
        season=season_of(game.finished_at),
        settings=model.balance_key(game.house_rules, game.player_count),
        liberals_won=game.winner == "liberal",
    )


@dataclass
class Ledger:
    """Ratings being moved, by (holder key, season), and the baselines of the games rated so far."""

    skills: dict = field(default_factory=dict)  # (key, season) -> model.Skill
    games: dict = field(default_factory=lambda: defaultdict(int))  # (key, season) -> games rated
    baselines: model.Baselines = field(default_factory=model.Baselines)

    def rate(self, game: Played, order: int) -> tuple[RatedGame, list[RatingChange]]:
        """Move the ratings of everyone in `game`, rated `order`-th: its record and its players' changes (unsaved)."""
        players = game.game.player_count
        chance = self.baselines.chance(players, game.settings)
        record = RatedGame(game=game.game, order=order, season=game.season, chance=chance, predicted=0.0)
        changes = []
        for season in (OVERALL, game.season):
            before = {
                holder.key: model.with_dynamics(self.skills.get((holder.key, season), model.Skill()))
                for seat in game.seats
                for holder in seat.holders
            }
            if season == OVERALL:
                record.predicted = model.predict(game.seats, before, chance)
            for key, update in model.rate(game.seats, before, game.liberals_won, chance).items():
                self.skills[(key, season)] = update.after
                self.games[(key, season)] += 1
                if isinstance(key, int):
                    changes.append(RatingChange(rated_game=record, user_id=key, season=season, role=game.roles[key],
                                                share=update.share, won=update.won, mu=update.after.mu,
                                                sigma=update.after.sigma))  # fmt: skip
        self.baselines.add(players, game.settings, game.liberals_won)
        return record, changes


def rate_ended(games: list[Game]) -> None:
    """Rate the games that have just ended in this transaction (their seats' roles and events written): the rated
    ones with a winner. Called by play.persist, in the change that ends them."""
    ended = [game for game in games if game.is_rated and game.status == Game.Status.FINISHED and game.winner]
    if not ended:
        return
    RatingLedger.objects.select_for_update().get_or_create(pk=1)
    last = RatedGame.objects.aggregate(last=Max("order"))["last"] or 0
    ledger = Ledger(baselines=stored_baselines())
    for order, game in enumerate(ended, start=last + 1):
        game_played = played(game, Seat.objects.filter(game=game), _holding_events([game.pk])[game.pk])
        users = [key for key in game_played.roles if isinstance(key, int)]
        stored = Rating.objects.select_for_update().filter(user_id__in=users, season__in=[OVERALL, game_played.season])
        for rating in stored.order_by("user_id", "season"):
            ledger.skills[(rating.user_id, rating.season)] = model.Skill(rating.mu, rating.sigma)
            ledger.games[(rating.user_id, rating.season)] = rating.games
        record, changes = ledger.rate(game_played, order)
        record.save()
        RatingChange.objects.bulk_create(changes)
        _store(ledger, [(user, season) for user in users for season in (OVERALL, game_played.season)])


def _store(ledger: Ledger, keys: list[tuple]) -> None:
    rows = [
        Rating(user_id=user, season=season, mu=ledger.skills[(user, season)].mu,
               sigma=ledger.skills[(user, season)].sigma, games=ledger.games[(user, season)])
        for user, season in keys
    ]  # fmt: skip
    Rating.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["user", "season"], update_fields=["mu", "sigma", "games"]
    )


def stored_baselines() -> model.Baselines:
    """The baselines of every game rated so far (grouped in one query)."""
    baselines = model.Baselines()
    rows = RatedGame.objects.values("game__player_count", "game__house_rules", "game__winner").annotate(n=Count("pk"))
    for row in rows.order_by():
        players = row["game__player_count"]
        settings = model.balance_key(row["game__house_rules"], players)
        for _game in range(row["n"]):
            baselines.add(players, settings, row["game__winner"] == "liberal")
    return baselines


def _holding_events(game_ids: list[int]) -> dict[int, list[tuple[str, dict]]]:
    found = defaultdict(list)
    rows = GameEvent.objects.filter(game_id__in=game_ids, type__in=HOLDING).order_by("game_id", "index")
    for game_id, kind, data in rows.values_list("game_id", "type", "data"):
        found[game_id].append((kind, data))
    return found


@dataclass
class Recomputed:
    games: int
    ratings: int
    differing: list[str]  # the ratings (user, season) whose figures were not those stored


def recompute() -> Recomputed:
    """Every rating made again from the rated games' results, in the order they were rated, and written in place of
    the stored ones; with which of the stored ones differed (none, unless an account was deleted since, whose
    games now count as a newcomer's, or the rows were changed by hand)."""
    with transaction.atomic():
        RatingLedger.objects.select_for_update().get_or_create(pk=1)
        records = list(RatedGame.objects.select_related("game").order_by("order"))
        ids = [record.game_id for record in records]
        seats: dict[int, list[Seat]] = defaultdict(list)
        for seat in Seat.objects.filter(game_id__in=ids):
            seats[seat.game_id].append(seat)
        events = _holding_events(ids)
        ledger, changes = Ledger(), []
        for record in records:
            made, made_changes = ledger.rate(played(record.game, seats[record.game_id], events[record.game_id]),
                                             record.order)  # fmt: skip
            record.chance, record.predicted, record.season = made.chance, made.predicted, made.season
            for change in made_changes:
                change.rated_game = record
            changes += made_changes
        stored = {(r.user_id, r.season): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
        made = {key: (skill.mu, skill.sigma, ledger.games[key]) for key, skill in ledger.skills.items()
                if isinstance(key[0], int)}  # fmt: skip
        differing = sorted(f"{user} {season or 'overall'}" for (user, season) in stored.keys() | made.keys()
                           if stored.get((user, season)) != made.get((user, season)))  # fmt: skip
        RatedGame.objects.bulk_update(records, ["chance", "predicted", "season"])
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        RatingChange.objects.bulk_create(changes)
        _store(ledger, list(made))
    return Recomputed(len(records), len(made), differing)


# Reading.


def overall_of(user) -> Rating | None:
    return rating_in(user, OVERALL)


def rating_in(user, season: str) -> Rating | None:
    """The user's rating overall (season "") or in `season`; None before their first rated game there."""
    if user is None or not user.is_authenticated:
        return None
    return Rating.objects.filter(user=user, season=season).first()


def conservative_by_user(user_ids: Iterable[int]) -> dict[int, float]:
    """Each account's overall conservative figure, for the names of a list (one query); absent: not rated yet."""
    rows = Rating.objects.filter(user_id__in=list(user_ids), season=OVERALL).values_list("user_id", "mu", "sigma")
    return {user: mu - 3 * sigma for user, mu, sigma in rows}


def rating_refusal(game: Game, user) -> GameError | None:
    """The refusal of a game that asks for a minimum rating, if `user`'s does not reach it (a newcomer's counts from
    the starting rating, whose conservative figure is 0); else None."""
    if game.min_rating is None or not game.is_rated:  # a game that moves no rating asks for none
        return None
    rating = overall_of(user)
    # As the pages show it, to a tenth: a newcomer's 25 - 3 x 8.33... is 0, not a hair below it.
    mine = round(rating.conservative if rating else model.Skill().conservative, 1) + 0.0
    if mine >= game.min_rating:
        return None
    return GameError(
        _("This game asks for a rating of at least %(minimum)s to sign up; yours is %(yours)s.")
        % {"minimum": f"{game.min_rating:.1f}", "yours": f"{mine:.1f}"},
        code="rating_too_low",
    )


def seasons() -> list[str]:
    """The seasons with rated games, the latest first."""
    return list(RatedGame.objects.order_by("-season").values_list("season", flat=True).distinct())


def leaderboard(season: str = OVERALL, *, min_games: int = LEADERBOARD_MIN_GAMES):
    """The ratings of a season (or overall) counted from at least `min_games` games, best conservative figure
    first; each row has `conservative` and its `user`."""
    rows = Rating.objects.filter(season=season, games__gte=min_games, user__is_active=True)
    rows = rows.annotate(conservative_figure=F("mu") - 3 * F("sigma")).select_related("user")
    return rows.order_by("-conservative_figure", "-games", "user__username")


def history(user, season: str = OVERALL) -> list[RatingChange]:
    """A person's rating after each rated game, oldest first, with the game (finished ones only: none other is
    rated)."""
    public = {"rated_game__game__visibility": Game.Visibility.PUBLIC}  # as rated: a game made unlisted since is not
    changes = RatingChange.objects.filter(user=user, season=season, **public).select_related("rated_game__game")
    return list(changes.order_by("rated_game__order"))
