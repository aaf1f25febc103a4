"""The lobby: open games, my games with "your move", finished games; creating, joining and leaving games."""

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games import fragments
from games.forms import GameForm
from games.models import Game, sql
from games.presenters import game_rules, game_settings
from games.services import GameError, create_game, join_game, leave_game
from games.services.lobby import renew_link as renew
from games.services.lobby_controls import check_controls, edit_settings, remove_player, start_early
from games.services.rematch import rematch as ask_rematch

from .common import attempt, load, reach, refused

# Each public list is one fragment (games/fragments.py) keyed by its rows, so that a game that changes gives its
# list a new key.
LISTED = 50  # open and running games shown
FINISHED_LISTED = 20
OVER = (Game.Status.FINISHED, Game.Status.CANCELLED)
UNVERIFIED = "email_unverified"  # the refusal whose cure is on the email page: the reader is sent there


def home(request):
    # The time left to each deadline is counted from the minute: the running list's key holds it, so that the
    # list is made once a minute, not once a reader; the reader's own games count from it too, and agree.
    minute = timezone.now().replace(second=0, microsecond=0)
    lists = sql.lobby_lists(LISTED, FINISHED_LISTED)  # read at every lobby, as SQL (sql.py)

    mine = {"mine": _my_games(request.user), "my_finished": _my_finished_games(request.user), "minute": minute}
    return render(request, "games/home.html", mine | _public_lists(lists, minute))


def _public_lists(lists: dict[str, tuple], minute: datetime) -> dict[str, str]:
    """The lists as HTML, from the fragment cache in one round trip; a list with no game stays empty (the page
    says so itself)."""
    shown = [name for name, games in lists.items() if games]
    if not shown:
        return lists
    parts = [(name, lists[name], minute if name == "running_games" else None) for name in shown]
    html = fragments.render_many("lobby", [(part, _maker(*part)) for part in parts])
    return lists | dict(zip(shown, html, strict=True))


def _maker(name: str, games: tuple, minute: datetime | None):
    return lambda: render_to_string(f"games/_{name}.html", {"games": games, "minute": minute})


def _my_games(user) -> list[dict]:
    """The viewer's running and open games, with whether they owe a move (the game's `waiting` seats) and by when."""
    if not user.is_authenticated:
        return []
    seated = Game.objects.filter(seats__user=user, status__in=(Game.Status.OPEN, Game.Status.RUNNING))
    games = seated.values(
        "pk", "name", "status", "paused_at", "deadline", "waiting", number=F("seats__number"), active=F("seats__active")
    )
    for game in games:
        game["status_label"] = Game.Status(game["status"]).label
        game["owes"] = _owes(game)
        game["countdown"] = f"mine-{game['pk']}"  # the running list counts this game down too, as cd-<pk>
    return sorted(games, key=lambda game: (not game["owes"], game["deadline"] is None, game["deadline"] or 0))


def _owes(game: dict) -> bool:
    seated = game["active"] and game["number"] is not None
    return seated and game["paused_at"] is None and game["number"] in game["waiting"]


def _my_finished_games(user) -> list[dict]:
    """The games the viewer played to their end (or saw cancelled), the newest first."""
    if not user.is_authenticated:
        return []
    played = Game.objects.filter(seats__user=user, seats__number__isnull=False, status__in=OVER)
    return list(played.order_by("-finished_at").values("pk", "name", "winner")[:FINISHED_LISTED])


@login_required
def new_game(request):
    zone = timezone.get_current_timezone_name()  # the creator's (their profile's, or their browser's)
    form = GameForm(request.POST or None, initial={"time_zone": zone}, browser_zone=request.COOKIES.get("tz", ""))
    if request.method == "POST" and form.is_valid():
        options = {name: form.cleaned_data[name] for name in form.Meta.fields}
        try:
            game = create_game(request.user, **options)
        except GameError as error:
            messages.error(request, str(error))
            if error.code == UNVERIFIED:
                return redirect("account_email")
            return render(request, "games/new.html", {"form": form})
        messages.success(request, _("Your game is open for sign-ups."))
        return redirect(game)
    return render(request, "games/new.html", {"form": form})


