"""The lobby: creating a game, signing up as a player or a substitute, leaving, the start, and an unlisted game's
secret link renewed."""

import secrets
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.access import is_moderator
from games.engine.rng import DEFAULT_SCHEME
from games.engine.settings import RULES, HouseRules
from games.engine.setup import seat_and_deal
from games.models import ActionRecord, Game, Seat
from games.models.game import new_link_key

from .errors import GameError
from .knowledge import knows_secrets
from .play import announce, begin, begin_new_game, lock_game, persist, play
from .play_bars import is_barred
from .ratings import rating_refusal
from .records import has_recent_exile


def signed_up() -> Count:
    """The players signed up for a game, substitutes not counted: annotate a lobby's games with it."""
    return Count("seats", filter=Q(seats__is_substitute=False))


def check_email_verified(user) -> None:
    """Only a person with a verified email address creates or joins a game: the deadline reminders go there."""
    if not EmailAddress.objects.filter(user=user, verified=True).exists():
        raise GameError(_("Verify your email address first: deadline reminders go there."), code="email_unverified")


def create_game(user, *, now: datetime | None = None, join: bool = True, **options) -> Game:
    """A new game open for sign-ups, with `options` for any of its settings; its creator joins it."""
    check_email_verified(user)
    now = now or timezone.now()
    options.setdefault("name", _("%(user)s's game") % {"user": user.get_username()})
    rules = {rule.name: options.pop(rule.name) for rule in RULES if rule.name in options}
    options.setdefault("rated", options.get("visibility", Game.Visibility.PUBLIC) == Game.Visibility.PUBLIC)
    game = Game(created_by=user, house_rules=HouseRules().to_dict() | rules, **options)
    game.lobby_closes_at = now + timedelta(days=game.lobby_days)
    game.full_clean(exclude=["created_by", "setup", "state"])
    with transaction.atomic():  # a creator who may not join leaves no empty game behind
        game.save()
        if join:
            join_game(game.pk, user, now=now)
            game.refresh_from_db()
    return game


def join_game(game_id: int, user, *, as_substitute: bool = False, now: datetime | None = None) -> Seat:
    """Sign up as a player (before the start; the last one starts the game) or as a substitute (E5)."""
    now = now or timezone.now()
    check_email_verified(user)
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.RUNNING) or (
            game.status == Game.Status.RUNNING and not as_substitute
        ):
            raise GameError(_("This game is not open for sign-ups."), code="lobby_closed")
        if game.seats.filter(user=user).exists():
            raise GameError(_("You are already in this game."), code="already_joined")
        name = user.get_username()
        if game.seats.filter(name=name).exists():  # the name a renamed account joined with: the game knows it
            raise GameError(_("%(name)s is already in this game.") % {"name": name}, code="name_taken")
        if knows_secrets(game, user):
            raise GameError(
                _("You have seen this game's secrets (its graveyard or its moderation page): you cannot play in it."),
                code="saw_secrets",
            )
        if is_barred(user, now):
            raise GameError(_("A moderator has banned you from joining games for now."), code="banned")
        if refused := exile_refusal(game, user) or rating_refusal(game, user):
            raise refused
        players = game.seats.filter(is_substitute=False).count()
        if not as_substitute and players >= game.player_count:
            raise GameError(_("This game is full; you may still sign up as a substitute."), code="game_full")
        try:
            with transaction.atomic():
                seat = Seat.objects.create(game=game, user=user, name=name, is_substitute=as_substitute)
        except IntegrityError:
            raise GameError(_("You are already in this game."), code="already_joined") from None
        if game.status == Game.Status.RUNNING:
            _add_substitutes(game, [seat], now)
        elif not as_substitute and players + 1 == game.player_count:
            start_game(game, now)
        return seat


def exile_refusal(game: Game, user) -> GameError | None:
    """E6: the refusal of a game that turns away players exiled in any of their last N games, if it turns `user`
    away (a page asks it to show the refusal rather than a button that would be refused); else None."""
    if not game.exile_lookback_games or not has_recent_exile(user, game.exile_lookback_games):
        return None
    return GameError(
        _("This game refuses players exiled in any of their last %(count)s games.")
        % {"count": game.exile_lookback_games},
        code="recently_exiled",
    )


