"""What each person may see (R2, R3, R27): the public view, one seat's private view, and the secret state.

Nothing leaves the engine except through these functions, so a template or an email that is built from them
cannot show a secret that its reader may not know.
"""

from msgspec.structs import asdict

from .constants import (
    ALIVE,
    DEAD,
    DISCARD,
    ENACT,
    EXECUTE,
    EXECUTION_VOTE,
    HITLER,
    INVESTIGATE,
    NOMINATE,
    POWER_TRACK,
    SMALL_GAME_MAX,
    SPECIAL_ELECTION,
    VETO_REPLY,
    VOTE,
    Role,
)
from .state import GameState, Session
from .terms import term_limited

_PRESIDENT_STEPS = (NOMINATE, DISCARD, VETO_REPLY, INVESTIGATE, SPECIAL_ELECTION, EXECUTE)


def waiting_for(g: GameState) -> list[int]:
    """The seats that owe an action now, in seat order (for a vote: the living who have not voted)."""
    step = g.step
    if step is VOTE or step is EXECUTION_VOTE:  # the step most often waited on: asked first
        # Loops, not comprehensions, and no seat read while nobody is out of play: asked before every move.
        votes, seats, owing = g.votes, g.seats, []
        if g.living_count == len(seats):
            for i in range(len(seats)):
                if i not in votes:
                    owing.append(i)
        else:
            for i, seat in enumerate(seats):
                if seat.status is ALIVE and i not in votes:
                    owing.append(i)
        return owing
    if step in _PRESIDENT_STEPS:
        return [g.president]
    if step is ENACT:
        return [g.chancellor]
    return []


def summary(g: GameState) -> dict:
    """The state as REPLAY.md prints it: public facts only, names of each seat's current occupant."""
    seats = g.seats
    return {
        "round": g.round,
        "step": str(g.step),
        "waiting_for": g.names(waiting_for(g)),
        "president": g.name(g.president),
        "chancellor": g.name(g.chancellor),
        "elected": g.elected,
        "liberal_policies": g.liberal_policies,
        "fascist_policies": g.fascist_policies,
        "election_tracker": g.election_tracker,
        "draw_pile": len(g.draw_pile),
        "discard_pile": len(g.discard_pile),
        "alive": [s.name for s in seats if s.status == ALIVE],
        "dead": [s.name for s in seats if s.status == DEAD],
        "exiled": [entry.name for entry in sorted(g.exiled_log, key=lambda entry: entry.seat)],
        "term_limited": [s.name for i, s in enumerate(seats) if i in term_limited(g) and s.status == ALIVE],
        "confirmed_not_hitler": [s.name for s in seats if s.confirmed_not_hitler and s.status == ALIVE],
        "missed": {s.name: s.missed_rounds for s in seats if s.status == ALIVE},
        "winner": g.winner,
        "win_reason": g.win_reason,
    }


def public_view(g: GameState) -> dict:
    """What everyone may know: the summary, the table, the power track; and, once the game is over,
    everything (R27)."""
    view = summary(g)
    view["players_at_start"] = g.players_at_start
    view["power_track"] = [None if power is None else str(power) for power in POWER_TRACK[g.players_at_start]]
    view["veto_unlocked"] = g.fascist_policies >= 5
    view["step_number"] = g.step_number
    view["legislative_session"] = in_legislative_session(g)
    view["execution_target"] = g.name(g.execution_target)  # variant execution_vote: announced when proposed (R23)
    view["players"] = [
        {
            "seat": i,
            "name": seat.name,
            "status": str(seat.status),
            "confirmed_not_hitler": seat.confirmed_not_hitler,
            "investigated": seat.investigated,
            "missed_rounds": seat.missed_rounds,
            "away": seat.away,
        }
        for i, seat in enumerate(g.seats)
    ]
    view["substitutes"] = list(g.substitutes)
    if g.over:
        view["reveal"] = secret_view(g)
    return view


def in_legislative_session(g: GameState) -> bool:
    """R18: from the draw until the policy is enacted or vetoed (the site closes the thread then)."""
    return g.step in (DISCARD, ENACT, VETO_REPLY)


def player_view(g: GameState, seat: int) -> dict:
    """What the player in `seat` alone may know (R2, R3, R17, R21, R22); everything once the game is over."""
    me = g.seats[seat]
    view = {
        "seat": seat,
        "name": me.name,
        "role": str(me.role),
        "party": str(me.party),
        "teammates": [{"name": g.seats[i].name, "role": str(g.seats[i].role)} for i in known_teammates(g, seat)],
        "hand": _hand_now(g, seat),
        "hands": [_hand_seen(session, seat) for session in g.sessions if _saw_cards(session, seat)],
        "investigations": [_record(entry) for entry in g.investigations if entry.president_seat == seat],
        "peeks": [_record(entry) for entry in g.peeks if entry.president_seat == seat],
    }
    if g.over:
        view["reveal"] = secret_view(g)
    return view


def known_teammates(g: GameState, seat: int) -> list[int]:
    """R3: fascists know every fascist and Hitler; Hitler knows the fascists only in games of 5-6 players,
    unless variant `hitler_blind_small`; liberals know nobody."""
    role = g.seats[seat].role
    if role == Role.LIBERAL:
        return []
    if role == HITLER and (g.players_at_start > SMALL_GAME_MAX or g.settings.hitler_blind_small):
        return []
    return [i for i, other in enumerate(g.seats) if i != seat and other.role != Role.LIBERAL]


def secret_view(g: GameState) -> dict:
    """Everything: for the end of the game (R27), audits and moderators of games they do not play in."""
    return {
        "roles": {seat.name: str(seat.role) for seat in g.seats},
        "draw_pile": list(g.draw_pile),
        "discard_pile": list(g.discard_pile),
        "hand": list(g.hand),
        "ballots": {g.seats[i].name: ballot for i, ballot in g.votes.items()},
        "sessions": [_record(session) for session in g.sessions],
        "investigations": [_record(entry) for entry in g.investigations],
        "peeks": [_record(entry) for entry in g.peeks],
        "rng": g.rng.to_json(),
    }


def _hand_now(g: GameState, seat: int) -> list[str]:
    if (g.step == DISCARD and seat == g.president) or (g.step in (ENACT, VETO_REPLY) and seat == g.chancellor):
        return list(g.hand)
    return []


def _saw_cards(session: Session, seat: int) -> bool:
    if session.president_seat == seat:
        return True
    return session.chancellor_seat == seat and session.president_discarded is not None


def _hand_seen(session: Session, seat: int) -> dict:
    """The cards a president drew and passed, or a chancellor received and enacted."""
    drawn = list(session.drawn)
    passed = list(drawn)
    if session.president_discarded is not None:
        passed.remove(session.president_discarded)
    seen = {"round": session.round, "veto": session.veto, "enacted": session.enacted}
    if session.president_seat == seat:
        seen.update(role="president", drawn=drawn, discarded=session.president_discarded, passed=passed)
    else:
        seen.update(role="chancellor", received=passed, discarded=session.chancellor_discarded)
    return seen


def _record(record) -> dict:
    """A record of the state as the views print it (REPLAY.md): every field, a copy."""
    return {name: list(value) if isinstance(value, list) else value for name, value in asdict(record).items()}
