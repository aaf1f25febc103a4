"""A game: its settings and public view, the caller's seat in it, and its event log to follow it from a cursor; an
unlisted game's by its link key too."""

from datetime import datetime
from typing import Any, Literal

from django.http import HttpResponse, HttpResponseNotModified
from django.utils.translation import gettext as _
from ninja import Field, Schema
from pydantic import create_model

from games.access import viewer_for
from games.api.auth import READ, SIGNED
from games.api.common import PAGE, Cursor, Id, LinkKey, Router, find_game, find_unlisted_game
from games.api.lobby import MIN_RATING, RATED
from games.api.problems import refusals
from games.engine import legal_actions, player_view, public_view, waiting_for
from games.engine.notation import player_move
from games.engine.settings import RULES, Rule
from games.models import Game, GameEvent
from games.presenters import DURATIONS
from games.services import GameError

router = Router()


def _rule_type(rule: Rule) -> Any:
    return Literal[rule.values] if rule.choices else bool


# A game's settings: the house rules as games.engine.settings declares them, between the table and the clock.
GameSettings = create_model(
    "GameSettings",
    __base__=Schema,
    player_count=(int, ...),
    visibility=(Literal[tuple(Game.Visibility.values)], ...),
    **{rule.name: (_rule_type(rule), Field(description=rule.label)) for rule in RULES},
    **{f"{name}_hours": (int, ...) for name in DURATIONS},
    minute_durations=(bool, ...),
    deadline_hour=(int | None, ...),
    time_zone=(str, ...),
    absence_notice_hours=(int, ...),
    absence_max_days=(int, ...),
    exile_lookback_games=(int | None, ...),
    rated=(bool, Field(description=RATED)),
    min_rating=(float | None, Field(description=MIN_RATING)),
)


def _settings(game: Game) -> dict:
    """Its settings as the game plays them: `rated` is whether its result really moves ratings (is_rated)."""
    rules = game.rules.to_dict() | {"rated": game.is_rated}
    return {name: rules[name] if name in rules else getattr(game, name) for name in GameSettings.model_fields}


class GameOut(Schema):
    id: int
    name: str
    status: str
    step_number: int
    deadline: datetime | None
    paused: bool
    settings: GameSettings
    public: dict[str, Any] | None = Field(description="the public view of the table; null before the game starts")
    rematch: int | None = Field(
        description="the id of the game made to play this one again with the same players; null until one is asked for"
    )


class PrivateView(Schema):
    seat: int
    name: str
    role: str
    party: str
    teammates: list[dict[str, Any]]
    hand: list[str]
    hands: list[dict[str, Any]]
    investigations: list[dict[str, Any]]
    peeks: list[dict[str, Any]]
    step_number: int
    owes: bool
    moves: list[dict[str, Any]] = Field(description="the moves this seat may make now, as POST .../moves takes them")
    my_ballot: str | None


class EventOut(Schema):
    index: int
    step_number: int
    type: str
    data: dict[str, Any]
    created_at: datetime


@router.get("/games/{game_id}", response={200: GameOut, **refusals(401, 404, 429)}, auth=READ, tags=["read"])
def game(request, game_id: Id):
    """A game's settings and public view: what anyone may know (everything once it is over, R27). An unlisted game
    is found here by who is in it, its creator and the moderators only: anyone else, at its link key."""
    return _game(find_game(request, game_id))


def _game(found: Game) -> dict:
    state = found.load_state() if found.state else None
    return {
        "id": found.pk,
        "name": found.name,
        "status": found.status,
        "step_number": found.step_number,
        "deadline": found.deadline,
        "paused": found.paused_at is not None,
        "settings": _settings(found),
        "public": public_view(state) if state else None,
        "rematch": found.rematch_id,
    }


@router.get(
    "/games/{game_id}/me", response={200: PrivateView, **refusals(401, 403, 404, 429)}, auth=SIGNED, tags=["read"]
)
def private(request, game_id: Id):
    """The caller's private view of their seat: exactly what their panel shows (R2, R3, R17, R21, R22)."""
    found = find_game(request, game_id)
    state = found.load_state() if found.state else None
    viewer = viewer_for(found, request.auth.user, state)
    if state is None or not viewer.is_player:
        raise GameError(_("You do not hold a seat in this game."), code="not_seated")
    seat = viewer.seat.number
    moves = [player_move(state, action) for action in legal_actions(state, seat)] if not state.over else []
    return {
        **player_view(state, seat),
        "step_number": state.step_number,
        "owes": seat in waiting_for(state),
        "moves": moves,
        "my_ballot": state.votes.get(seat),
    }


@router.get(
    "/games/{game_id}/events", response={200: list[EventOut], **refusals(401, 404, 429)}, auth=READ, tags=["read"]
)
def events(request, response: HttpResponse, game_id: Id, after: Cursor = 0):
    """The public event log after the event `after` (its index), at most 100: follow a game with one request.
    Its ETag names the game's event count, so that "nothing new" (a 304) costs one query, not the answer."""
    return _events(request, response, find_game(request, game_id, "event_count"), after)


def _events(request, response: HttpResponse, found: Game, after: int):
    tag = f'"events-{found.pk}-{after}-{found.event_count}"'
    if tag in [value.strip() for value in request.headers.get("If-None-Match", "").split(",")]:
        return HttpResponseNotModified(headers={"ETag": tag})
    response["ETag"] = tag
    return list(GameEvent.objects.filter(game=found, index__gt=after).order_by("index")[:PAGE])


@router.get("/games/unlisted/{key}", response={200: GameOut, **refusals(401, 404, 429)}, auth=READ, tags=["read"])
def unlisted_game(request, key: LinkKey):
    """An unlisted game's settings and public view, by the link key its address carries (/games/u/<key>/): for
    whoever holds the key, as GET /games/{id} for a public game."""
    return _game(find_unlisted_game(key))


@router.get(
    "/games/unlisted/{key}/events",
    response={200: list[EventOut], **refusals(401, 404, 429)},
    auth=READ,
    tags=["read"],
)
def unlisted_events(request, response: HttpResponse, key: LinkKey, after: Cursor = 0):
    """An unlisted game's public event log after the event `after`, by its link key, as GET /games/{id}/events."""
    return _events(request, response, find_unlisted_game(key), after)
