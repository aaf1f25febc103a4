"""Games in and out as replay scripts (REPLAY.md): import a script as a live game, export a game's script."""

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.clock import step_anchors_for_full_length
from games.engine import InvalidSetup, Settings
from games.engine.rng import SINGLE_STREAM
from games.engine.settings import HouseRules
from games.models import ActionRecord, Game, Seat
from games.replay import ScriptError, parse_script, start

from .errors import GameError
from .play import begin_new_game, persist, play


class IllegalScriptAction(GameError):
    """An action of the imported script breaks the rules: nothing was created."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


def import_script(data: dict, *, now: datetime | None = None, **options) -> Game:
    """Create a live game from a replay script: users for unknown names (unusable passwords), every action
    applied, the current step started now with its full default length.

    Raises ScriptError for an invalid script and IllegalScriptAction for an illegal action; either way
    nothing is created. `options` sets other fields of the game (its name, durations...).
    """
    now = now or timezone.now()
    script = parse_script(data)
    try:
        with transaction.atomic():
            users = _users_for(script)
            game = Game.objects.create(
                **{
                    "name": f"Imported game ({len(script.players)} players)",
                    "status": Game.Status.RUNNING,
                    "player_count": len(script.players),
                    "seed": script.seed,
                    "setup": {
                        **{key: value for key, value in data.items() if key not in ("actions", "expect", "settings")},
                        "rng": script.rng,
                    },
                    "started_at": now,
                    "house_rules": HouseRules(**script.settings.to_dict()).to_dict(),
                    **options,
                }
            )
            seats = Seat.objects.bulk_create(
                Seat(game=game, user=users[name], name=name, number=number)
                for number, name in enumerate(script.players)
            )
            change = begin_new_game(game, start(script), [*seats], now)
            change.newcomers.update(users)  # the script's substitutes and replacements take their seats by name
            for index, action in enumerate(script.actions):
                try:
                    play(change, action, ActionRecord.Source.SYSTEM)
                except GameError as error:
                    raise IllegalScriptAction(index, str(error)) from None
            step_anchors_for_full_length(game, change.state, now)
            persist([change])
    except InvalidSetup as error:
        raise ScriptError(str(error)) from None
    return game


def _users_for(script) -> dict:
    names = set(script.players)
    for action in script.actions:
        if action["type"] in ("substitute", "replace"):
            names.add(action["name"])
    User = get_user_model()
    users = {user.get_username(): user for user in User.objects.filter(username__in=names)}
    for name in sorted(names - set(users)):
        user = User(username=name)
        user.set_unusable_password()
        user.save()
        users[name] = user
    return users


def export_script(game: Game) -> dict:
    """The game as a replay script: its set-up, the random scheme it was dealt with, and every action applied,
    moderators' included. It holds the seed and every secret: for moderators and for finished games."""
    if game.setup is None:
        raise GameError("This game has not started: there is nothing to export.", code="game_not_started")
    actions = list(game.actions.order_by("index").values_list("action", flat=True))
    # Games set up before named streams stored no scheme: they were dealt from a single stream.
    setup = {key: value for key, value in game.setup.items() if key != "settings"}  # stored by earlier versions
    return {"rng": SINGLE_STREAM, **setup, "settings": _changed_settings(game), "actions": actions}


def _changed_settings(game: Game) -> dict:
    """The game's settings (`house_rules`, where they live) that differ from RULES.md's defaults."""
    defaults = Settings().to_dict()
    return {name: value for name, value in game.rules.for_engine().to_dict().items() if value != defaults[name]}