@login_required
@require_POST
def join(request, game_id: int):
    game, _state, _viewer = load(request, game_id)
    as_substitute = request.POST.get("as") == "substitute"
    try:
        join_game(game.pk, request.user, as_substitute=as_substitute)
    except GameError as error:
        messages.error(request, str(error))
        return redirect("account_email" if error.code == UNVERIFIED else game.get_absolute_url())
    if as_substitute:
        messages.success(request, _("You are a substitute: if a seat is given up, the first substitute takes it."))
    else:
        messages.success(request, _("You are in."))
    return redirect(game.get_absolute_url())


@login_required
@require_POST
def leave(request, game_id: int):
    game, _state, _viewer = load(request, game_id)
    return attempt(
        request, lambda: leave_game(game.pk, request.user), game.get_absolute_url(), _("You have left the game.")
    )


def rules(request, game_id: int):
    """The rules this game is played by, in the reader's language, with its own table size and settings."""
    game = reach(request, game_id)
    context = {"game": game, "rules": game_rules(game), "settings": game_settings(game)}
    return render(request, "games/rules.html", context)


@login_required
@require_POST
def renew_link(request, game_id: int):
    """An unlisted game's new secret address, by its creator or a moderator: its old one answers 404 from now on."""
    game = reach(request, game_id)
    try:
        game.link_key = renew(game.pk, request.user)
    except GameError as error:
        raise PermissionDenied(str(error)) from None
    messages.success(request, _("The game has a new secret address: the old one no longer works."))
    return redirect(game)


@require_http_methods(["GET", "POST"])
def rematch(request, game_id: int):
    """A finished game's rematch: shown to whoever reads the game once it exists (GET), asked for by one of its
    players or its creator (POST, made once: whoever asks after the first is led to it)."""
    game = reach(request, game_id)
    if request.method == "GET":
        return redirect(game.rematch if game.rematch_id else game)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        made, new = ask_rematch(game.pk, request.user)
    except GameError as error:
        messages.error(request, str(error))
        return redirect("account_email" if error.code == UNVERIFIED else game.get_absolute_url())
    if new:
        messages.success(request, _("Here is the rematch, with the same settings: the other players are invited."))
    else:
        messages.info(request, _("This game's rematch was already made: here it is."))
    return redirect(made)


@login_required
@require_POST
def remove(request, game_id: int, seat_id: int):
    """The creator (or a moderator) takes someone off the open game's sign-ups."""
    game = reach(request, game_id)
    try:
        seat = remove_player(game.pk, request.user, seat_id)
    except GameError as error:
        return refused(request, error, game.get_absolute_url())
    messages.success(request, _("%(name)s is no longer signed up for this game.") % {"name": seat.name})
    return redirect(game)


@login_required
@require_POST
def start_now(request, game_id: int):
    """The creator (or a moderator) starts the open game now, with the players signed up."""
    game = reach(request, game_id)
    try:
        players = start_early(game.pk, request.user)
    except GameError as error:
        return refused(request, error, game.get_absolute_url())
    started = ngettext(
        "The game has started with %(count)s player.", "The game has started with %(count)s players.", players
    )
    messages.success(request, started % {"count": players})
    return redirect(game)


@login_required
def edit_game(request, game_id: int):
    """The open game's settings, changed by its creator (or a moderator) before it starts: the new-game form, filled."""
    game = reach(request, game_id)
    try:
        check_controls(game, request.user)
    except GameError as error:
        if error.code == "not_creator":
            raise PermissionDenied(str(error)) from None
        return refused(request, error, game.get_absolute_url())
    form = GameForm.of(game, request.POST or None, browser_zone=request.COOKIES.get("tz", ""))
    if request.method == "POST" and form.is_valid():
        options = {name: form.cleaned_data[name] for name in form.Meta.fields}
        try:
            changed = edit_settings(game.pk, request.user, **options)
        except GameError as error:
            messages.error(request, str(error))
            return render(request, "games/new.html", {"form": form, "game": game})
        game = Game.objects.get(pk=game.pk)  # its address changes with its visibility
        if not changed:
            messages.info(request, _("Nothing changed: the game already had these settings."))
        elif game.status == Game.Status.RUNNING:
            messages.success(request, _("The settings are saved, and the game is full with them: it has started."))
        else:
            messages.success(request, _("The settings are saved; everyone signed up is told that they changed."))
        return redirect(game)
    return render(request, "games/new.html", {"form": form, "game": game})
