"""Helpers shared by the views: a game's pages at its link key, loading a game with its state and the viewer, and
running a service call."""

from collections.abc import Callable
from functools import wraps

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.utils.translation import gettext as _

from games.access import Viewer, access_game, unlisted_game_id, viewer_for
from games.engine import GameState
from games.models import Game
from games.services import GameError
from games.wording import colon


def by_link_key(view: Callable) -> Callable:
    """`view`, a page of a game at its number, at the game's link key instead (games/u/<key>/...): the address
    whoever holds the key reads an unlisted game at. A key no unlisted game has is a 404, as an unknown number."""

    @wraps(view)
    def at_key(request, game_key: str, **kwargs):
        game_id = unlisted_game_id(game_key)
        if game_id is None:
            raise Http404(_("There is no such game."))
        request.game_by_key = game_id
        return view(request, game_id=game_id, **kwargs)

    return at_key


def came_by_key(request, game_id: int) -> bool:
    """Whether the request's address named the game by its link key (by_link_key)."""
    return getattr(request, "game_by_key", None) == game_id


def reach(request, game_id: int) -> Game:
    """The game the request's address names, for its reader: a 404 to a stranger at an unlisted game's number."""
    return access_game(game_id, request.user, by_key=came_by_key(request, game_id))


def load(request, game_id: int) -> tuple[Game, GameState | None, Viewer]:
    game = reach(request, game_id)
    state = game.load_state() if game.state else None
    return game, state, viewer_for(game, request.user, state)


def refused(request, error: GameError | str, to: str):
    """A refused request: the message shown, nothing changed, back to the page it came from (a path: never
    resolved as a view name, whatever a form sent)."""
    messages.error(request, str(error))
    return HttpResponseRedirect(to)


def attempt(request, call: Callable[[], object], back: str, done: str | None = None):
    """Run a service call for a form: its refusal, or `done` if given, is shown, then back to the page.

    A call that returns False changed nothing (a repeated click): the reader is told so instead.
    """
    try:
        changed = call()
    except GameError as error:
        return refused(request, error, back)
    if changed is False:
        messages.info(request, _("Nothing changed: it was already done."))
    elif done is not None:
        messages.success(request, done)
    return HttpResponseRedirect(back)


def submit(request, form: forms.Form, call: Callable[[dict], object], back: str, done: str | None = None):
    """A POSTed form: refused with its first error and nothing changed, or its service call run as `attempt`."""
    if not form.is_valid():
        return refused(request, first_error(form), back)
    return attempt(request, lambda: call(form.cleaned_data), back, done)


def first_error(form: forms.Form) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        return f"{label}{colon()} {errors[0]}" if label else errors[0]
    return _("The form is incomplete: reload the page.")


# Clear-Site-Data when a person signs out of a browser or deletes their account: the browser forgets what the site
# kept in it (the service worker's kept pages, which may show a role; its caches; its push subscription). Not the
# cookies: the sign-out ends the session itself.
FORGET = '"cache", "storage"'
