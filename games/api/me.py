"""The caller's own: their notifications, and the deadlines they owe a move by."""

from datetime import datetime

from ninja import Schema

from games.api.auth import SIGNED
from games.api.common import PAGE, Router
from games.api.problems import refusals
from games.engine import waiting_for
from games.models import Game, Notification
from games.notify.messages import describe_in_list

router = Router()


class NotificationOut(Schema):
    id: int
    kind: str
    game: int | None
    text: str
    created_at: datetime
    read: bool


class DeadlineOut(Schema):
    game: int
    name: str
    step: str
    step_number: int
    deadline: datetime | None


@router.get(
    "/me/notifications", response={200: list[NotificationOut], **refusals(401, 429)}, auth=SIGNED, tags=["read"]
)
def notifications(request):
    """The caller's last 100 notifications, newest first, in their language."""
    user = request.auth.user
    rows = Notification.objects.filter(user=user).select_related("game")[:PAGE]
    return [
        {
            "id": n.pk,
            "kind": n.kind,
            "game": n.game_id,
            "text": describe_in_list(n, n.game),
            "created_at": n.created_at,
            "read": n.read_at is not None,
        }
        for n in rows
    ]


@router.get("/me/deadlines", response={200: list[DeadlineOut], **refusals(401, 429)}, auth=SIGNED, tags=["read"])
def deadlines(request):
    """The running games where the caller owes a move now, with the deadline."""
    user = request.auth.user
    owed = []
    seats = user.seats.filter(active=True, number__isnull=False, game__status=Game.Status.RUNNING).select_related(
        "game"
    )
    for seat in seats:
        state = seat.game.load_state()
        if seat.number in waiting_for(state) and seat.game.paused_at is None:
            owed.append({"game": seat.game.pk, "name": seat.game.name, "step": str(state.step),
                         "step_number": state.step_number, "deadline": seat.game.deadline})  # fmt: skip
    return owed
