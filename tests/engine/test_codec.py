"""The stored state: typed records, versioned, upgraded on load (games/engine/codec.py).

tests/engine/stored/v1.json holds, for every scenario of tests/scenarios played to its end under both random
schemes, the state as the code before typed records stored it (version 1: the fair-play change's `rng` included),
with the summary and the secret view that code printed. Each must load, upgraded, to the same views; the test's
own version-1 writer must agree with that code; and upgrading then playing on must equal playing on.
"""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec import NODEFAULT
from msgspec.structs import fields

from games.engine import GameState, Settings, apply, codec, new_game, random_move, secret_view, summary
from games.engine.rng import NAMED_STREAMS, SINGLE_STREAM
from games.engine.state import Seat, Session
from games.replay import parse_script, play

STORED = Path(__file__).resolve().parent / "stored"
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
VERSION_1 = json.loads((STORED / "v1.json").read_text())
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe"]


def scenario(key: str) -> dict:
    name, scheme = key.split("/")
    data = json.loads((SCENARIOS / f"{name}.json").read_text())
    data.pop("expect", None)
    return {**data, "rng": scheme}


def as_version_1(g) -> dict:
    """The state as version 1 stored it (games/services/play.py before typed records): every field, the
    settings inside, the events emptied, winner and win_reason apart, pairs and triples for the records."""
    data = {**{name: getattr(g, name) for name in g.__struct_fields__}, "events": []}
    data = json.loads(json.dumps(codec.to_builtins(g.__class__(**data))))
    data.pop("version")
    data.pop("living_count", None)  # kept from version 3 on
    defaults = {"outcome": None, "votes": {}, "pending": [], "exiled_log": []}
    data = {**defaults, **data}
    outcome = data.pop("outcome")
    data["winner"] = outcome.get("winner") if outcome else None
    data["win_reason"] = outcome["termination"] if outcome else None
    data["votes"] = [[int(seat), ballot] for seat, ballot in data["votes"].items()]
    data["pending"] = [[entry["kind"], entry["seat"], entry.get("name")] for entry in data["pending"]]
    data["exiled_log"] = [[entry["seat"], entry["name"]] for entry in data["exiled_log"]]
    rng = data["rng"]
    data["rng"] = rng["shared"] if rng["scheme"] == SINGLE_STREAM else {"scheme": rng["scheme"], "seed": rng["seed"]}
    return data


def complete(data: dict) -> dict:
    """Version-1 data with every field its writer wrote (a field at its default included)."""
    data = {**_defaults(GameState), "settings": data.get("settings"), "outcome": None, **data}
    data["seats"] = [{**_defaults(Seat), **entry} for entry in data["seats"]]
    data["sessions"] = [{**_defaults(Session), **entry} for entry in data["sessions"]]
    if data["settings"] is not None:  # a house rule declared since version 1 was stored, at its default
        data["settings"] = {**Settings().to_dict(), **data["settings"]}
    data.pop("version", None)
    data.pop("living_count", None)
    return data


def _defaults(record: type) -> dict:
    """A record's fields that have a default, with it, as JSON writes them."""
    defaults = {
        field.name: field.default_factory() if field.default_factory is not NODEFAULT else field.default
        for field in fields(record)
        if field.default is not NODEFAULT or field.default_factory is not NODEFAULT
    }
    return json.loads(json.dumps(defaults))


@pytest.mark.parametrize("key", sorted(VERSION_1))
def test_every_version_1_state_loads_to_the_views_that_code_printed(key):
    entry = VERSION_1[key]
    settings = parse_script(scenario(key)).settings
    state = codec.decode(entry["stored"], settings)
    assert json.loads(json.dumps(summary(state))) == entry["summary"]
    assert json.loads(json.dumps(secret_view(state))) == entry["secret"]


@pytest.mark.parametrize("key", sorted(VERSION_1))
def test_the_tests_version_1_writer_agrees_with_that_code(key):
    g, _error = play(parse_script(scenario(key)))
    assert complete(as_version_1(g)) == complete(json.loads(VERSION_1[key]["stored"]))


@pytest.mark.parametrize("version", range(2, codec.VERSION + 1))
def test_a_state_of_every_later_version_is_kept_and_loads(version):
    """Kept for the versions to come: tests/engine/stored/vN.json must load, upgraded, in every later one (a new
    version adds its own file, written by the code that introduces it)."""
    kept = json.loads((STORED / f"v{version}.json").read_text())
    assert {json.loads(entry["stored"])["version"] for entry in kept.values()} == {version}
    for key, entry in kept.items():
        state = codec.decode(entry["stored"], parse_script(scenario(key)).settings)
        assert json.loads(json.dumps(summary(state))) == entry["summary"]
        assert json.loads(json.dumps(secret_view(state))) == entry["secret"]


@given(
    players=st.integers(5, 10),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 150),
    scheme=st.sampled_from([NAMED_STREAMS, SINGLE_STREAM]),
)
def test_upgrading_then_playing_on_equals_playing_on(players, seed, moves, scheme):
    rnd = random.Random(seed)
    g = new_game(NAMES[:players], seed=seed, rng=scheme)
    for _ in range(moves):
        if g.over:
            break
        apply(g, random_move(g, rnd))
    upgraded = codec.decode(json.dumps(as_version_1(g)), g.settings)
    stored = codec.decode(codec.encode(g), g.settings)  # the current version's round trip, the same way
    g.events.clear()
    state = rnd.getstate()
    for copy in (g, upgraded, stored):
        rnd.setstate(state)
        while not copy.over:
            apply(copy, random_move(copy, rnd))
    assert codec.to_builtins(upgraded) == codec.to_builtins(g) == codec.to_builtins(stored)


def test_a_stored_state_is_json_text_of_the_current_version_without_settings_or_events():
    g = new_game(NAMES[:5], seed=3)
    text = codec.encode(g)
    data = json.loads(text)
    assert data["version"] == codec.VERSION and "settings" not in data and "events" not in data
    assert g.events and g.settings is not None  # the state itself keeps them
    with pytest.raises(ValueError, match="newer than this code"):
        codec.upgrade({"version": codec.VERSION + 1})
