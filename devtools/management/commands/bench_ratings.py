"""`manage.py bench_ratings`: how well the site's ratings find skill and predict games, beside secrethitler.io-style
Elo and plain OpenSkill, on simulated leagues whose skills are known; and how well calibrated the site's own
predictions were on its rated games.

Each league (devtools/bench/ratings.py says how it is drawn) is played by the three systems side by side. At 10, 30
and 100 games a player on average, for each system: the rank correlation (Spearman's) of its ratings with the
hidden skills, by mu for ours and plain OpenSkill (by the rating for Elo), and the log loss and Brier score of the
predictions it made before each game of the stretch that ends there (games 0-10, 10-30, 30-100 a player). Each
figure is the mean over the leagues (seeds), with its standard deviation. The limit is the issue's: ours must be
the best on every figure. Then calibration: by tenth of our prediction, the games, the mean prediction and the
share the liberals won, for the simulated leagues and for the site's rated games in the database.
Figures to measure and write in docs/measurements.md, not a test.
"""

import statistics

from django.core.management.base import BaseCommand

from devtools.bench.ratings import SYSTEMS, League, calibration, run_league
from games.models import RatedGame

LIMIT = "ours must be best on every figure"
# Each compared figure: its key, how it is named, and whether higher is better.
FIGURES = (
    ("rank_correlation", "rank correlation with skill (mu)", True),
    ("log_loss", "log loss", False),
    ("brier", "Brier score", False),
)
CONSERVATIVE = ("rank_correlation_conservative", "rank correlation, mu - 3 sigma (not compared)", True)


def summary(values: list[float]) -> tuple[float, float]:
    return statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else 0.0


class Command(BaseCommand):
    help = "Compare the site's ratings with Elo and plain OpenSkill on simulated leagues; calibration of both."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=300, help="players in each league (default 300)")
        parser.add_argument("--seeds", type=int, default=5, help="leagues, seeded 1, 2, ... (default 5)")
        parser.add_argument("--first-seed", type=int, default=1, help="the first league's seed (default 1)")
        parser.add_argument(
            "--checkpoints", type=int, nargs="+", default=[10, 30, 100], help="games a player on average"
        )
        parser.add_argument(
            "--skill-effect", type=float, default=1.0, help="the known model's weight of a skill gap, in logits"
        )

    def handle(self, *args, players, seeds, first_seed, checkpoints, skill_effect, **options):
        leagues = range(first_seed, first_seed + seeds)
        runs = [run_league(League(seed, players, skill_effect), checkpoints) for seed in leagues]
        self.stdout.write(
            f"Simulated leagues: {seeds} seeds x {players} players, skill effect {skill_effect} logit;"
            f" games per league to {checkpoints[-1]} a player: "
            + ", ".join(str(sum(stretch["games"] for stretch in run["figures"]["ours"])) for run in runs)
        )
        self.stdout.write(
            "Mean ± standard deviation over the seeds. Rank correlation (Spearman's) of the ratings with the hidden"
            " skills: ours and OpenSkill by mu, Elo by its rating; log loss and Brier score of the predictions made"
            " before each game of the stretch (not cumulative)."
        )
        self._figures(runs, checkpoints)
        self.stdout.write("\nCalibration, simulated leagues (ours, every game of every seed):")
        self._calibration([pair for run in runs for pair in run["predictions"]["ours"]])
        rated = [(predicted, winner == "liberal") for predicted, winner in _site_games()]
        if rated:
            self.stdout.write(f"\nCalibration, the site's rated games ({len(rated)}):")
            self._calibration(rated)
        else:
            self.stdout.write("\nCalibration, the site's rated games: no rated game in the database.")

    def _figures(self, runs: list[dict], checkpoints: list[int]) -> None:
        names = [system.name for system in SYSTEMS]
        self.stdout.write(f"\n{'figure':<62}" + "".join(f"{name:>24}" for name in names) + f"{'known model':>14}  best")
        losing = []
        previous = 0
        for index, checkpoint in enumerate(checkpoints):
            stretch = f"games {previous}-{checkpoint} a player"
            for key, label, higher in (*FIGURES, CONSERVATIVE):
                at = f"at {checkpoint} games" if key.startswith("rank") else stretch
                cells = {
                    name: [run["figures"][name][index][key] for run in runs]
                    for name in names
                    if runs[0]["figures"][name][index][key] is not None
                }
                means = {name: summary(values) for name, values in cells.items()}
                best = (max if higher else min)(means, key=lambda name: means[name][0])
                floor = [run["floor"][index][key] for run in runs] if key in ("log_loss", "brier") else None
                row = f"{label + ', ' + at:<62}" + "".join(
                    f"{f'{means[name][0]:.4f} ± {means[name][1]:.4f}':>24}" if name in means else f"{'-':>24}"
                    for name in names
                )
                row += f"{statistics.fmean(floor):>14.4f}" if floor else f"{'-':>14}"
                self.stdout.write(f"{row}  {best}")
                if key != CONSERVATIVE[0] and best != "ours":
                    losing.append(f"{label}, {at}")
            previous = checkpoint
        verdict = "met" if not losing else "NOT met, best elsewhere: " + "; ".join(losing)
        self.stdout.write(f"Limit: {LIMIT}: {verdict}.")
        self.stdout.write("Known model: the simulation's own chances, the floor of log loss and Brier on average.")

    def _calibration(self, pairs: list[tuple[float, bool]]) -> None:
        self.stdout.write(f"{'predicted':<12}{'games':>8}{'mean predicted':>16}{'liberals won':>14}")
        for row in calibration(pairs):
            tenth = f"{row['tenth'] * 10}-{row['tenth'] * 10 + 10}%"
            if row["games"]:
                self.stdout.write(f"{tenth:<12}{row['games']:>8}{row['predicted']:>16.3f}{row['observed']:>14.3f}")
            else:
                self.stdout.write(f"{tenth:<12}{0:>8}{'-':>16}{'-':>14}")


def _site_games() -> list[tuple[float, str]]:
    """Each rated game's pre-game prediction for the liberals and its winner ("liberal" or "fascist")."""
    return list(RatedGame.objects.values_list("predicted", "game__winner"))
