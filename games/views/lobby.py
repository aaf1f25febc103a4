"""The lobby: open games, my games with "your move", finished games; creating, joining and leaving games."""

from collections import namedtuple
from datetime import datetime
from functools import cache

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import F
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import fragments
from games.forms import GameForm
from games.models import Game, Seat, rows
from games.presenters import game_rules, game_settings
from games.services import GameError, create_game, join_game, leave_game
from games.services.lobby import renew_link as renew

from .common import attempt, load, reach
from .header import visitor_page

# The columns each public list shows (games/_*_games.html), and nothing else, read as plain rows: a game row has
# some forty columns, and a model object per game was most of the lobby's time (issues 14, 30). Each list is one
# query, written out once (built by the ORM, the three cost 5 ms of Python), and one fragment (games/fragments.py)
# keyed by its rows, so that a game that changes gives its list a new key.
OpenGame = namedtuple("OpenGame", "pk name players player_count nomination_hours election_hours legislative_hours "
                      "power_hours lobby_closes_at")  # fmt: skip
RunningGame = namedtuple("RunningGame", "pk name deadline")
FinishedGame = namedtuple("FinishedGame", "pk name winner")
LISTED = 50  # open and running games shown
FINISHED_LISTED = 20
OVER = (Game.Status.FINISHED, Game.Status.CANCELLED)
UNVERIFIED = "email_unverified"  # the refusal whose cure is on the email page: the reader is sent there


def home(request):
    # The time left to each deadline is counted from the minute: the running list's key holds it, so that the
    # list is made once a minute, not once a reader; the reader's own games count from it too, and agree.
    minute = timezone.now().replace(second=0, microsecond=0)
    lists = _public_rows()

    def context() -> dict:
        mine = {"mine": _my_games(request.user), "my_finished": _my_finished_games(request.user), "minute": minute}
        return mine | _public_lists(lists, minute)

    # A visitor's lobby is the same for every visitor of a language and zone: the whole page is one fragment.
    page = visitor_page(request, "visitor-lobby", (lists, minute), "games/home.html", context)
    return page or render(request, "games/home.html", context())


def _public_rows() -> dict[str, tuple]:
    """The lobby's open, running and finished games, each list as the rows it shows, in one round trip."""
    moment = rows.moment_converter()
    params = {"public": Game.Visibility.PUBLIC, "open": Game.Status.OPEN, "running": Game.Status.RUNNING,
              "finished": Game.Status.FINISHED, "cancelled": Game.Status.CANCELLED, "listed": LISTED,
              "finished_listed": FINISHED_LISTED}  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(_lists_sql(), params)
        found = cursor.fetchall()
    lists = {"open_games": [], "running_games": [], "finished_games": []}
    opened, running, finished = lists.values()
    for row in found:
        if row[0] == 0:
            opened.append(OpenGame(*row[1:9], moment(row[9])))
        elif row[0] == 1:
            running.append(RunningGame(row[1], row[2], moment(row[9])))
        else:
            finished.append(FinishedGame(row[1], row[2], row[10]))
    return {name: tuple(games) for name, games in lists.items()}


def _public_lists(lists: dict[str, tuple], minute: datetime) -> dict[str, str]:
    """The lists as HTML, from the fragment cache in one round trip; a list with no game stays empty (the page
    says so itself)."""
    shown = [name for name, games in lists.items() if games]
    if not shown:
        return lists
    parts = [(name, lists[name], minute if name == "running_games" else None) for name in shown]
    html = fragments.render_many("lobby", [(part, _maker(*part)) for part in parts])
    return lists | {name: mark_safe(part) for name, part in zip(shown, html, strict=True)}


@cache
def _lists_sql() -> str:
    """The three lists' query, each list (0 open, 1 running, 2 finished) an arm in its own order, in the columns:
    list, the OpenGame's but the last, a moment (the lobby's closing, the deadline), the winner, the place in its
    list. The arms are subqueries so that each may have its order and limit (SQLite has no parenthesised arms)."""
    game, seat = (connection.ops.quote_name(model._meta.db_table) for model in (Game, Seat))
    players = f"(SELECT COUNT(*) FROM {seat} s WHERE s.game_id = g.id AND NOT s.is_substitute)"
    public = f"FROM {game} g WHERE g.visibility = %(public)s AND"
    nothing = ", ".join(["CAST(NULL AS integer)"] * 6)  # the open list's counts and durations

    def arm(number: int, columns: str, where: str, order: str, limit: str) -> str:
        return f"""SELECT * FROM (SELECT {number} AS list, g.id, g.name, {columns}, ROW_NUMBER() OVER (ORDER BY {order})
                   AS place {public} {where} ORDER BY {order} LIMIT %({limit})s) AS list{number}"""

    return f"""
        {
        arm(
            0,
            f"{players}, g.player_count, g.nomination_hours, g.election_hours, g.legislative_hours, "
            "g.power_hours, g.lobby_closes_at, CAST(NULL AS varchar(16))",
            "g.status = %(open)s",
            "g.lobby_closes_at, g.id",
            "listed",
        )
    }
        UNION ALL
        {
        arm(
            1,
            f"{nothing}, g.deadline, CAST(NULL AS varchar(16))",
            "g.status = %(running)s",
            "g.started_at DESC, g.id DESC",
            "listed",
        )
    }
        UNION ALL
        {
        arm(
            2,
            f"{nothing}, CAST(NULL AS timestamp with time zone), g.winner",
            "g.status IN (%(finished)s, %(cancelled)s)",
            "g.finished_at DESC, g.id DESC",
            "finished_listed",
        )
    }
        ORDER BY list, place
    """


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
    return seated and game["paused_at"] is None and str(game["number"]) in game["waiting"].split(",")


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
