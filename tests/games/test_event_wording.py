"""Every kind of the public log has its sentence in the thread (games/announcements.py) and its notices
(games/notify/bell.py): a new kind without them fails here, not in a reader's page."""

import json
from pathlib import Path

import pytest

from games import announcements
from games.engine import events as ev
from games.notify import bell

STORED = json.loads((Path(__file__).parents[1] / "engine" / "stored" / "events.json").read_text())
ROWS = [(row["event"]["type"], {k: v for k, v in row["event"].items() if k != "type"}) for row in STORED]


@pytest.mark.parametrize(
    ("table", "name"), [(announcements.WORDING, "announcements.WORDING"), (bell.NOTICES, "bell.NOTICES")]
)
def test_every_consumer_covers_every_kind_of_the_log(table, name):
    kinds = set(ev.LOG_ENTRIES)
    assert not kinds - table.keys(), f"{name} misses {sorted(k.__name__ for k in kinds - table.keys())}"
    assert not table.keys() - kinds, f"{name} has kinds the log does not: {table.keys() - kinds}"


def test_t4_every_kind_a_deadline_marks_has_its_sentence():
    marked = {ev.from_stored(kind, data).__class__ for kind, data in ROWS if data.get("by_deadline")}
    assert marked - {ev.VoteClosed, ev.ExecutionVoteClosed} <= announcements.BY_DEADLINE.keys()


@pytest.mark.parametrize(("kind", "data"), ROWS, ids=[f"{kind}-{n}" for n, (kind, _) in enumerate(ROWS)])
def test_every_stored_event_reads_as_a_sentence(kind, data):
    text = announcements.describe_stored(kind, data)
    assert text.rstrip().endswith(".") and "%(" not in text
    assert text.startswith("The deadline passed") == bool(
        data.get("by_deadline") or data.get("reason") in ("timeout", "no_nomination")
    )
