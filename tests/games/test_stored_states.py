"""Running games survive a change of the stored state (issue 13): a game stored by the code before typed records
(version 1) finishes after it, and whatever a change sets on the game row is written."""

import json
import random
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import codec, legal_actions
from games.engine.notation import PLAYER_MOVES
from games.models import Game
from games.services import make_move, play, sweep_due_deadlines
from games.services.interventions import lock_thread, pause, resume
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


def stored_as_changed(game: Game) -> bool:
    """Whether the row holds every field of the game as the change left it in memory."""
    row = reload(game)
    return all(getattr(row, f.attname) == getattr(game, f.attname) for f in Game._meta.concrete_fields)


def all_stored(written: list[Game]) -> bool:
    """Whether each game written is stored as its last change left it; then forgets them."""
    last = {game.pk: game for game in written}
    written.clear()
    return bool(last) and all(stored_as_changed(game) for game in last.values())


def test_every_field_a_change_sets_is_written(monkeypatch):
    """Moves, deadlines (alone and in a batch) and interventions: whatever a change sets on the game, the row
    holds after it. A field set in a change but missing from PLAYED_FIELDS fails here."""
    written: list[Game] = []
    save = play._save_games
    monkeypatch.setattr(play, "_save_games", lambda games: (written.extend(games), save(games)))
    games = [running_game(), running_game()]
    rnd, now = random.Random(7), START
    for intervene in (pause, resume, lock_thread):
        intervene(games[0].pk, None, now=now)
        assert all_stored(written)
    for _ in range(300):
        game = reload(rnd.choice(games))
        state = game.load_state()
        moves = [action for action in legal_actions(state) if action.by is not None and action.type in PLAYER_MOVES]
        if state.over:
            break
        if moves and rnd.random() < 0.8:
            action = rnd.choice(moves)
            make_move(game.pk, user(state.seats[action.by].name), as_move(state, action), game.step_number, now=now)
        else:
            now = max(reload(g).deadline or now for g in games)
            sweep_due_deadlines(now=now)
        assert all_stored(written)


def test_a_change_writes_its_played_fields_never_the_settings():
    """A change writes the running game (PLAYED_FIELDS) in one UPDATE: never the settings, which their own forms
    write, so that a change cannot put back a setting it read before."""
    game = running_game()
    with CaptureQueriesContext(connection) as queries, changing(game.pk) as change:
        change.game.thread_locked = True
    updates = [q["sql"] for q in queries.captured_queries if 'UPDATE "games_game"' in q["sql"]]
    assert len(updates) == 1
    assert '"thread_locked" =' in updates[0] and '"name" =' not in updates[0] and '"house_rules" =' not in updates[0]
    assert reload(game).thread_locked
