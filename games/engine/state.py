"""The whole state of one game: plain data, serialisable to JSON and back without loss."""

from .constants import Role, SeatStatus, Step, party_of
from .rng import Randomness
from .settings import Settings


class Seat:
    """One place at the table. The person in it may change (E5 substitution, E8 replacement); the seat
    keeps its role, knowledge, term limit and place in the rotation."""

    __slots__ = (
        "away",
        "confirmed_not_hitler",
        "excused",
        "excused_miss",
        "investigated",
        "made",
        "missed",
        "missed_rounds",
        "name",
        "role",
        "status",
    )

    def __init__(self, name: str, role: Role) -> None:
        self.name = name
        self.role = role
        self.status = SeatStatus.ALIVE
        self.missed_rounds = 0  # E3: rounds missed in a row, as counted when the last round ended
        self.away = False  # E4: an announced absence is under way
        self.investigated = False  # R21
        self.confirmed_not_hitler = False  # R16
        # E2/E3 bookkeeping for the round under way.
        self.made = False  # owed an action and made it
        self.missed = False  # owed an action and missed it, not excused by an absence
        self.excused_miss = False  # missed while away (E4)
        self.excused = False  # a moderator excused this seat's misses in the round (E8)

    @property
    def alive(self) -> bool:
        return self.status == SeatStatus.ALIVE

    @property
    def party(self):
        return party_of(self.role)

    def to_dict(self) -> dict:
        return {slot: getattr(self, slot) for slot in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict) -> "Seat":
        seat = cls.__new__(cls)
        for slot in cls.__slots__:
            setattr(seat, slot, data[slot])
        seat.role = Role(data["role"])
        seat.status = SeatStatus(data["status"])
        return seat


class GameState:
    """Everything about a game. Seats are referred to by index (seat order) everywhere."""

    __slots__ = (
        "chancellor",
        "discard_pile",
        "draw_pile",
        "elected",
        "election_tracker",
        "events",
        "execution_target",
        "exiled_log",
        "fascist_policies",
        "former_names",
        "hand",
        "investigations",
        "last_chancellor",
        "last_president",
        "liberal_policies",
        "peeks",
        "pending",
        "preset_reshuffles",
        "president",
        "reshuffles_done",
        "rng",
        "rotation_seat",
        "round",
        "seats",
        "sessions",
        "settings",
        "special_pick",
        "step",
        "step_number",
        "substitutes",
        "veto_refused",
        "votes",
        "win_reason",
        "winner",
    )

    def __init__(self, settings: Settings, seats: list[Seat], draw_pile: list[str], rng: Randomness) -> None:
        self.settings = settings
        self.seats = seats
        self.rng = rng  # secret: the seed and its scheme
        self.draw_pile = draw_pile  # top card first
        self.discard_pile: list[str] = []
        self.hand: list[str] = []  # the cards of the legislative session under way
        self.liberal_policies = 0
        self.fascist_policies = 0
        self.election_tracker = 0
        self.round = 0
        self.step = Step.NOMINATE
        self.step_number = 0  # rises each time a new waiting step begins, never on a ballot
        self.president: int | None = None  # this round's presidential candidate
        self.chancellor: int | None = None  # this round's chancellor nominee
        self.elected = False
        self.rotation_seat: int | None = None  # the last candidate chosen by rotation (R8, R24)
        self.special_pick: int | None = None  # the next candidate picked by a special election (R24)
        self.last_president: int | None = None  # R10: the last elected government
        self.last_chancellor: int | None = None
        self.votes: dict[int, str] = {}  # seat -> ballot, for the vote open now
        self.veto_refused = False
        self.execution_target: int | None = None  # under execution_vote (R23)
        self.winner: str | None = None
        self.win_reason: str | None = None
        self.substitutes: list[str] = []  # E5: people waiting to take an exiled seat, first first
        self.former_names: list[str] = []  # people who held a seat and no longer do
        self.pending: list[list] = []  # E8: [kind, seat, name] to apply when the round ends
        self.exiled_log: list[list] = []  # [seat, name] in the order of exile
        self.preset_reshuffles: list[list[str]] = []  # R6 orders fixed in advance (replay scripts)
        self.reshuffles_done = 0
        self.sessions: list[dict] = []  # secret: every legislative session's cards
        self.investigations: list[dict] = []  # secret: R21 results
        self.peeks: list[dict] = []  # secret: R22 results
        self.events: list[dict] = []  # the public log

    @property
    def players_at_start(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        return self.step == Step.GAME_OVER

    def living(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.status == SeatStatus.ALIVE]

    def name(self, seat: int | None) -> str | None:
        return None if seat is None else self.seats[seat].name

    def names(self, seats) -> list[str]:
        return [self.seats[i].name for i in seats]

    def to_dict(self) -> dict:
        data = {slot: getattr(self, slot) for slot in self.__slots__}
        data["settings"] = self.settings.to_dict()
        data["seats"] = [seat.to_dict() for seat in self.seats]
        data["rng"] = self.rng.to_json()
        data["votes"] = [[seat, ballot] for seat, ballot in self.votes.items()]
        return _copy(data)

    @classmethod
    def from_dict(cls, data: dict) -> "GameState":
        data = _copy(data)
        state = cls.__new__(cls)
        for slot in cls.__slots__:
            setattr(state, slot, data[slot])
        state.settings = Settings(**data["settings"])
        state.seats = [Seat.from_dict(seat) for seat in data["seats"]]
        state.rng = Randomness.from_json(data["rng"])
        state.step = Step(data["step"])
        state.votes = dict(data["votes"])
        return state


def _copy(value):
    """A deep copy of JSON-shaped data (faster than copy.deepcopy, and turns enums into strings)."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(item) for item in value]
    if isinstance(value, str):
        return str(value)
    return value
