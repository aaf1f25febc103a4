"""The Secret Hitler rules engine: pure Python, no Django, no clock.

A game is a GameState; moves are Actions applied with `apply`, which raises IllegalAction and changes
nothing when the rules forbid the move. Everything random comes from the game's own seeded generator, so a
game is fully determined by its set-up and its list of moves. See events.py for the public log.
"""

from .actions import ACTION_TYPES, apply
from .constants import Party, Power, Role, SeatStatus, Step
from .errors import IllegalAction, InvalidSetup
from .legal import legal_actions, random_move
from .notation import Action
from .settings import Settings
from .setup import new_game
from .state import GameState
from .views import player_view, public_view, secret_view, summary, waiting_for

__all__ = [
    "ACTION_TYPES",
    "Action",
    "GameState",
    "IllegalAction",
    "InvalidSetup",
    "Party",
    "Power",
    "Role",
    "SeatStatus",
    "Settings",
    "Step",
    "apply",
    "legal_actions",
    "new_game",
    "player_view",
    "public_view",
    "random_move",
    "secret_view",
    "summary",
    "waiting_for",
]
