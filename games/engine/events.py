"""The public game log: every event kind as a typed record (msgspec Struct), what it means in its docstring.

Events hold only what every player may know. Secrets (cards, roles, investigation and peek results) are in
GameState.sessions/investigations/peeks and reach people only through views.py.

Every record is one member of the tagged union `Event`: as JSON, `type` names its kind (the tag), then come its
own fields, then `round` (the round it happened in) and, on one event only, `by_deadline`. That JSON is the
stored log (games.models.GameEvent: `type` in its own column, the rest in `data`), the API's and the webhooks'
events, unchanged since the events were plain dicts: logs written then decode into these records as they are
(`from_stored`), so the log has no version of its own.

The event that carries a passed deadline's outcome (T4) has `by_deadline: true`: the nomination, ballot count,
discard, enactment, veto answer or power use that the deadline applied, not the player, and at random where T4
draws (which card stays secret: only the event's usual fields are public). It directly follows
`deadline_passed`. Logs written before it existed lack it; it is left out when false.

The services write one kind of their own into the same log, `ModeratorAction` (a moderator's intervention): it
has no round. `LogEntry` is the union of both: what a stored row decodes to.
"""

from typing import ClassVar, Union

import msgspec


class Event(msgspec.Struct, tag_field="type", kw_only=True, gc=False):
    """Fields every engine event has (kw_only: written last, after the kind's own fields)."""

    round: int
    by_deadline: bool | msgspec.UnsetType = msgspec.UNSET  # T4: true or left out
    type: ClassVar[str]  # the tag, set on each kind below


def _kind(cls):
    """The record's tag as a class attribute, so that `event.type` reads as it did on the dicts."""
    cls.type = cls.__struct_config__.tag
    return cls


@_kind
class GameStarted(Event, tag="game_started"):
    """The game began; players: names in seat order."""

    players: list[str]


@_kind
class RoundStarted(Event, tag="round_started"):
    """A presidential candidacy began (E1); president: the candidate."""

    president: str


@_kind
class CandidacyLost(Event, tag="candidacy_lost"):
    """The candidacy ended with no government (R13, T4, T6); reason: no_nomination (the deadline passed) or
    nobody_eligible."""

    president: str | None
    reason: str


@_kind
class Nominated(Event, tag="nominated"):
    """The candidate nominated a chancellor (R9)."""

    president: str
    chancellor: str


@_kind
class VoteClosed(Event, tag="vote_closed"):
    """An election's ballots revealed (R11, R12); ballots {name: ja|nein}, missing [names], passed."""

    president: str
    chancellor: str
    ballots: dict[str, str]
    missing: list[str]
    ja: int
    nein: int
    passed: bool


@_kind
class TrackerAdvanced(Event, tag="tracker_advanced"):
    """The election tracker moved on (R13, R19)."""

    election_tracker: int


@_kind
class TrackerReset(Event, tag="tracker_reset"):
    """A government was elected and the election tracker, which stood above 0, went back to 0 (the house rule
    tracker_resets_on_election; R15's reset by an enacted policy goes without saying)."""


@_kind
class Chaos(Event, tag="chaos"):
    """The tracker reached 3: the top card is enacted (R14)."""


@_kind
class PolicyEnacted(Event, tag="policy_enacted"):
    """A policy was enacted (R17, R14); policy L|F, chaos: from the top of the deck."""

    policy: str
    chaos: bool
    liberal_policies: int
    fascist_policies: int


@_kind
class DeckReshuffled(Event, tag="deck_reshuffled"):
    """The discards were shuffled into a new draw pile (R6); draw_pile: its size."""

    draw_pile: int


@_kind
class ConfirmedNotHitler(Event, tag="confirmed_not_hitler"):
    """An elected chancellor is confirmed not Hitler (R16)."""

    player: str


@_kind
class LegislativeSessionStarted(Event, tag="legislative_session_started"):
    """An elected government starts its session (R17)."""

    president: str
    chancellor: str


@_kind
class PresidentDiscarded(Event, tag="president_discarded"):
    """The president passed two cards to the chancellor (R17)."""

    president: str


@_kind
class VetoRequested(Event, tag="veto_requested"):
    """The chancellor asked for a veto (R19)."""

    chancellor: str | None


@_kind
class VetoAnswered(Event, tag="veto_answered"):
    """The president answered the veto request (R19)."""

    president: str | None
    accepted: bool


@_kind
class PowerGranted(Event, tag="power_granted"):
    """The president holds a power (R20)."""

    president: str | None
    power: str


@_kind
class PowerForfeited(Event, tag="power_forfeited"):
    """A power was lost (R20, T4); reason: no_target or timeout."""

    president: str | None
    power: str
    reason: str


@_kind
class PolicyPeeked(Event, tag="policy_peeked"):
    """The president looked at the top three cards (R22)."""

    president: str | None


