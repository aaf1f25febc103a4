"""`manage.py bench_ratings`, run small: every system beside every figure, the limit, and calibration of the
simulated leagues and of the site's rated games."""

from io import StringIO

import pytest
from django.core.management import call_command

from devtools.bench.ratings import League, spearman
from games.models import Game, RatedGame

pytestmark = pytest.mark.django_db

SMALL = ("--players", "30", "--seeds", "2", "--checkpoints", "2", "5", "10")


def bench(*arguments: str) -> str:
    out = StringIO()
    call_command("bench_ratings", *SMALL, *arguments, stdout=out)
    return out.getvalue()


def test_bench_ratings_prints_each_system_beside_each_figure_and_the_limit():
    output = bench()
    header = next(line for line in output.splitlines() if line.startswith("figure"))
    for system in ("Elo (secrethitler.io)", "OpenSkill (plain)", "ours", "known model"):
        assert system in header
    for figure in ("rank correlation with skill (mu), at 2 games", "log loss, games 0-2", "Brier score, games 5-10"):
        assert figure in output
    assert "rank correlation, mu - 3 sigma (not compared), at 10 games" in output
    assert "Limit: ours must be best on every figure: " in output
    assert "Calibration, simulated leagues (ours, every game of every seed):" in output
    assert "Calibration, the site's rated games: no rated game in the database." in output


def test_bench_ratings_calibrates_the_sites_rated_games_by_tenth():
    for order, (predicted, winner) in enumerate([(0.31, "liberal"), (0.35, "fascist"), (0.92, "liberal")]):
        game = Game.objects.create(name=f"rated {order}", status=Game.Status.FINISHED, winner=winner)
        RatedGame.objects.create(game=game, order=order, season="2026-Q4", chance=0.5, predicted=predicted)
    table = bench().split("Calibration, the site's rated games (3):")[1]
    rows = {line.split()[0]: line.split()[1:] for line in table.splitlines() if "%" in line}
    assert rows["30-40%"] == ["2", "0.330", "0.500"]
    assert rows["90-100%"] == ["1", "0.920", "1.000"]
    assert rows["0-10%"] == ["0", "-", "-"]


def test_a_league_is_determined_by_its_seed():
    first, again = League(7, 40).games(), League(7, 40).games()
    assert [next(first) for _ in range(20)] == [next(again) for _ in range(20)]


def test_spearman_counts_ties_by_their_mean_rank():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1)
    assert spearman([1, 1, 2], [1, 2, 3]) == pytest.approx(0.8660254)
