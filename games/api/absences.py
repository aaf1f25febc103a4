"""An absence announced ahead (E4)."""

from datetime import datetime

from ninja import Schema

from games.api.auth import SIGNED, player
from games.api.common import Done, Id, Router, find_game
from games.api.problems import WRITE_REFUSALS
from games.services import declare_absence

router = Router()


class AbsenceIn(Schema):
    starts_at: datetime
    ends_at: datetime


@router.post("/games/{game_id}/absences", response={200: Done, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def absence(request, game_id: Id, payload: AbsenceIn):
    """Announce an absence (E4), with the game's notice and within its cap; times with their UTC offset."""
    user, _token = player(request)
    declare_absence(find_game(request, game_id).pk, user, payload.starts_at, payload.ends_at)
    return {}
