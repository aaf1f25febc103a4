"""The creator's controls of an open game (a moderator has them too): taking a player off its sign-ups, starting it
early with those signed up, and changing its settings before it starts."""

from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.access import is_moderator
from games.engine.constants import MIN_PLAYERS
from games.engine.settings import RULES, HouseRules
from games.models import Game, Seat
from games.models.game import SETTINGS_FIELDS
from games.notify import notify_removed, notify_settings_changed

from .errors import GameError
from .lobby import hand_over, start_game
from .play import lock_game

# What the creator may change before the start: the game's name and visibility, and its settings, the house rules
# by their own names rather than as one `house_rules` value.
EDITABLE = ("name", "visibility", *(name for name in SETTINGS_FIELDS if name != "house_rules"))
RULE_NAMES = tuple(rule.name for rule in RULES)


def lock_open_game(game_id: int, user) -> Game:
    """The open game, its row locked, if `user` is its creator or a moderator; else a refusal. Call in a
    transaction."""
    game = lock_game(game_id)
    check_controls(game, user)
    return game


def check_controls(game: Game, user) -> None:
    """Refused unless `user` is the game's creator or a moderator, and the game still open (a page asks it before
    it offers a control; the services again, on the locked row)."""
    if game.created_by_id != user.pk and not is_moderator(user):
        raise GameError(_("Only the game's creator or a moderator can do this."), code="not_creator")
    if game.status != Game.Status.OPEN:
        raise GameError(
            _("This game is no longer open for sign-ups: its players and settings are settled."), code="game_started"
        )


def remove_player(game_id: int, user, seat_id: int, *, now: datetime | None = None) -> Seat:
    """Take a sign-up (a player's or a substitute's) off the open game; its holder is told, and may join again.
    The creator's own is refused: they leave instead. A moderator who removes the creator passes the game on, as
    the creator's leaving does."""
    now = now or timezone.now()
    with transaction.atomic():
        game = lock_open_game(game_id, user)
        seat = game.seats.filter(pk=seat_id).first()
        if seat is None:
            raise GameError(_("This person is not signed up for this game."), code="not_in_game")
        if seat.user_id is not None and seat.user_id == user.pk:
            raise GameError(_("You cannot remove yourself: leave the game instead."), code="own_seat")
        if seat.user_id is not None:
            notify_removed(game, seat, user.get_username(), now)
        seat.delete()
        if seat.user_id is not None and seat.user_id == game.created_by_id:
            hand_over(game)
        return seat


def start_early(game_id: int, user, *, now: datetime | None = None) -> int:
    """Start the open game now with the players signed up, as many as they are once there are enough (R1): the game
    is for that many from now on; its substitutes stay substitutes. Returns how many players it started with."""
    now = now or timezone.now()
    with transaction.atomic():
        game = lock_open_game(game_id, user)
        players = game.seats.filter(is_substitute=False).count()
        if players < MIN_PLAYERS:
            raise GameError(
                ngettext(
                    "A game starts with %(least)s players at least: %(count)s has signed up.",
                    "A game starts with %(least)s players at least: %(count)s have signed up.",
                    players,
                )
                % {"least": MIN_PLAYERS, "count": players},
                code="too_few_players",
            )
        game.player_count = players
        game.save(update_fields=["player_count"])
        start_game(game, now)
        return players


def edit_settings(game_id: int, user, *, now: datetime | None = None, **options) -> list[str]:
    """Change the open game's settings (`options`: any of EDITABLE and the house rules by name), checked as a new
    game's are. Whoever signed up under the old ones is told. A table made as small as those signed up is full: it
    starts. Returns the names of the settings that changed (none: nothing was written)."""
    now = now or timezone.now()
    if unknown := set(options) - set(EDITABLE) - set(RULE_NAMES):
        raise GameError(_("Unknown setting: %(names)s.") % {"names": ", ".join(sorted(unknown))}, code="bad_setting")
    with transaction.atomic():
        game = lock_open_game(game_id, user)
        opened = game.lobby_closes_at - timedelta(days=game.lobby_days) if game.lobby_closes_at else None
        changed = _apply(game, options)
        if not changed:
            return []
        players = game.seats.filter(is_substitute=False).count()
        _check(game, players, opened, now)
        game.save(update_fields=[name for name in changed if name not in RULE_NAMES] + _extra_fields(changed))
        others = game.seats.exclude(user=None).exclude(user=user).values_list("user_id", flat=True)
        notify_settings_changed(game, list(others), changed, now)
        if players == game.player_count:
            start_game(game, now)
        return changed


def _apply(game: Game, options: dict) -> list[str]:
    """Set `options` on the game (unsaved); the names of those that differ from its own, in EDITABLE's order, then
    the house rules'."""
    changed = []
    for name in EDITABLE:
        if name in options and getattr(game, name) != options[name]:
            setattr(game, name, options[name])
            changed.append(name)
    rules = game.rules.to_dict()
    wanted = rules | {name: options[name] for name in RULE_NAMES if name in options}
    changed += [name for name in RULE_NAMES if wanted[name] != rules[name]]
    game.house_rules = HouseRules().to_dict() | wanted
    return changed


def _check(game: Game, players: int, opened: datetime | None, now: datetime) -> None:
    """The edited game refused as a new one with these settings would be, or with fewer seats than players signed
    up, or with a lobby that would already have closed."""
    try:
        game.full_clean(exclude=["created_by", "setup", "state"])
    except ValidationError as invalid:
        raise GameError(" ".join(invalid.messages), code="bad_setting") from None
    if game.player_count < players:
        raise GameError(
            ngettext(
                "%(count)s player has already signed up: the game cannot be for fewer.",
                "%(count)s players have already signed up: the game cannot be for fewer.",
                players,
            )
            % {"count": players},
            code="below_signed_up",
        )
    if opened is not None:
        game.lobby_closes_at = opened + timedelta(days=game.lobby_days)
        if game.lobby_closes_at <= now:
            raise GameError(
                _("The lobby has been open longer than that: give it more days to fill."), code="lobby_too_short"
            )


def _extra_fields(changed: list[str]) -> list[str]:
    """The fields written besides the settings named: the house rules' one field, the lobby's closing time."""
    extra = ["house_rules"] if set(changed) & set(RULE_NAMES) else []
    return extra + (["lobby_closes_at"] if "lobby_days" in changed else [])
