"""Who may see and do what in a game (`access_*` fetch with the check; `can_*` answer it).

Templates receive only what these functions allow: the public view for everyone, the private panel for the
seat's holder, the graveyard for the dead, the exiled and spectators, and everything once the game is over.
"""

from dataclasses import dataclass

from django.http import Http404
from django.utils.translation import gettext as _

from .engine import GameState, SeatStatus
from .engine.views import in_legislative_session
from .models import Game, Post, Seat, sql


@dataclass(frozen=True)
class Viewer:
    """A person looking at a game: anonymous, a spectator, a waiting substitute, or a seat's holder."""

    user: object | None
    seat: Seat | None  # the seat row the user holds now (active, numbered)
    signed_up: bool  # has any seat row in the game (player, substitute, former holder)
    alive: bool  # holds a living seat
    waiting: bool = False  # waiting for a seat: a substitute (E5) or named by a moderator (E8)

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def viewer_for(game: Game, user, state: GameState | None) -> Viewer:
    if user is None or not user.is_authenticated:
        return Viewer(None, None, False, False)
    held = [seat for seat in sql.seats(game) if seat.user_id == user.pk]
    seat = next((row for row in held if row.active and row.number is not None), None)
    alive = bool(seat and state and state.seats[seat.number].status == SeatStatus.ALIVE)
    waiting = any(row.pending or (row.active and row.number is None) for row in held)
    return Viewer(user, seat, bool(held), alive, waiting)


MODERATE = "moderation.moderate"  # the moderators' permission, given to the "moderators" group


def is_moderator(user) -> bool:
    return bool(user and user.is_authenticated and user.has_perm(MODERATE))


def access_game(game_id: int, user, *, by_key: bool = False) -> Game:
    """The game, for `user` reading it at an address that names it by its number, or by its link key (`by_key`):
    a 404, as for a game that does not exist, to whoever may not read it there (`may_read_at_number`)."""
    game = sql.game(game_id)
    if game is None or not (by_key or may_read_at_number(game, user)):
        raise Http404(_("There is no such game."))
    return game


def may_read_at_number(game: Game, user) -> bool:
    """Anyone reads a public game at its number; an unlisted one only who is in it (seated, a substitute, named for
    a seat, once seated), its creator and the moderators: anyone else reads it at its link key, or not at all."""
    if game.visibility == Game.Visibility.PUBLIC:
        return True
    if user is None or not user.is_authenticated:
        return False
    return game.created_by_id == user.pk or is_moderator(user) or Seat.objects.filter(game=game, user=user).exists()


def unlisted_game_id(key: str) -> int | None:
    """The id of the unlisted game whose link key this is, or None."""
    return Game.objects.filter(link_key=key, visibility=Game.Visibility.UNLISTED).values_list("pk", flat=True).first()


def is_over(game: Game) -> bool:
    return game.status in (Game.Status.FINISHED, Game.Status.CANCELLED)


def can_read(game: Game, viewer: Viewer, thread: str) -> bool:
    """The game thread is public; the graveyard is for everyone but the living until the game ends."""
    if thread == Post.Thread.MAIN or is_over(game):
        return True
    # Who waits for a seat may yet take a living one (E5, E8): the graveyard stays closed to them too.
    return viewer.user is not None and not viewer.alive and not viewer.waiting


def posting_refusal(game: Game, viewer: Viewer, thread: str, state: GameState | None) -> str | None:
    """Why the viewer may not post in the thread now, or None when they may."""
    if viewer.user is None:
        return _("Sign in to post.")
    if not can_read(game, viewer, thread):
        return _("The living cannot read the graveyard.")
    if thread == Post.Thread.GRAVEYARD:
        return (
            None
            if (is_over(game) or not (viewer.alive or viewer.waiting))
            else _("The living cannot post in the graveyard.")
        )
    if game.thread_locked:
        return _("A moderator has locked this thread.")
    if game.status == Game.Status.OPEN:
        return None if viewer.signed_up else _("Only players who signed up can post before the game starts.")
    if is_over(game):
        return None if viewer.signed_up else _("Spectators read the game thread; they post in the graveyard.")
    if not viewer.alive:
        if viewer.is_player:
            return _("The dead and the exiled cannot post in the game thread; the graveyard is open to them.")
        return _("Spectators read the game thread; they post in the graveyard.")
    if game.rules.quiet_legislature and state is not None and in_legislative_session(state):
        return _(
            "The thread is closed during the legislative session: it opens again once a policy is enacted or vetoed."
        )
    return None
