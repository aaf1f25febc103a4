"""A move, made for the seat the token's owner holds."""

from typing import Annotated, Literal

from msgspec import to_builtins
from ninja import Field, Schema
from pydantic import StringConstraints

from games.api.auth import SIGNED, player
from games.api.common import Id, MoveDone, Router, find_game
from games.api.problems import WRITE_REFUSALS
from games.engine.notation import KIND_VALUES, PLAYER_MOVES
from games.services import make_move
from games.wording import done_message

router = Router()

Name = Annotated[str, StringConstraints(min_length=1, max_length=150, pattern=r"^[^\x00\s]+$")]


class MoveIn(Schema):
    type: Literal[PLAYER_MOVES]
    step_number: int = Field(ge=0, le=10**9, description="the step the move is made for (GET .../me)")
    target: Name | None = None
    vote: Literal[KIND_VALUES["ballot"]] | None = None
    policy: Literal[KIND_VALUES["policy"]] | None = None
    accept: bool | None = None


@router.post("/games/{game_id}/moves", response={200: MoveDone, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def move(request, game_id: Id, payload: MoveIn):
    """Make a move for the step `step_number`, as the seat the token's owner holds (the same rules as the site's
    form: a stale step, a passed deadline, a pause or an illegal move is refused and changes nothing)."""
    request.sensitive_post_parameters = "__ALL__"  # a discard or a vote is a secret: never in an error email
    user, _token = player(request)
    found = find_game(request, game_id)
    fields = payload.dict(exclude_none=True)
    step_number = fields.pop("step_number")
    made = make_move(found.pk, user, fields, step_number)
    return {"events": [to_builtins(event) for event in made], "message": done_message(fields, made)}
