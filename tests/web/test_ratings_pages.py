"""Ratings on the site's pages: the leaderboard (overall and by season, only ratings from enough games), the
profile's rating with its uncertainty and history, the lobby's rated games and the rating beside each sign-up;
nothing of a game in progress moves or shows; a deleted account's games are rated again without it."""

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.template.defaultfilters import floatformat
from django.test import Client

from games.models import Game, RatedGame, Rating
from games.services import create_game, join_game
from games.services.accounts import delete_account
from games.services.ratings import LEADERBOARD_MIN_GAMES
from games.services.transfer import import_script
from tests.factories import NAMES, form_data, make_user, played_to_the_end

pytestmark = pytest.mark.django_db


def league(games: int = LEADERBOARD_MIN_GAMES) -> None:
    for name in NAMES[:7]:
        make_user(name)
    for seed in range(games):
        import_script(played_to_the_end(5, seed), now=datetime(2026, 11, 2, tzinfo=UTC), rated=True)
    import_script(played_to_the_end(7, 99), now=datetime(2026, 8, 2, tzinfo=UTC), rated=True)


def test_the_leaderboard_ranks_by_the_conservative_figure_with_its_uncertainty_and_games():
    league()
    page = Client().get("/ratings/")
    assert page.status_code == 200
    board = list(page.context["rows"])
    assert [row["rating"].user.username for row in board] != []
    figures = [row["rating"].conservative_figure for row in board]
    assert figures == sorted(figures, reverse=True)
    assert {row["rating"].user.username for row in board} == set(NAMES[:5])  # fay and gus: one game, not ranked
    first = board[0]["rating"]
    html = page.content.decode()
    assert f"{first.mu:.1f} ± {first.sigma:.1f}" in html and floatformat(first.conservative_figure, 1) in html


def test_a_season_has_its_own_board_and_an_unknown_season_is_not_found():
    league()
    assert set(Client().get("/ratings/").context["seasons"]) == {"2026-Q4", "2026-Q3"}
    autumn = Client().get("/ratings/?season=2026-Q4").context["rows"]
    assert {row["rating"].season for row in autumn} == {"2026-Q4"}
    assert not Client().get("/ratings/?season=2026-Q3").context["rows"]  # one game each: too few to rank
    for forged in ("2031-Q1", "%00", "x" * 5000):
        assert Client().get("/ratings/", {"season": forged}).status_code in (400, 404)


def test_the_profile_shows_the_rating_its_uncertainty_and_its_history_as_a_plot():
    league()
    ann = Rating.objects.get(user__username="ann", season="")
    page = Client().get("/users/ann/")
    html = page.content.decode()
    assert floatformat(ann.conservative, 1) in html and f"{ann.mu:.1f} ± {ann.sigma:.1f}" in html
    assert page.context["plot"]["points"][-1]["mu"] == ann.mu
    assert len(page.context["plot"]["points"]) == ann.games == LEADERBOARD_MIN_GAMES + 1
    assert html.count('class="plot-dot"') == ann.games and "<polyline" in html
    assert "Not rated yet" in Client().get(f"/users/{make_user('newbie').username}/").content.decode()


def shown(path: str) -> str:
    """What a page shows of ratings: the leaderboard's content, a profile's rating section (the profile lists the
    games a player is in, running ones too, as before ratings)."""
    html = Client().get(path).content.decode()
    if not path.startswith("/users/"):
        return html[html.index("<main") : html.index("</main>")]
    return html[html.index('aria-labelledby="rating-title"') : html.index("</section>", html.index("rating-title"))]


def test_a_rated_game_in_progress_moves_nothing_and_shows_nowhere():
    league()
    pages = ("/ratings/", "/ratings/?season=2026-Q4", "/users/ann/", "/users/bob/")
    before = [shown(path) for path in pages]
    ratings = list(Rating.objects.values_list("user_id", "season", "mu", "sigma", "games"))
    script = played_to_the_end(5, 1234)
    script["actions"] = script["actions"][:-1]  # one move short of its end
    running = import_script(script, now=datetime(2026, 11, 3, tzinfo=UTC), rated=True)
    assert running.status == Game.Status.RUNNING
    assert [shown(path) for path in pages] == before
    assert list(Rating.objects.values_list("user_id", "season", "mu", "sigma", "games")) == ratings
    assert not RatedGame.objects.filter(game=running).exists()


def test_the_lobby_says_which_games_are_rated_and_the_rating_of_each_sign_up():
    league()
    creator = Game.objects.filter(seats__name="ann").first().seats.get(name="ann").user
    game = create_game(creator, name="Ranked table", min_rating=-20.0)
    join_game(game.pk, make_user("newbie"))
    home = Client().get("/").content.decode()
    assert "Ranked table" in home and "yes, from -20.0" in home
    page = Client().get(f"/games/{game.pk}/").content.decode()
    ann = Rating.objects.get(user=creator, season="")
    assert f"rating {floatformat(ann.conservative, 1)}" in page and "not rated yet" in page
    assert "It is rated" in page and "at least -20.0" in page


def test_the_new_game_form_rates_a_public_game_by_default_and_never_an_unlisted_one():
    creator = make_user("ann")
    client = Client()
    client.force_login(creator)
    form = client.get("/games/new/").context["form"]
    assert form["rated"].value() is True
    client.post("/games/new/", form_data(name="Public", rated="on"))
    client.post("/games/new/", form_data(name="Hidden", rated="on", visibility="unlisted"))
    games = dict(Game.objects.values_list("name", "rated"))
    assert games == {"Public": True, "Hidden": False}


def test_a_deleted_accounts_games_are_rated_again_without_it():
    league()
    delete_account(Game.objects.first().seats.get(name="bob").user)
    assert not Rating.objects.filter(user__username="bob").exists()
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    assert "identical to the last digit" in out.getvalue()


def test_how_ratings_are_counted_is_a_page_of_its_own():
    page = Client().get("/ratings/how/").content.decode()
    assert "exiled" in page and "share of the game's rounds" in page


@pytest.mark.parametrize("forged", ["nan", "inf", "1e308", "-1000", "101", "1\x00", "x" * 5000])
def test_a_forged_minimum_rating_is_refused_with_a_message_and_makes_no_game(forged):
    client = Client()
    client.force_login(make_user("ann"))
    page = client.post("/games/new/", form_data(name="Forged", rated="on", min_rating=forged))
    assert page.status_code in (200, 400)
    assert not Game.objects.filter(name="Forged").exists()
    if page.status_code == 200:
        assert page.context["form"].errors["min_rating"]
