"""Setting up a game (R1, R3, R4, R8): the seating, roles, the deck and the first presidential candidate; with the
house rule `rebalanced`, the deck and the board of its table size.

Each of these draws from its own stream of the game's seed (rng.py), so that none is a function of another:
the seat a player is given, the role they are dealt and the first candidate are independent.
"""

from collections import Counter

from .codec import VERSION
from .common import emit
from .constants import (
    FASCIST,
    LIBERAL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROLE_COUNTS,
    Deck,
    Role,
    deck_for,
)
from .errors import InvalidSetup
from .events import GameStarted
from .rng import DEFAULT_SCHEME, Randomness, Rng
from .rounds import start_first_round
from .settings import Settings
from .state import GameState, Seat


def new_game(
    players: list[str],
    *,
    seed: int = 0,
    rng: str = DEFAULT_SCHEME,
    roles: dict[str, str] | None = None,
    deck: list[str] | None = None,
    first_president: str | None = None,
    settings: Settings | None = None,
    reshuffles: list[list[str]] = (),
) -> GameState:
    """A game ready for its first nomination, with `players` in seat order. Whatever is not given is drawn
    from `seed` with the scheme `rng`: the roles, the deck and the first president, each from its own stream
    (under the single-stream scheme, from one stream in that order)."""
    _check_players(players)
    settings = settings or Settings()
    randomness = Randomness.new(seed, rng)
    role_of = deal_roles(players, randomness.stream("roles")) if roles is None else _check_roles(players, roles)
    composition = deck_for(len(players), rebalanced=settings.rebalanced)
    if deck is None:
        deck = [LIBERAL] * composition.liberals + [FASCIST] * composition.fascists
        randomness.stream("deck").shuffle(deck)
    else:
        _check_deck(deck, composition, len(players))
    if first_president is None:
        first = randomness.stream("first_president").below(len(players))
    elif first_president in players:
        first = players.index(first_president)
    else:
        raise InvalidSetup(f"first_president {first_president!r} is not one of the players")
    seats = [Seat(name, role_of[name]) for name in players]
    g = GameState(VERSION, seats, list(deck), randomness, settings, living_count=len(seats))
    g.fascist_policies = composition.enacted_fascists  # on the board from the start: no power was granted for it
    g.preset_reshuffles = [list(order) for order in reshuffles]
    emit(g, GameStarted(players=list(players), round=g.round))
    start_first_round(g, first)
    return g


def seat_and_deal(
    joined: list[str], *, seed: int, rng: str = DEFAULT_SCHEME, settings: Settings | None = None
) -> GameState:
    """A lobby's game: the players, listed in the order they joined, are seated at random, then dealt their
    roles, the deck and the first candidate (R1, R4, R8). The state's seats are in the drawn seat order."""
    return new_game(seat_players(joined, seed=seed, rng=rng), seed=seed, rng=rng, settings=settings)


def seat_players(joined: list[str], *, seed: int, rng: str = DEFAULT_SCHEME) -> list[str]:
    """The seat order: the players shuffled by the "seating" stream of the seed."""
    seats = list(joined)
    Randomness.new(seed, rng).stream("seating").shuffle(seats)
    return seats


def deal_roles(players: list[str], rng: Rng) -> dict[str, Role]:
    """R1: the role counts for the table size, dealt at random."""
    liberals, fascists = ROLE_COUNTS[len(players)]
    deal = [Role.LIBERAL] * liberals + [Role.FASCIST] * fascists + [Role.HITLER]
    rng.shuffle(deal)
    return dict(zip(players, deal, strict=True))


def _check_players(players: list[str]) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidSetup(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
    if any(not isinstance(name, str) or not name for name in players):
        raise InvalidSetup("every player needs a non-empty name")
    if len(set(players)) != len(players):
        raise InvalidSetup("player names must be distinct")


def _check_roles(players: list[str], roles: dict[str, str]) -> dict[str, Role]:
    if set(roles) != set(players):
        raise InvalidSetup("roles must name every player, and only them")
    valid = {str(role) for role in Role}
    if any(not isinstance(role, str) or role not in valid for role in roles.values()):
        raise InvalidSetup("a role is liberal, fascist or hitler")
    liberals, fascists = ROLE_COUNTS[len(players)]
    expected = {Role.LIBERAL: liberals, Role.FASCIST: fascists, Role.HITLER: 1}
    counts = Counter(Role(role) for role in roles.values())
    if counts != expected:
        raise InvalidSetup(f"{len(players)} players are {liberals} liberals, {fascists} fascists and Hitler (R1)")
    return {name: Role(role) for name, role in roles.items()}


def _check_deck(deck: list[str], composition: Deck, players: int) -> None:
    """A deck given in full must be the game's own: R4's, or the rebalanced one of its table size."""
    if not all(isinstance(card, str) and card in (LIBERAL, FASCIST) for card in deck):
        raise InvalidSetup("a card is L or F")
    counts = Counter(deck)
    if len(deck) != composition.size or (counts[LIBERAL], counts[FASCIST]) != composition[:2]:
        which = "R4" if composition == deck_for(players, rebalanced=False) else f"rebalanced for {players} players"
        raise InvalidSetup(
            f"the deck is {composition.size} cards: {composition.liberals} L and {composition.fascists} F ({which})"
        )
