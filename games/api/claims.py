"""A claim: what a player says publicly they saw in their legislative session."""

from typing import Annotated

from ninja import Field, Schema
from pydantic import StringConstraints

from games.api.auth import SIGNED, player
from games.api.common import Done, Id, Router, find_game
from games.api.problems import WRITE_REFUSALS
from games.services.forum import file_claim

router = Router()


class ClaimIn(Schema):
    round: int = Field(ge=1, le=10**6)
    cards: Annotated[str, StringConstraints(pattern=r"^[LFlf]{2,3}$")]


@router.post("/games/{game_id}/claims", response={200: Done, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def claim(request, game_id: Id, payload: ClaimIn):
    """Say publicly what you saw in your legislative session of round `round` (once)."""
    request.sensitive_post_parameters = "__ALL__"
    user, _token = player(request)
    file_claim(find_game(request, game_id).pk, user, payload.round, payload.cards)
    return {}
