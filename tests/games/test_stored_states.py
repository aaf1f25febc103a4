"""Running games survive a change of the stored state (issue 13): a game stored by the code before typed records
(version 1) finishes after it, and a game row's changed fields are written from the model, with no list."""

import json
import random
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import codec, legal_actions
from games.engine.notation import PLAYER_MOVES
from games.models import Game
from games.services import make_move, sweep_due_deadlines
from games.services.play import changing
from games.services.transfer import import_script
from tests.factories import START, running_game

from .helpers import reload, user

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]
VERSION_1 = json.loads((ROOT / "engine" / "stored" / "v1.json").read_text())


def scenario(key: str) -> dict:
    name, scheme = key.split("/")
    data = json.loads((ROOT / "scenarios" / f"{name}.json").read_text())
    data.pop("expect", None)
    return {**data, "rng": scheme}


def as_move(state, action) -> dict:
    """The engine's legal move as the panel's form sends it."""
    move = {"type": action.type}
    if action.target is not None:
        move["target"] = state.seats[action.target].name
    field = {"vote": "vote", "discard": "policy", "enact": "policy", "veto_reply": "accept"}.get(action.type)
    if field:
        move[field] = action.choice
    return move


@pytest.mark.parametrize(
    "key",
    [
        "e5-exiled-hitler-replaced-by-substitute-game-goes-on/named-streams",  # a seat that changed hands
        "e5-substitute-takes-exiled-seat/single-stream",  # an exile, a substitute, the single stream
        "r11-close-vote-early-off-vote-stays-open/named-streams",  # a vote open, ballots cast
        "r15-tracker-not-reset-by-election/single-stream",  # a legislative session under way
    ],
)
def test_a_game_stored_as_version_1_finishes_after_the_change(key):
    game = import_script(scenario(key), now=START)
    Game.objects.filter(pk=game.pk).update(state=VERSION_1[key]["stored"])  # as the code before stored it
    rnd = random.Random(key)
    now = START
    for _ in range(600):
        game = reload(game)
        state = game.load_state()
        if state.over:
            break
        moves = [action for action in legal_actions(state) if action.by is not None and action.type in PLAYER_MOVES]
        if moves and rnd.random() < 0.9:
            action = rnd.choice(moves)
            make_move(game.pk, user(state.seats[action.by].name), as_move(state, action), game.step_number, now=now)
        else:  # now and then a deadline passes instead
            now = game.deadline
            sweep_due_deadlines(now=now)
    game = reload(game)
    assert game.status in (Game.Status.FINISHED, Game.Status.CANCELLED) and game.load_state().over
    assert json.loads(game.state)["version"] == codec.VERSION  # written back in the current version


def test_a_field_set_in_a_change_is_stored_with_no_list_to_keep():
    """The fields a change sets are found from the model: here three no list of the service layer ever named."""
    game = running_game()
    with changing(game.pk) as change:
        change.game.thread_locked = True
        change.game.lobby_days = 3
        change.game.name = "Renamed in a change"
    game = reload(game)
    assert (game.thread_locked, game.lobby_days, game.name) == (True, 3, "Renamed in a change")


def test_only_the_fields_that_changed_are_written():
    game = running_game()
    with CaptureQueriesContext(connection) as queries, changing(game.pk) as change:
        change.game.thread_locked = True
    updates = [q["sql"] for q in queries.captured_queries if 'UPDATE "games_game"' in q["sql"]]
    assert len(updates) == 1
    assert '"thread_locked"' in updates[0] and '"name"' not in updates[0] and '"state"' not in updates[0]
