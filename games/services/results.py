"""A finished game's result as the statistics read it (games/stats.py), written once, in the change that ends the
game (play.finish), so that every statistics page is one query over finished games, whatever their number: its
rounds, policies and chaos policies on the game's row; each seat's role; whether each claim matched the cards really
drawn (R27: everything is public once the game is over)."""

from collections.abc import Iterable

from games.engine import GameState, secret_view
from games.engine.events import Chaos
from games.models import Claim, Game, GameEvent, Seat


def record(game: Game, state: GameState, seats: Iterable[Seat], pending: list[GameEvent]) -> list[Seat]:
    """Set what the statistics read of `game`, which `state` has just ended, on the game's row and on `seats` (the
    change's own rows, which it saves whole: a role written past them would be written over), and the claims' truth;
    `pending`: the ending change's events, not yet saved. Returns the seats given a role, for the change to save."""
    stored = GameEvent.objects.filter(game=game, type=Chaos.type).count()
    chaos = stored + sum(1 for e in pending if e.type == Chaos.type)
    set_figures(game, state, chaos)
    match_claims(game, state, Claim.objects)
    return set_roles(state, seats)


def write(game, state: GameState, chaos: int, seats, claims) -> None:
    """All of it written at once through the managers given (migration 0020's, for the games that ended before)."""
    set_figures(game, state, chaos)
    seats.bulk_update(set_roles(state, seats.filter(game=game)), ["role"])
    match_claims(game, state, claims)


def set_figures(game, state: GameState, chaos: int) -> None:
    game.rounds, game.chaos_policies = state.round, chaos
    game.policies = state.liberal_policies + state.fascist_policies


def set_roles(state: GameState, seats: Iterable) -> list:
    """Each row that held a seat, its seat's role: a seat keeps its role when another takes it (E5, E8), so whoever
    was exiled from it, gave it up or took it over played that role, and their profile counts the game."""
    roles = [str(seat.role) for seat in state.seats]
    seated = [seat for seat in seats if seat.number is not None and seat.number < len(roles)]
    for seat in seated:
        seat.role = roles[seat.number]
    return seated


def match_claims(game, state: GameState, claims) -> None:
    filed, sessions = list(claims.filter(game=game)), secret_view(state)["sessions"]
    for claim in filed:
        claim.matched = claim_matched(claim.round, claim.office, claim.cards, sessions)
    claims.bulk_update(filed, ["matched"])


def claim_matched(round_number: int, office: str, cards: str, sessions: list[dict]) -> bool | None:
    """Whether a claim's cards are those the president drew, or the chancellor received, in that round's session
    (None: no session that round, nothing to hold it against)."""
    session = next((s for s in sessions if s["round"] == round_number), None)
    if session is None:
        return None
    really = list(session["drawn"])
    if office == Claim.Office.CHANCELLOR:
        if session["president_discarded"] is None:
            return None
        really.remove(session["president_discarded"])
    return sorted(cards) == sorted(really)