def leave_game(game_id: int, user) -> None:
    """Withdraw a sign-up before the game starts.

    A creator who leaves passes the game to the earliest sign-up left (a player before a substitute); with nobody
    left, the lobby closes as one that did not fill (`_close_lobby`) and drops out of the list.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameError(
                _("You can only leave a game before it starts; ask a moderator to replace you."), code="game_started"
            )
        deleted, _rows = Seat.objects.filter(game=game, user=user).delete()
        if not deleted:
            raise GameError(_("You are not in this game."), code="not_in_game")
        if game.created_by_id == user.pk:
            hand_over(game)


def hand_over(game: Game) -> None:
    """The open game's creator is gone from it: it passes to the earliest sign-up left (a player before a
    substitute), or closes with nobody left. Call while holding the game row's lock."""
    successor = game.seats.order_by("is_substitute", "joined_at", "pk").first()
    if successor is None:
        _close_lobby(game)
    else:
        game.created_by_id = successor.user_id
        game.save(update_fields=["created_by"])


def start_game(game: Game, now: datetime) -> None:
    """The players are seated and dealt from a new secret seed, each draw from its own stream (R1, R4, R8).

    Call while holding the game row's lock, with every player seat taken.
    """
    seats = {seat.name: seat for seat in game.seats.filter(is_substitute=False).order_by("joined_at", "pk")}
    game.seed = secrets.randbits(62)
    settings = game.rules.for_engine()
    state = seat_and_deal(list(seats), seed=game.seed, rng=DEFAULT_SCHEME, settings=settings)
    players = [seat.name for seat in state.seats]
    for number, name in enumerate(players):
        seats[name].number = number
    Seat.objects.bulk_update(seats.values(), ["number"])
    game.setup = {"players": players, "seed": game.seed, "rng": DEFAULT_SCHEME}  # its settings are `house_rules`
    game.status = Game.Status.RUNNING
    game.started_at = now
    game.save(update_fields=["seed", "setup", "status", "started_at"])
    waiting = list(game.seats.filter(is_substitute=True).order_by("joined_at", "pk"))
    change = begin_new_game(game, state, [seats[name] for name in players] + waiting, now)
    for seat in waiting:
        play(change, {"type": "substitute", "name": seat.name}, ActionRecord.Source.SYSTEM)
    persist([change])
    announce([change])


def _add_substitutes(game: Game, seats: list[Seat], now: datetime) -> None:
    change = begin(game, now)
    for seat in seats:
        play(change, {"type": "substitute", "name": seat.name}, ActionRecord.Source.SYSTEM)
    persist([change])
    announce([change])


def close_stale_lobbies(*, now: datetime | None = None) -> int:
    """Lobbies that did not fill in time close. Returns how many."""
    now = now or timezone.now()
    return Game.objects.filter(status=Game.Status.OPEN, lobby_closes_at__lte=now).update(status=Game.Status.CLOSED)


def _close_lobby(game: Game) -> None:
    """One lobby closes unfilled, as a stale one does: it takes no more sign-ups and leaves the lobby's list.
    Call while holding the game row's lock."""
    game.status = Game.Status.CLOSED
    game.save(update_fields=["status"])


def request_resignation(game_id: int, user, *, now: datetime | None = None) -> Seat:
    """A player asks to leave a running game; a moderator turns it into a replacement (E8), not an exile."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = game.seats.filter(user=user, active=True, number__isnull=False).first()
        if game.status != Game.Status.RUNNING or seat is None:
            raise GameError(_("You do not hold a seat in this game, or it is not running."), code="not_seated")
        if seat.resign_requested_at is None:
            seat.resign_requested_at = now or timezone.now()
            seat.save(update_fields=["resign_requested_at"])
        return seat


def renew_link(game_id: int, user) -> str:
    """A new link key for an unlisted game, by its creator or a moderator; its old address answers 404 from now on."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.visibility != Game.Visibility.UNLISTED:
            raise GameError(_("A public game has no secret link to renew."), code="not_unlisted")
        if game.created_by_id != user.pk and not is_moderator(user):
            raise GameError(_("Only the game's creator or a moderator can renew its link."), code="not_creator")
        game.link_key = new_link_key()
        game.save(update_fields=["link_key"])
        return game.link_key
