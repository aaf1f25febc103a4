"""The public log's records (games/engine/events.py): one tagged union whose JSON is the log's as it was stored
before the records, so that every game's log still loads and the API and webhooks keep their shape."""

import json
from functools import cache
from pathlib import Path

import msgspec
import pytest

from games.engine import events as ev
from games.replay import replay_script

STORED = json.loads((Path(__file__).parent / "stored" / "events.json").read_text())
SCENARIOS = {"shared": Path(__file__).resolve().parents[3] / "shared" / "scenarios"}
SCENARIOS["tests"] = Path(__file__).resolve().parents[1] / "scenarios"


@cache
def replayed(scenario: str) -> list:
    folder, name = scenario.split("/")
    _status, output = replay_script(json.loads((SCENARIOS[folder] / name).read_text()))
    return output["events"]


def test_every_kind_is_one_member_of_the_union_tagged_by_its_type():
    tags = [kind.__struct_config__.tag for kind in ev.LOG_ENTRIES]
    assert len(tags) == len(set(tags)) == 39
    assert all(kind.type == kind.__struct_config__.tag for kind in ev.LOG_ENTRIES)
    assert all(kind.__struct_config__.tag_field == "type" for kind in ev.LOG_ENTRIES)


def test_every_kind_says_what_it_means():
    for kind in ev.LOG_ENTRIES:
        assert kind.__doc__ and kind.__doc__ != ev.Event.__doc__, kind


@pytest.mark.parametrize("row", STORED, ids=[f"{r['event']['type']}-{n}" for n, r in enumerate(STORED)])
def test_a_log_stored_before_the_records_decodes_and_encodes_as_it_was(row):
    event = row["event"]
    data = {key: value for key, value in event.items() if key != "type"}  # as GameEvent holds it
    record = ev.from_stored(event["type"], data)
    assert record.type == event["type"]
    assert json.dumps(ev.to_data(record)) == json.dumps(data)  # the same fields, in the same order


@pytest.mark.parametrize("row", [r for r in STORED if r["scenario"]], ids=lambda r: f"{r['scenario']}#{r['index']}")
def test_the_engine_writes_the_log_as_it_did_before_the_records(row):
    assert replayed(row["scenario"])[row["index"]] == row["event"]


def test_the_stored_log_covers_every_kind():
    assert {row["event"]["type"] for row in STORED} == {kind.type for kind in ev.LOG_ENTRIES}


def test_t4_by_deadline_is_left_out_unless_true():
    vote = ev.Nominated(president="ann", chancellor="bob", round=1)
    assert "by_deadline" not in ev.to_data(vote)
    vote.by_deadline = True
    assert ev.to_data(vote) == {"president": "ann", "chancellor": "bob", "round": 1, "by_deadline": True}


def test_a_row_no_kind_fits_is_refused():
    with pytest.raises(msgspec.ValidationError):
        ev.from_stored("nominated", {"president": "ann", "round": 1})  # no chancellor
    with pytest.raises(msgspec.ValidationError):
        ev.from_stored("no_such_kind", {"round": 1})
