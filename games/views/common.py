"""Helpers shared by the views: loading a game with its state and the viewer, and running a service call."""

from collections.abc import Callable

from django.contrib import messages
from django.shortcuts import redirect

from games.access import Viewer, access_game, viewer_for
from games.engine import GameState
from games.models import Game
from games.services import GameError


def load(request, game_id: int) -> tuple[Game, GameState | None, Viewer]:
    game = access_game(game_id)
    state = GameState.from_dict(game.state) if game.state else None
    return game, state, viewer_for(game, request.user, state)


def refused(request, error: GameError, to: str):
    """A refused request: the message shown, nothing changed, back to the page it came from."""
    messages.error(request, str(error))
    return redirect(to)


def attempt(request, call: Callable[[], object], back: str, done: str | None = None):
    """Run a service call for a form: its refusal (or `done`, if given) is shown, then back to the page."""
    try:
        call()
    except GameError as error:
        return refused(request, error, back)
    if done is not None:
        messages.success(request, done)
    return redirect(back)
