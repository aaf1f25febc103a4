"""Every replay scenario, ../shared's and ours (tests/scenarios, one per rule), gives what it expects."""

import json
from pathlib import Path

import pytest

from games.replay import replay_script

SHARED = Path(__file__).resolve().parents[3] / "shared" / "scenarios"
OURS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(SHARED.glob("*.json")) + sorted(OURS.glob("*.json"))


def test_the_shared_scenarios_are_found():
    assert len(list(SHARED.glob("*.json"))) >= 5, f"expected ../shared/scenarios beside the repository ({SHARED})"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path):
    script = json.loads(path.read_text())
    expect = script["expect"]
    status, output = replay_script(script)
    assert output["ok"] == expect["ok"], output["error"]
    assert status == (0 if expect["ok"] else 1)
    if "error_index" in expect:
        assert output["error"]["index"] == expect["error_index"]
    for key, value in expect.get("state", {}).items():
        assert output["state"][key] == value, key
