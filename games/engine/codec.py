"""How a game's state is stored: versioned JSON text, decoded straight into typed records (msgspec), upgraded
on load when it was written by an earlier version.

The stored form is the state (GameState itself: no second list of its fields) without two things kept
elsewhere: its settings (the game's row holds them, the one place they live) and its events (the public log is
stored event by event, games.models.GameEvent). Both come back when a game is loaded: `decode(text, settings)`.

Versions:
  1  everything before typed records (no "version" key): winner and win_reason apart, ballots as
     [seat, ballot] pairs, pending exiles and replacements as [kind, seat, name], the exile log as [seat, name],
     the settings and the whole event log inside; `rng` an int (single-stream) or {"scheme", "seed"}.
  2  typed records: `outcome` {termination, winner}, `votes` {seat: ballot}, `pending` [{kind, seat, name}],
     `exiled_log` [{seat, name}], `rng` {scheme, seed} or {scheme: "single-stream", shared}; no settings, no
     events; a field at its default left out.
  3  `living_count`: the seats alive, kept instead of counted at every ballot.
A new version adds `upgrade_vN_to_vN1` to UPGRADES; a test keeps a stored state of every version and loads it.
"""

import msgspec

from .settings import Settings
from .state import GameState

VERSION = 3


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(GameState)


def encode(state: GameState) -> str:
    """The state as stored: JSON text of the current version, without its settings and events (the fields
    left at their defaults are left out: GameState's omit_defaults)."""
    settings, events = state.settings, state.events
    state.settings, state.events, state.version = None, [], VERSION
    try:
        return _ENCODER.encode(state).decode()
    finally:
        state.settings, state.events = settings, events


def decode(text: str | bytes, settings: Settings) -> GameState:
    """A stored state, of any version, with the game's settings; its events list starts empty."""
    try:
        state = _DECODER.decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError):  # an earlier version (no "version"): upgraded below
        state = None
    if state is None or state.version != VERSION:
        try:
            state = msgspec.convert(upgrade(msgspec.json.decode(text)), GameState, strict=False)
        except (msgspec.DecodeError, msgspec.ValidationError, KeyError, TypeError, AttributeError) as error:
            raise UnreadableState(f"{type(error).__name__}: {error}") from error
    state.settings, state.events = settings, []
    return state


class UnreadableState(ValueError):
    """A stored state no version of this code can read (the sweep sets its game aside, the moderators see it)."""


def upgrade(data: dict) -> dict:
    """Apply the upgrade chain to stored data of any earlier version, up to VERSION."""
    version = data.get("version", 1)
    if version > VERSION:
        raise ValueError(f"a state of version {version} is newer than this code ({VERSION})")
    while version < VERSION:
        data = UPGRADES[version](data)
        version = data["version"]
    return data


def upgrade_v1_to_v2(data: dict) -> dict:
    """Typed records: the outcome, the ballots, pending exiles and replacements, the exile log."""
    data = dict(data)
    winner, reason = data.pop("winner", None), data.pop("win_reason", None)
    data["outcome"] = None if reason is None else {"termination": reason, "winner": winner}
    data["votes"] = {str(seat): ballot for seat, ballot in data.get("votes", [])}
    data["pending"] = [{"kind": kind, "seat": seat, "name": name} for kind, seat, name in data.get("pending", [])]
    data["exiled_log"] = [{"seat": seat, "name": name} for seat, name in data.get("exiled_log", [])]
    if isinstance(data.get("rng"), int):  # single-stream: the shared generator's state alone
        data["rng"] = {"scheme": "single-stream", "shared": data["rng"]}
    data["version"] = 2
    return data


def upgrade_v2_to_v3(data: dict) -> dict:
    """The count of living seats is kept in the state (it was counted again at every ballot)."""
    data = dict(data)
    data["living_count"] = sum(1 for seat in data["seats"] if seat.get("status", "alive") == "alive")
    data["version"] = 3
    return data


UPGRADES = {1: upgrade_v1_to_v2, 2: upgrade_v2_to_v3}


def to_builtins(state: GameState) -> dict:
    """The whole state, settings and events included, as JSON-shaped data of the current version."""
    return msgspec.to_builtins(state)


def from_builtins(data: dict) -> GameState:
    """A whole state from `to_builtins` data (or data of an earlier version, upgraded first)."""
    return msgspec.convert(upgrade(data), GameState, strict=False)
