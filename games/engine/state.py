"""The whole state of one game, as typed records (msgspec Structs): JSON in and out without copies.

Every part that is stored is a record here: the seats, each legislative session, each investigation and peek,
the exiles and replacements waiting for the round's end, the exile log and the outcome. Nothing outside the
engine reads a bare tuple or dict of the state. The events of `apply` are records too (events.py): their JSON
is the public log's (REPLAY.md). How a state is stored, versioned and upgraded is in codec.py.
"""

import msgspec

from .constants import ALIVE, GAME_OVER, NOMINATE, Party, Role, SeatStatus, Step, WinReason, party_of
from .events import EngineEvent
from .rng import Randomness
from .settings import Settings


class Seat(msgspec.Struct, omit_defaults=True, gc=False):
    """One place at the table. The person in it may change (E5 substitution, E8 replacement); the seat
    keeps its role, knowledge, term limit and place in the rotation."""

    name: str
    role: Role
    status: SeatStatus = ALIVE
    missed_rounds: int = 0  # E3: rounds missed in a row, as counted when the last round ended
    away: bool = False  # E4: an announced absence is under way
    investigated: bool = False  # R21
    confirmed_not_hitler: bool = False  # R16
    # E2/E3 bookkeeping for the round under way.
    made: bool = False  # owed an action and made it
    missed: bool = False  # owed an action and missed it, not excused by an absence
    excused_miss: bool = False  # missed while away (E4)
    excused: bool = False  # a moderator excused this seat's misses in the round (E8)

    @property
    def alive(self) -> bool:
        return self.status == ALIVE

    @property
    def party(self) -> Party:
        return party_of(self.role)


class Session(msgspec.Struct, omit_defaults=True, gc=False):
    """One legislative session (R17, R19): secret until the game ends, but for what each member saw."""

    round: int
    president: str
    president_seat: int
    chancellor: str
    chancellor_seat: int
    drawn: list[str]
    president_discarded: str | None = None
    chancellor_discarded: str | None = None
    enacted: str | None = None
    veto: str | None = None  # "requested", "refused" or "accepted"

    @property
    def over(self) -> bool:
        """A policy was enacted or the veto accepted: the members may say what they saw (R18)."""
        return self.enacted is not None or self.veto == "accepted"


class Investigation(msgspec.Struct, gc=False):
    """R21: what one president alone learnt."""

    round: int
    president: str
    president_seat: int
    target: str
    party: Party


class Peek(msgspec.Struct, gc=False):
    """R22: the three cards one president alone saw."""

    round: int
    president: str
    president_seat: int
    cards: list[str]


class Pending(msgspec.Struct, omit_defaults=True, gc=False):
    """E8: an exile or a replacement waiting for the end of the round under way."""

    kind: str  # "exile" or "replace"
    seat: int
    name: str | None = None  # who takes the seat (a replacement)


class Exile(msgspec.Struct, gc=False):
    """E3/E5/E8: a seat exiled, and who held it then."""

    seat: int
    name: str


class Outcome(msgspec.Struct, omit_defaults=True, gc=False):
    """How the game ended (R26, E5, E8): the winning party, or none when it was cancelled."""

    termination: WinReason
    winner: Party | None = None


class GameState(msgspec.Struct, omit_defaults=True, gc=False):
    """Everything about a game. Seats are referred to by index (seat order) everywhere.

    Stored, a field that holds its default is left out (codec.py): a game's text is what sets it apart."""

    version: int  # of the stored form (codec.VERSION); always written
    seats: list[Seat]
    draw_pile: list[str]  # top card first
    rng: Randomness  # secret: the seed and its scheme
    settings: Settings | None = None  # always set in play; left out of the stored text: the game's row holds them
    living_count: int = 0  # the seats alive, kept as seats die or leave play (never recounted in a move)
    discard_pile: list[str] = msgspec.field(default_factory=list)
    hand: list[str] = msgspec.field(default_factory=list)  # the cards of the legislative session under way
    liberal_policies: int = 0
    fascist_policies: int = 0
    election_tracker: int = 0
    round: int = 0
    step: Step = NOMINATE
    step_number: int = 0  # rises each time a new waiting step begins, never on a ballot
    president: int | None = None  # this round's presidential candidate
    chancellor: int | None = None  # this round's chancellor nominee
    elected: bool = False
    rotation_seat: int | None = None  # the last candidate chosen by rotation (R8, R24)
    special_pick: int | None = None  # the next candidate picked by a special election (R24)
    last_president: int | None = None  # R10: the last elected government
    last_chancellor: int | None = None
    votes: dict[int, str] = msgspec.field(default_factory=dict)  # seat -> ballot, for the vote open now
    veto_refused: bool = False
    execution_target: int | None = None  # under execution_vote (R23)
    outcome: Outcome | None = None
    substitutes: list[str] = msgspec.field(default_factory=list)  # E5: waiting to take an exiled seat, first first
    former_names: list[str] = msgspec.field(default_factory=list)  # people who held a seat and no longer do
    pending: list[Pending] = msgspec.field(default_factory=list)  # E8: applied when the round ends
    exiled_log: list[Exile] = msgspec.field(default_factory=list)  # in the order of exile
    preset_reshuffles: list[list[str]] = msgspec.field(default_factory=list)  # R6 orders fixed (replay scripts)
    reshuffles_done: int = 0
    sessions: list[Session] = msgspec.field(default_factory=list)  # secret: every legislative session's cards
    investigations: list[Investigation] = msgspec.field(default_factory=list)  # secret: R21 results
    peeks: list[Peek] = msgspec.field(default_factory=list)  # secret: R22 results
    events: list[EngineEvent] = msgspec.field(default_factory=list)  # the public log (not stored: see codec.py)

    @property
    def players_at_start(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        return self.step is GAME_OVER

    @property
    def winner(self) -> str | None:
        """The winning party's name, as the replay script prints it (None: no winner, or not over)."""
        return None if self.outcome is None or self.outcome.winner is None else str(self.outcome.winner)

    @property
    def win_reason(self) -> str | None:
        return None if self.outcome is None else str(self.outcome.termination)

    @property
    def cancelled(self) -> bool:
        return self.outcome is not None and self.outcome.termination == WinReason.CANCELLED

    def living(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.status == ALIVE]

    def name(self, seat: int | None) -> str | None:
        return None if seat is None else self.seats[seat].name

    def names(self, seats) -> list[str]:
        return [self.seats[i].name for i in seats]

    def to_dict(self) -> dict:
        """The whole state as JSON-shaped data (events and settings included): a snapshot, never shared; read
        back with codec.from_builtins, which upgrades data of an earlier version first."""
        return msgspec.to_builtins(self)
