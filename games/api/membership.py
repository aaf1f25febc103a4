"""A seat taken or given up: joining an open game (or as a substitute, E5), leaving it before it starts."""

from games.api.auth import SIGNED, player
from games.api.common import Done, Id, Router, find_game
from games.api.problems import WRITE_REFUSALS
from games.services import join_game, leave_game

router = Router()


@router.post("/games/{game_id}/join", response={200: Done, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def join(request, game_id: Id, as_substitute: bool = False):
    """Sign up for an open game (the last player starts it), or as a substitute (E5)."""
    user, _token = player(request)
    join_game(find_game(request, game_id).pk, user, as_substitute=as_substitute)
    return {}


@router.post("/games/{game_id}/leave", response={200: Done, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def leave(request, game_id: Id):
    """Withdraw a sign-up before the game starts."""
    user, _token = player(request)
    leave_game(find_game(request, game_id).pk, user)
    return {}
