"""Issue 20: a backup restored. A running game is dumped by deploy/backup.sh, restored with pg_restore into a new
database, and goes on there: the same state, a player's move accepted, its next deadline enforced by the sweep."""

import os
import secrets
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connections
from django.utils import timezone

from devtools.chaos.scenarios import using_database
from devtools.chaos.services import database_url
from games.engine import codec, legal_actions, waiting_for
from games.engine.notation import player_move
from games.models import ActionRecord, Game
from games.services import make_move
from games.services.deadlines import sweep_due_deadlines
from tests.factories import governments, running_game

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def test_t4_a_running_game_restored_from_last_nights_backup_goes_on(tmp_path):
    game = running_game(actions=governments(("ann", "bob")), now=timezone.now())  # a round played: a policy enacted
    stored = codec.encode(game.load_state())
    env = {**os.environ, "DATABASE_URL": database_url(), "BACKUP_DIR": str(tmp_path)}
    subprocess.run([str(ROOT / "deploy" / "backup.sh")], env=env, check=True, capture_output=True, timeout=120)
    (dump,) = tmp_path.glob("*.dump")

    source = connections["default"].settings_dict
    name = f"sh_restore_{secrets.token_hex(4)}"
    server = database_url({**source, "NAME": "postgres"})
    subprocess.run(["psql", "-q", server, "-c", f'CREATE DATABASE "{name}"'], check=True, capture_output=True)
    restored = database_url({**source, "NAME": name})
    try:
        subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", "-d", restored, str(dump)], check=True,
                       capture_output=True, timeout=120)  # fmt: skip
        with using_database(restored):
            again = Game.objects.get(pk=game.pk)
            assert codec.encode(again.load_state()) == stored  # the same game, secrets and all
            state = again.load_state()
            seat = waiting_for(state)[0]
            player = again.seats.get(number=seat).user
            make_move(again.pk, player, player_move(state, legal_actions(state, seat)[0]), state.step_number)
            assert ActionRecord.objects.filter(game=again, source=ActionRecord.Source.PLAYER).count() == 1
            due = Game.objects.get(pk=game.pk).deadline
            assert sweep_due_deadlines(now=due + timedelta(seconds=1)) == 1  # its deadlines are enforced there
    finally:
        connections["default"].close()
        subprocess.run(["psql", "-q", server, "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'],
                       check=True, capture_output=True)  # fmt: skip
