"""A finished game's result as the statistics read it (games/stats.py), written once, in the change that ends the
game (play.finish), so that every statistics page is one query over finished games, whatever their number: its
rounds, policies and chaos policies on the game's row; each seat's role; whether each claim matched the cards really
drawn (R27: everything is public once the game is over)."""

from games.engine import GameState, secret_view
from games.models import Claim, Game, GameEvent, Seat


def record(game: Game, state: GameState, pending: list[GameEvent]) -> None:
    """Write what the statistics read of `game`, which `state` has just ended; `pending`: the ending change's
    events, not yet saved."""
    game.rounds = state.round
    game.policies = state.liberal_policies + state.fascist_policies
    logged = GameEvent.objects.filter(game=game, type="chaos").count()
    game.chaos_policies = logged + sum(1 for event in pending if event.type == "chaos")
    roles = {seat.name: str(seat.role) for seat in state.seats}
    seats = [seat for seat in Seat.objects.filter(game=game, number__isnull=False) if seat.name in roles]
    for seat in seats:
        seat.role = roles[seat.name]
    Seat.objects.bulk_update(seats, ["role"])
    claims, sessions = list(Claim.objects.filter(game=game)), secret_view(state)["sessions"]
    for claim in claims:
        claim.matched = claim_matched(claim.round, claim.office, claim.cards, sessions)
    Claim.objects.bulk_update(claims, ["matched"])


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
