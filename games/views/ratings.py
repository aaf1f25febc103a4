"""The leaderboard: the players' ratings overall or in one season, by the conservative figure (mean minus three
deviations), each with its uncertainty and its number of games; only ratings counted from enough games."""

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.services.ratings import LEADERBOARD_MIN_GAMES, seasons
from games.services.ratings import leaderboard as board

PAGE_SIZE = 50


def leaderboard(request):
    season, known = request.GET.get("season", ""), seasons()
    if season and season not in known:
        raise Http404(_("No rated game ended in that season."))
    page = Paginator(board(season), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [{"rank": page.start_index() + index, "rating": rating} for index, rating in enumerate(page.object_list)]
    context = {"rows": rows, "page": page, "season": season, "seasons": known, "min_games": LEADERBOARD_MIN_GAMES}
    return render(request, "games/leaderboard.html", context)


def rules(request):
    """How ratings are counted, for players: the page the leaderboard, the profile and a rated lobby link to."""
    return render(request, "games/rating_rules.html", {"min_games": LEADERBOARD_MIN_GAMES})
