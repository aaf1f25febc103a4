"""The lobby: open games, my games with "your move", finished games; creating, joining and leaving games."""

from allauth.account.models import EmailAddress
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.access import access_game
from games.engine import waiting_for
from games.forms import GameForm
from games.models import Game
from games.presenters import game_rules, game_settings
from games.services import GameError, create_game, join_game, leave_game
from games.services.lobby import signed_up

from .common import attempt, load

# The columns each list shows (home.html), and nothing else: a game row has some forty, and reading them all for
# 120 games was half the lobby's time (issue 14). tests/web/test_page_queries.py counts the queries, so that a
# column shown but not read here (a query per game) would fail it.
OPEN_COLUMNS = ("name", "player_count", "nomination_hours", "election_hours", "legislative_hours", "power_hours",
                "lobby_closes_at")  # fmt: skip


def home(request):
    public = Game.objects.filter(visibility=Game.Visibility.PUBLIC)
    open_games = (
        public.filter(status=Game.Status.OPEN)
        .annotate(players=signed_up())
        .order_by("lobby_closes_at")
        .only(*OPEN_COLUMNS)[:50]
    )
    running = public.filter(status=Game.Status.RUNNING).order_by("-started_at").only("name", "deadline")[:50]
    finished = (
        public.filter(status__in=(Game.Status.FINISHED, Game.Status.CANCELLED))
        .order_by("-finished_at")
        .only("name", "winner")[:20]
    )
    return render(
        request,
        "games/home.html",
        {
            "open_games": open_games,
            "running": running,
            "finished": finished,
            "mine": _my_games(request.user),
            "my_finished": _my_finished_games(request.user),
        },
    )


def _my_games(user) -> list[dict]:
    """The viewer's running and open games, with whether they owe a move and by when."""
    if not user.is_authenticated:
        return []
    games = []
    for seat in user.seats.filter(game__status__in=(Game.Status.OPEN, Game.Status.RUNNING)).select_related("game"):
        game = seat.game
        owes = False
        if game.state and seat.active and seat.number is not None:
            owes = seat.number in waiting_for(game.load_state()) and game.paused_at is None
        games.append({"game": game, "seat": seat, "owes": owes})
    return sorted(games, key=lambda g: (not g["owes"], g["game"].deadline is None, g["game"].deadline or 0))


def _my_finished_games(user) -> list[Game]:
    """The games the viewer played to their end (or saw cancelled), the newest first."""
    if not user.is_authenticated:
        return []
    over = (Game.Status.FINISHED, Game.Status.CANCELLED)
    seats = user.seats.filter(game__status__in=over, number__isnull=False).select_related("game")
    return [seat.game for seat in seats.order_by("-game__finished_at")[:20]]


@login_required
def new_game(request):
    zone = timezone.get_current_timezone_name()  # the creator's (their profile's, or their browser's)
    form = GameForm(request.POST or None, initial={"time_zone": zone}, browser_zone=request.COOKIES.get("tz", ""))
    if request.method == "POST" and form.is_valid():
        if not _email_verified(request.user):
            messages.error(request, _("Verify your email address first: deadline reminders go there."))
            return redirect("account_email")
        options = {name: form.cleaned_data[name] for name in form.Meta.fields}
        try:
            game = create_game(request.user, **options)
        except GameError as error:
            messages.error(request, str(error))
            return render(request, "games/new.html", {"form": form})
        messages.success(request, _("Your game is open for sign-ups."))
        return redirect(game)
    return render(request, "games/new.html", {"form": form})


@login_required
@require_POST
def join(request, game_id: int):
    game, _state, _viewer = load(request, game_id)
    if not _email_verified(request.user):
        messages.error(request, _("Verify your email address first: deadline reminders go there."))
        return redirect("account_email")
    as_substitute = request.POST.get("as") == "substitute"
    return attempt(
        request,
        lambda: join_game(game.pk, request.user, as_substitute=as_substitute),
        game.get_absolute_url(),
        _("You are in."),
    )


@login_required
@require_POST
def leave(request, game_id: int):
    game, _state, _viewer = load(request, game_id)
    return attempt(
        request, lambda: leave_game(game.pk, request.user), game.get_absolute_url(), _("You have left the game.")
    )


def _email_verified(user) -> bool:
    return EmailAddress.objects.filter(user=user, verified=True).exists()


def rules(request, game_id: int):
    """The rules this game is played by, in the reader's language, with its own table size and settings."""
    game = access_game(game_id)
    context = {"game": game, "rules": game_rules(game), "settings": game_settings(game)}
    return render(request, "games/rules.html", context)
