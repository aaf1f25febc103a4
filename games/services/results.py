"""A finished game's result as the statistics read it (games/stats.py), written once, in the change that ends the
game (play.finish), so that every statistics page is one query over finished games, whatever their number: its
rounds, policies and chaos policies on the game's row; each seat's role; whether each claim matched the cards really
drawn (R27: everything is public once the game is over)."""

from games.engine import GameState, secret_view
from games.models import Claim, Game, GameEvent, Seat


def record(game: Game, state: GameState, pending: list[GameEvent]) -> None:
    """Write what the statistics read of `game`, which `state` has just ended; `pending`: the ending change's
    events, not yet saved."""
    chaos = GameEvent.objects.filter(game=game, type="chaos").count() + sum(1 for e in pending if e.type == "chaos")
    write(game, state, chaos, Seat.objects, Claim.objects)


def write(game, state: GameState, chaos: int, seats, claims) -> None:
    """The writing itself, through the managers given (the models', or a migration's historical ones)."""
    game.rounds, game.chaos_policies = state.round, chaos
    game.policies = state.liberal_policies + state.fascist_policies
    roles = {seat.name: str(seat.role) for seat in state.seats}
    seated = [seat for seat in seats.filter(game=game, number__isnull=False) if seat.name in roles]
    for seat in seated:
        seat.role = roles[seat.name]
    seats.bulk_update(seated, ["role"])
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