@_kind
class Investigated(Event, tag="investigated"):
    """The president investigated a player (R21); the result is secret."""

    president: str | None
    target: str


@_kind
class SpecialElection(Event, tag="special_election"):
    """The president picked the next candidate (R24)."""

    president: str | None
    candidate: str | None


@_kind
class ExecutionProposed(Event, tag="execution_proposed"):
    """Variant execution_vote: the president proposes an execution (R23)."""

    president: str | None
    target: str | None


@_kind
class ExecutionVoteClosed(Event, tag="execution_vote_closed"):
    """Variant execution_vote: the ballots revealed (R23)."""

    target: str | None
    ballots: dict[str, str]
    missing: list[str]
    ja: int
    nein: int
    passed: bool


@_kind
class Executed(Event, tag="executed"):
    """A player was executed, role unrevealed (R23)."""

    president: str | None
    target: str


@_kind
class DeadlinePassed(Event, tag="deadline_passed"):
    """The current step's deadline passed and its outcome applies (T4); step: the step it ended."""

    step: str


@_kind
class RoundMissed(Event, tag="round_missed"):
    """A player missed the round that just ended (E2, E3); missed_rounds: in a row."""

    player: str
    missed_rounds: int


@_kind
class Warned(Event, tag="warned"):
    """A player missed a round: one more in a row and they are exiled (E7)."""

    player: str
    missed_rounds: int


@_kind
class Exiled(Event, tag="exiled"):
    """A player was exiled (E3, E5, E8); reason: missed_rounds or moderator."""

    player: str
    reason: str


@_kind
class Substituted(Event, tag="substituted"):
    """A substitute took an exiled player's seat (E5); player: the newcomer."""

    player: str
    replaces: str


@_kind
class Replaced(Event, tag="replaced"):
    """A moderator gave a seat to a new person (E8); player: the newcomer."""

    player: str
    replaces: str


@_kind
class SubstituteJoined(Event, tag="substitute_joined"):
    """A person signed up as a substitute (E5)."""

    player: str


@_kind
class SubstituteWithdrawn(Event, tag="substitute_withdrawn"):
    """A substitute no longer waits for a seat (E5)."""

    player: str


@_kind
class AbsenceStarted(Event, tag="absence_started"):
    """A player's announced absence began (E4)."""

    player: str


@_kind
class AbsenceEnded(Event, tag="absence_ended"):
    """A player's announced absence ended (E4)."""

    player: str


@_kind
class Excused(Event, tag="excused"):
    """A moderator excused a player's misses in this round (E8)."""

    player: str


@_kind
class ExileScheduled(Event, tag="exile_scheduled"):
    """A moderator will exile a player when the round ends (E8)."""

    player: str


@_kind
class ReplacementScheduled(Event, tag="replacement_scheduled"):
    """A moderator will replace a player when the round ends (E8)."""

    player: str


@_kind
class ReplacementWithdrawn(Event, tag="replacement_withdrawn"):
    """A replacement scheduled for the round's end was called off (E8); player: the seat's."""

    player: str


@_kind
class GameOver(Event, tag="game_over"):
    """The game ended (R26, R27, E8); winner: null if cancelled; roles {name: role}."""

    winner: str | None
    win_reason: str
    roles: dict[str, str]


ENGINE_EVENTS: tuple[type[Event], ...] = tuple(Event.__subclasses__())
"""Every kind the engine emits, in the order above."""

EngineEvent = Union[ENGINE_EVENTS]  # noqa: UP007 -- built from the tuple: one list of kinds
"""The tagged union of the engine's kinds: GameState.events holds these."""


@_kind
class ModeratorAction(msgspec.Struct, tag_field="type", tag="moderator_action", omit_defaults=True, gc=False):
    """A moderator's intervention, written by the services, not the engine: action pause, resume, extend (with
    hours), end_now, thread_locked or thread_unlocked. It has no round. `by_table`: the players voted it (a pause,
    resume or extension the table proposed and passed), no moderator."""

    type: ClassVar[str]
    action: str
    hours: int | None = None  # extend only
    by_table: bool = False


LOG_ENTRIES: tuple[type, ...] = (*ENGINE_EVENTS, ModeratorAction)
"""Every kind the public log holds."""

LogEntry = Union[LOG_ENTRIES]  # noqa: UP007 -- built from the tuple: one list of kinds
"""The tagged union of every kind: what one stored row of the log is."""


def from_stored(type_: str, data: dict) -> "Event | ModeratorAction":
    """One stored row of the log (GameEvent's type and data, or the API's and webhooks' event) as its record;
    raises msgspec.ValidationError on a row no kind fits."""
    return msgspec.convert({**data, "type": type_}, LogEntry)


def to_data(entry: "Event | ModeratorAction") -> dict:
    """A record's fields as stored (GameEvent.data): its JSON without `type`."""
    data = msgspec.to_builtins(entry)
    del data["type"]
    return data
