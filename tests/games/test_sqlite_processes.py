"""SQLite, the `make run` default: the web server, a worker and beat write to one file at once (WAL mode,
a busy timeout, transactions that take the write lock at their start): nothing is lost, nothing fails."""

import json
import subprocess
import sys
from datetime import datetime, timedelta

import pytest

from .processes import ROOT, environment

pytestmark = pytest.mark.slow

WRITER = """
import django, json, sys
django.setup()
from games.services import extend, sweep_due_deadlines
ids = json.loads(sys.argv[1])
done = {}
for turn in range(25):
    game_id = ids[turn % len(ids)]
    extend(game_id, None, hours=1)
    sweep_due_deadlines()
    done[game_id] = done.get(game_id, 0) + 1
print(json.dumps(done))
"""

DEADLINES = """
import django, json
django.setup()
from games.models import Game
print(json.dumps({game.pk: game.deadline.isoformat() for game in Game.objects.all()}))
"""


def run(*args: str, env: dict) -> str:
    result = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_three_processes_write_to_one_sqlite_file(tmp_path):
    env = environment(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    run("manage.py", "migrate", "-v0", env=env)
    scenario = str(ROOT.parent / "shared" / "scenarios" / "abstain-elects.json")
    ids = [json.loads(run("manage.py", "import_replay", scenario, env=env))["game_id"] for _ in range(3)]
    before = json.loads(run("-c", DEADLINES, env=env))
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, json.dumps(ids)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outputs = [writer.communicate(timeout=300) for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0, 0], [err for _, err in outputs]
    extensions = dict.fromkeys(map(str, ids), 0)
    for out, _ in outputs:
        for game_id, count in json.loads(out).items():
            extensions[game_id] += count
    after = json.loads(run("-c", DEADLINES, env=env))
    for game_id, count in extensions.items():
        shift = datetime.fromisoformat(after[game_id]) - datetime.fromisoformat(before[game_id])
        assert shift == timedelta(hours=count), "an extension was lost"
