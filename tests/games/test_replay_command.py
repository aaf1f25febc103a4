"""`manage.py replay`: the command line of REPLAY.md (files, standard input, options, exit statuses)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.replay import replay_script

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "scenarios"


def replay(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def script(**overrides) -> dict:
    data = json.loads((SHARED / "abstain-elects.json").read_text())
    data.update(overrides)
    return data


@pytest.fixture
def write(tmp_path):
    def write(name: str, data) -> str:
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data))
        return str(path)

    return write


def test_exit_0_and_the_state_when_every_action_applies():
    result = replay(str(SHARED / "abstain-elects.json"))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert output["ok"] is True and output["error"] is None
    assert output["state"]["step"] == "discard"
    assert output["events"][0]["type"] == "game_started"


def test_exit_1_on_an_illegal_action_with_its_index_and_message():
    result = replay(str(SHARED / "term-limit-last-chancellor.json"))
    assert result.returncode == 1
    output = json.loads(result.stdout)
    assert output["error"] == {"index": 8, "message": "cat is term-limited and cannot be nominated."}
    assert output["state"]["round"] == 2


def test_exit_2_on_a_badly_shaped_action_anywhere(write):
    actions = script()["actions"] + [{"type": "vote", "by": "ann", "vote": "yes"}]
    result = replay(write("bad.json", script(actions=actions)))
    assert result.returncode == 2
    assert json.loads(result.stdout) == {
        "ok": False,
        "error": {"index": None, "message": "action 5 (vote) has an invalid 'vote': 'yes'"},
        "state": None,
    }
    assert result.stderr.strip().endswith("action 5 (vote) has an invalid 'vote': 'yes'")
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": ["a", "b"]}, "5 to 10 players"),
        ({"deck": ["L"] * 17}, "the deck is 17 cards"),
        ({"settings": {"speed": True}}, "unknown setting 'speed'"),
        ({"settings": {"close_vote_early": "yes"}}, "must be true or false"),
        ({"seed": "7"}, "seed must be an integer"),
        ({"actions": [{"type": "dance"}]}, "unknown type 'dance'"),
        ({"actions": [{"type": "nominate", "by": "ann"}]}, "needs 'target'"),
        ({"actions": ["nominate"]}, "not an object"),
        ({"first_president": "zed"}, "first_president 'zed' is not one of the players"),
    ],
)
def test_exit_2_on_an_invalid_script(write, change, message):
    result = replay(write("bad.json", script(**change)))
    assert result.returncode == 2
    assert message in json.loads(result.stdout)["error"]["message"]


def test_exit_2_on_unreadable_files(write):
    result = replay(write("broken.json", "{not json"))
    assert result.returncode == 2
    assert json.loads(result.stdout)["state"] is None
    assert replay("/nonexistent/script.json").returncode == 2


def test_exit_2_when_a_forced_reshuffle_does_not_hold_the_cards(write):
    data = json.loads((ROOT / "tests/scenarios/r6-reshuffle-right-after-fifth-enactment.json").read_text())
    data["reshuffles"] = [["L"] * 12]
    result = replay(write("reshuffle.json", data))
    assert result.returncode == 2
    assert "reshuffle 1 must hold" in json.loads(result.stdout)["error"]["message"]


def test_several_files_give_json_lines_and_the_highest_status(write):
    bad = write("bad.json", "[]")
    result = replay(str(SHARED / "abstain-elects.json"), str(SHARED / "term-limit-last-chancellor.json"), bad)
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["ok"] for line in lines] == [True, False, False]
    assert lines[2]["state"] is None


def test_standard_input():
    result = replay("-", stdin=(SHARED / "nomination-timeout.json").read_text())
    assert result.returncode == 0
    assert json.loads(result.stdout)["state"]["missed"]["ann"] == 1


def test_view_adds_what_that_player_alone_knows():
    result = replay("--view", "cat", str(SHARED / "abstain-elects.json"))
    private = json.loads(result.stdout)["private"]
    assert (private["name"], private["role"], private["party"]) == ("cat", "hitler", "fascist")
    assert private["teammates"] == []  # R3: 7 players, Hitler knows no one
    ann = json.loads(replay("--view", "ann", str(SHARED / "abstain-elects.json")).stdout)["private"]
    assert ann["hand"] == ["F", "F", "F"]


def test_view_of_a_name_not_in_the_game_is_an_invalid_call():
    result = replay("--view", "zed", str(SHARED / "abstain-elects.json"))
    assert result.returncode == 2
    assert "zed" in result.stderr


def test_reveal_adds_everything():
    output = json.loads(replay("--reveal", str(SHARED / "abstain-elects.json")).stdout)
    secret = output["secret"]
    assert secret["roles"]["cat"] == "hitler"
    assert secret["hand"] == ["F", "F", "F"]
    assert len(secret["draw_pile"]) == 14
    assert "private" not in output


def test_needs_no_database(tmp_path):
    env_db = f"sqlite:///{tmp_path}/missing/dir/db.sqlite3"
    result = subprocess.run(
        [sys.executable, "manage.py", "replay", str(SHARED / "abstain-elects.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"DATABASE_URL": env_db, "PATH": "/usr/bin:/bin", "DEBUG": "1"},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"actions": [{"type": ["nominate"]}]}, "unknown type"),
        ({"deck": [["L"]] * 17}, "a card is L or F"),
        (
            {
                "roles": {
                    "ann": ["liberal"],
                    "bob": "fascist",
                    "cat": "hitler",
                    "dan": "fascist",
                    **dict.fromkeys(("eve", "fay", "gus"), "liberal"),
                }
            },
            "a role is liberal, fascist or hitler",
        ),
        ({"settings": []}, "settings must be an object"),
        ({"settings": 0}, "settings must be an object"),
    ],
)
def test_oddly_typed_values_are_invalid_not_crashes(change, message):
    status, output = replay_script(script(**change))
    assert status == 2
    assert message in output["error"]["message"]
