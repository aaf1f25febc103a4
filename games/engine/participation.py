"""Play-by-post participation (E2-E5, E8): owed actions made or missed, absences, substitutes, and the
moderators' interventions."""

from .common import emit, end_game
from .constants import ALIVE, WinReason
from .errors import IllegalAction, _
from .events import (
    AbsenceEnded,
    AbsenceStarted,
    Excused,
    ExileScheduled,
    ReplacementScheduled,
    ReplacementWithdrawn,
    SubstituteJoined,
    SubstituteWithdrawn,
)
from .state import GameState, Pending, Seat


def mark_made(seat: Seat) -> None:
    seat.made = True


def mark_missed(seat: Seat) -> None:
    """E2/E4: a deadline passed on an owed action; inside an announced absence the miss is excused."""
    if seat.away:
        seat.excused_miss = True
    else:
        seat.missed = True


def set_absence(g: GameState, index: int, away: bool) -> None:
    """E4: start or end an announced absence (idempotent both ways)."""
    seat = g.seats[index]
    if seat.away == away:
        return
    seat.away = away
    emit(g, (AbsenceStarted if away else AbsenceEnded)(player=seat.name, round=g.round))


def names_in_game(g: GameState) -> set[str]:
    """Every name the game knows: seated, out of play, replaced, waiting, or named in a pending replacement."""
    names = {seat.name for seat in g.seats}
    names.update(g.former_names, g.substitutes)
    names.update(entry.name for entry in g.pending if entry.name is not None)
    return names


def check_new_name(g: GameState, name: str) -> None:
    if name in names_in_game(g):
        raise IllegalAction(_("%(name)s is already in this game."), name=name, code="name_taken")


def add_substitute(g: GameState, name: str) -> None:
    """E5: a new person signs up to take the next exiled seat."""
    check_new_name(g, name)
    g.substitutes.append(name)
    emit(g, SubstituteJoined(player=name, round=g.round))


def withdraw(g: GameState, name: str) -> None:
    """E5/E8: a person waiting for a seat leaves the list of substitutes, or a pending replacement naming them
    is called off. The seat they were to take stays as it is."""
    if name in g.substitutes:
        g.substitutes.remove(name)
        emit(g, SubstituteWithdrawn(player=name, round=g.round))
        return
    for entry in g.pending:
        if entry.kind == "replace" and entry.name == name:
            g.pending.remove(entry)
            emit(g, ReplacementWithdrawn(player=g.seats[entry.seat].name, round=g.round))
            return
    raise IllegalAction(_("%(name)s is not waiting to take a seat in this game."), name=name, code="not_waiting")


def excuse(g: GameState, index: int) -> None:
    """E8: the seat's misses in the round under way, before or after this, are excused."""
    seat = g.seats[index]
    seat.excused = True
    emit(g, Excused(player=seat.name, round=g.round))


def schedule(g: GameState, kind: str, index: int, name: str | None = None) -> None:
    """E8: an exile or a replacement, applied when the round under way ends (rounds._close_round)."""
    if any(entry.seat == index for entry in g.pending):
        raise IllegalAction(
            _("%(name)s already has an exile or replacement waiting for the round's end."),
            name=g.seats[index].name,
            code="already_pending",
        )
    if name is not None:
        check_new_name(g, name)
    g.pending.append(Pending(kind, index, name))
    scheduled = ExileScheduled if kind == "exile" else ReplacementScheduled
    emit(g, scheduled(player=g.seats[index].name, round=g.round))


def cancel(g: GameState) -> None:
    """E8: the game ends at once with no winner."""
    end_game(g, None, WinReason.CANCELLED)


def require_living_player(g: GameState, index: int) -> None:
    seat = g.seats[index]
    if seat.status != ALIVE:
        raise IllegalAction(_("%(name)s is not a living player."), name=seat.name, code="target_not_alive")
