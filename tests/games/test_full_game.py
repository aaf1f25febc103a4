"""A game created in the lobby, filled, started and played to its end through the service layer alone,
with deadlines passing now and then."""

import random
from datetime import timedelta

import pytest

from games.engine import legal_actions, waiting_for
from games.engine.notation import player_move
from games.models import Game
from games.replay import replay_script
from games.services import create_game, join_game, make_move, sweep_due_deadlines
from games.services.transfer import export_script
from tests.factories import NAMES, START, make_user

from .helpers import reload, user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("players", [5, 7, 10])
def test_a_lobby_game_is_played_to_its_end(players):
    rnd = random.Random(players)
    users = [make_user(name) for name in NAMES[:players]]
    game = create_game(users[0], player_count=players, now=START)
    for other in users[1:]:
        join_game(game.pk, other, now=START)
    now = START
    for _ in range(2000):
        game = reload(game)
        if game.status != Game.Status.RUNNING:
            break
        now += timedelta(minutes=10)
        if rnd.random() < 0.05:
            sweep_due_deadlines(now=game.deadline)
            now = game.deadline
            continue
        state = game.load_state()
        owing = set(waiting_for(state))
        action = rnd.choice([a for a in legal_actions(state) if a.by in owing])
        make_move(game.pk, user(state.seats[action.by].name), player_move(state, action), game.step_number, now=now)
    assert game.status == Game.Status.FINISHED
    assert game.winner in ("liberal", "fascist")
    status, output = replay_script(export_script(game))
    assert (status, output["state"]["winner"]) == (0, game.winner)
