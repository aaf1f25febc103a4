"""Rounds: who is the next candidate (R8, R24, T6), and what happens when a round ends (E3, E5, E8)."""

from .common import emit, end_game, wait_for
from .constants import ALIVE, EXILED, HITLER, NOMINATE, Party, WinReason
from .events import CandidacyLost, Exiled, Replaced, RoundMissed, RoundStarted, Substituted, Warned
from .policies import advance_tracker
from .state import Exile, GameState
from .terms import any_eligible_chancellor


def next_living(g: GameState, after: int | None) -> int:
    """R8: the next living seat after `after` in seat order (the first living seat when None)."""
    seats = g.seats
    count = len(seats)
    start = -1 if after is None else after
    for offset in range(1, count + 1):
        seat = (start + offset) % count
        if seats[seat].status is ALIVE:
            return seat
    raise AssertionError("a game always has a living player: Hitler leaving play ends it")


def start_first_round(g: GameState, first_president: int) -> None:
    g.rotation_seat = first_president
    _next_candidacies(g, first_president)


def advance_round(g: GameState) -> None:
    """The round under way ends (E1): count misses, carry out exiles, and begin the next candidacy."""
    _next_candidacies(g, None)


def _next_candidacies(g: GameState, candidate: int | None) -> None:
    # A candidacy with nobody eligible is lost at once and is a round of its own (T6): loop until a
    # candidate owes a nomination or the game ends.
    while True:
        if candidate is None:
            _close_round(g)
            if g.over:
                return
            candidate = _choose_candidate(g)
        g.round += 1
        g.president = candidate
        g.chancellor = None
        g.elected = False
        g.votes = {}
        g.veto_refused = False
        emit(g, RoundStarted(president=g.seats[candidate].name, round=g.round))
        if any_eligible_chancellor(g):
            wait_for(g, NOMINATE)
            return
        emit(g, CandidacyLost(president=g.name(candidate), reason="nobody_eligible", round=g.round))
        if advance_tracker(g):
            return
        candidate = None


def _choose_candidate(g: GameState) -> int:
    """R8/R24/E5: the special election's pick if it is still in play, else the next in rotation."""
    pick, g.special_pick = g.special_pick, None
    if pick is not None and g.seats[pick].status == ALIVE:
        return pick
    g.rotation_seat = next_living(g, g.rotation_seat)
    return g.rotation_seat


def _close_round(g: GameState) -> None:
    """E3: misses are counted, then the moderators' exiles and replacements (E8), then E3's exiles."""
    exiles_due = False
    for seat in g.seats:
        if seat.status is ALIVE:
            if seat.missed and not seat.excused:
                seat.missed_rounds += 1
                emit(g, RoundMissed(player=seat.name, missed_rounds=seat.missed_rounds, round=g.round))
                if seat.missed_rounds == 1:
                    emit(g, Warned(player=seat.name, missed_rounds=1, round=g.round))  # E7
            elif not (seat.missed or seat.excused_miss) and seat.made:
                seat.missed_rounds = 0
            if seat.missed_rounds >= 2:
                exiles_due = True  # the moderators' changes below can only take a seat out of this
        seat.made = seat.missed = seat.excused_miss = seat.excused = False
    pending, g.pending = g.pending, []
    for entry in pending:
        if g.seats[entry.seat].status != ALIVE:
            continue  # the seat left play meanwhile
        if entry.kind == "exile":
            exile(g, entry.seat, reason="moderator")
        else:
            replace(g, entry.seat, entry.name)
        if g.over:
            return
    if not exiles_due:
        return
    for index, seat in enumerate(g.seats):
        if seat.status == ALIVE and seat.missed_rounds >= 2:
            exile(g, index, reason="missed_rounds")
            if g.over:
                return


def exile(g: GameState, index: int, *, reason: str) -> None:
    """E5: a substitute takes the seat with everything it had, or the seat leaves play unrevealed."""
    seat = g.seats[index]
    g.exiled_log.append(Exile(index, seat.name))
    emit(g, Exiled(player=seat.name, reason=reason, round=g.round))
    if g.substitutes:
        _seat_newcomer(g, index, g.substitutes.pop(0))
        emit(g, Substituted(player=seat.name, replaces=g.former_names[-1], round=g.round))
        return
    seat.status = EXILED
    g.living_count -= 1
    if seat.role == HITLER:
        end_game(g, Party.LIBERAL, WinReason.HITLER_EXILED)


def replace(g: GameState, index: int, name: str) -> None:
    """E8: a named person takes the seat (a resignation or hand-over, held against nobody)."""
    _seat_newcomer(g, index, name)
    emit(g, Replaced(player=name, replaces=g.former_names[-1], round=g.round))


def _seat_newcomer(g: GameState, index: int, name: str) -> None:
    seat = g.seats[index]
    g.former_names.append(seat.name)
    seat.name = name
    seat.missed_rounds = 0
    seat.away = False
