"""The ratings in the open API: the leaderboard in order with its figures, only ratings counted from enough games,
by season and a page at a time; a player's ratings and their history, one point per rated game; a running game
moves nothing and shows nowhere, an unlisted one rates nobody; forged seasons and usernames refused with a
problem, changing nothing; a game's `rated` and `min_rating` in the lobby and its settings."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, RatedGame, Rating, RatingChange, Seat
from games.services import make_move
from games.services.lobby import create_game
from games.services.transfer import import_script
from tests.factories import HITLER_EXECUTED, NAMES, Api, make_user, played_to_the_end, script, token_for
from tests.web.attacks import HUGE, assert_refused

pytestmark = pytest.mark.django_db

Q1, Q2 = datetime(2026, 2, 2, tzinfo=UTC), datetime(2026, 5, 2, tzinfo=UTC)


def rated_game(data: dict, *, at: datetime, **options) -> Game:
    for name in data["players"]:
        make_user(name)
    return Game.objects.get(pk=import_script(data, now=at, **({"rated": True} | options)).pk)


@pytest.fixture
def rated():
    """Five rated 5-player games in 2026-Q1 (ann..eve: five games there, six overall) and one 7-player game in
    2026-Q2 (fay and gus: one game, too few to be ranked)."""
    games = [rated_game(played_to_the_end(5, seed), at=Q1) for seed in range(1, 6)]
    games.append(rated_game(played_to_the_end(7, 6), at=Q2))
    return games


def ratings_snapshot() -> tuple:
    return (
        list(Rating.objects.order_by("pk").values()),
        list(RatingChange.objects.order_by("pk").values()),
        list(RatedGame.objects.order_by("pk").values()),
        list(Game.objects.order_by("pk").values("pk", "status", "step_number", "rated", "min_rating")),
    )


def reader() -> Api:
    return Api(token_for("reader", "read"))


def test_the_leaderboard_ranks_the_ratings_of_enough_games_by_their_conservative_figure(rated):
    board = reader().get("/ratings").json()
    stored = {r.user.username: r for r in Rating.objects.filter(season="").select_related("user")}
    assert board["season"] is None and board["min_games"] == 5
    assert board["seasons"] == ["2026-Q2", "2026-Q1"]
    assert sorted(row["username"] for row in board["ratings"]) == NAMES[:5]  # not fay nor gus: one game
    assert [row["rank"] for row in board["ratings"]] == [1, 2, 3, 4, 5]
    figures = [row["conservative"] for row in board["ratings"]]
    assert figures == sorted(figures, reverse=True)
    for row in board["ratings"]:
        rating = stored[row["username"]]
        assert (row["mu"], row["sigma"], row["games"]) == (rating.mu, rating.sigma, 6)
        assert row["conservative"] == pytest.approx(rating.mu - 3 * rating.sigma)


def test_a_season_s_leaderboard_counts_its_own_games_only(rated):
    api = reader()
    first = api.get("/ratings?season=2026-Q1").json()
    assert first["season"] == "2026-Q1" and [row["games"] for row in first["ratings"]] == [5] * 5
    seasonal = {r.user.username: r.mu for r in Rating.objects.filter(season="2026-Q1").select_related("user")}
    assert {row["username"]: row["mu"] for row in first["ratings"]} == seasonal
    assert api.get("/ratings?season=2026-Q2").json()["ratings"] == []  # one game each there: too few


def test_the_leaderboard_is_read_a_page_at_a_time_from_the_last_rank_read(rated, monkeypatch):
    api = reader()
    whole = [row["username"] for row in api.get("/ratings").json()["ratings"]]
    monkeypatch.setattr("games.api.ratings.PAGE", 2)
    pages = [api.get(f"/ratings?after={after}").json()["ratings"] for after in (0, 2, 4, 6)]
    assert [[row["rank"] for row in page] for page in pages] == [[1, 2], [3, 4], [5], []]
    assert [row["username"] for page in pages for row in page] == whole


def test_a_player_s_ratings_by_season_and_their_history_one_point_per_rated_game(rated):
    ann = reader().get("/ratings/players/ann").json()
    overall = Rating.objects.get(user__username="ann", season="")
    assert ann["username"] == "ann"
    assert (ann["overall"]["mu"], ann["overall"]["sigma"], ann["overall"]["games"]) == (overall.mu, overall.sigma, 6)
    assert ann["overall"]["conservative"] == pytest.approx(overall.mu - 3 * overall.sigma)
    assert [(row["season"], row["games"]) for row in ann["seasons"]] == [("2026-Q2", 1), ("2026-Q1", 5)]
    assert [point["game"] for point in ann["history"]] == [game.pk for game in rated]
    assert [point["season"] for point in ann["history"]] == ["2026-Q1"] * 5 + ["2026-Q2"]
    last = ann["history"][-1]
    assert (last["mu"], last["sigma"]) == (overall.mu, overall.sigma)
    assert last["url"] == rated[-1].get_absolute_url() and last["share"] == 1.0
    assert last["role"] == Seat.objects.get(game=rated[-1], name="ann").role
    assert last["won"] == (rated[-1].winner == ("liberal" if last["role"] == "liberal" else "fascist"))
    assert datetime.fromisoformat(last["finished_at"]) == rated[-1].finished_at


def test_a_player_with_no_rated_game_has_no_rating_and_no_history():
    make_user("zoe")
    assert reader().get("/ratings/players/zoe").json() == {
        "username": "zoe", "overall": None, "seasons": [], "history": [],
    }  # fmt: skip


@pytest.mark.parametrize("username", ["nobody", "gone"])
def test_a_player_who_is_not_there_is_a_404_problem(username):
    get_user_model().objects.filter(pk=make_user("gone").pk).update(is_active=False)
    response = reader().get(f"/ratings/players/{username}")
    assert response.status_code == 404 and response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "no_such_player"


def test_a_rated_game_shows_in_no_rating_while_it_runs_and_moves_them_when_it_ends(rated):
    api = reader()
    paths = ["/ratings", "/ratings?season=2026-Q1", *(f"/ratings/players/{name}" for name in NAMES[:5])]
    before = {path: api.get(path).json() for path in paths}
    running = import_script(script(actions=HITLER_EXECUTED[:-1]), rated=True)
    assert running.status == Game.Status.RUNNING and running.is_rated
    assert {path: api.get(path).json() for path in paths} == before
    dan = Seat.objects.get(game=running, name="dan").user
    make_move(running.pk, dan, {"type": "execute", "target": "cat"}, Game.objects.get(pk=running.pk).step_number)
    assert api.get("/ratings/players/ann").json()["history"][-1]["game"] == running.pk


def test_an_unlisted_game_rates_none_of_its_players():
    rated_game(script(actions=HITLER_EXECUTED), at=Q1, visibility=Game.Visibility.UNLISTED)
    api = reader()
    for name in NAMES[:5]:
        assert api.get(f"/ratings/players/{name}").json()["overall"] is None
    assert api.get("/ratings").json() == {"season": None, "seasons": [], "min_games": 5, "ratings": []}


def test_a_season_without_rated_games_is_a_404_problem(rated):
    response = reader().get("/ratings?season=2031-Q1")
    assert response.status_code == 404 and response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "no_such_season"


@pytest.mark.parametrize(
    "query",
    ["season=%00", f"season={HUGE}", "season=2026-Q5", "season=overall", "season=2026-Q1%00", "season=",
     "after=-1", f"after={10**30}", "after=%00"],
)  # fmt: skip
def test_a_forged_leaderboard_query_is_a_problem_and_changes_nothing(rated, query):
    before = ratings_snapshot()
    response = reader().get(f"/ratings?{query}")
    assert response.status_code in (400, 422), response.content[:300]  # 400: the address itself, before the API
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "invalid_request"
    assert ratings_snapshot() == before


@pytest.mark.parametrize("username", ["%00", "ann%00", HUGE, "ann'--", "%2e%2e", "ann%20", "%E2%80%A8"])
def test_a_forged_username_is_refused_and_changes_nothing(rated, username):
    before = ratings_snapshot()
    response = reader().get(f"/ratings/players/{username}")
    assert_refused(response)
    assert response["Content-Type"] == "application/problem+json"
    assert "mu" not in response.json()
    assert ratings_snapshot() == before


def test_the_lobby_and_a_game_s_settings_say_whether_it_is_rated_and_its_minimum_rating():
    creator = make_user("ann")
    strict = create_game(creator, join=False, min_rating=2.5)
    unlisted = create_game(make_user("bob"), visibility=Game.Visibility.UNLISTED)
    Game.objects.filter(pk=unlisted.pk).update(rated=True)  # written by hand: an unlisted game still is not rated
    api = reader()
    (shown,) = api.get("/lobby").json()["open"]
    assert (shown["id"], shown["rated"], shown["min_rating"]) == (strict.pk, True, 2.5)
    assert api.get(f"/games/{strict.pk}").json()["settings"].items() >= {"rated": True, "min_rating": 2.5}.items()
    settings = api.get(f"/games/unlisted/{unlisted.link_key}").json()["settings"]
    assert (settings["rated"], settings["min_rating"]) == (False, None)
