"""Ratings: each person's skill with its uncertainty, overall and per season, moved by the rated games they played
(games/ratings.py is the model, games/services/ratings.py the only writer). Every row here is derived from the
finished games' results in the order they were rated: `manage.py recompute_ratings` makes them again."""

from django.conf import settings
from django.db import models

from .game import Game

OVERALL = ""  # the season of a rating that counts every season


class RatingLedger(models.Model):
    """The one row (pk 1, made by the migration) that rating a game locks: games are rated one after another, each
    with the baselines of every game rated before it, in the order recompute_ratings replays them."""

    class Meta:
        verbose_name = "rating ledger"

    def __str__(self) -> str:
        return "rating ledger"


class RatedGame(models.Model):
    """A finished game whose result moved ratings: its place in the order games were rated, its season, the
    liberals' baseline it was rated with and the liberals' chance the ratings gave before it (for calibration)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rated_result")
    order = models.PositiveIntegerField(unique=True)
    season = models.CharField(max_length=7, help_text="the quarter it ended in, as 2026-Q4")
    chance = models.FloatField(help_text="the liberals' chance at equal skill, from the games rated before")
    predicted = models.FloatField(help_text="the liberals' chance to win by the ratings before the game")

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return f"{self.game_id} rated #{self.order}"


class Rating(models.Model):
    """A person's rating, overall (season "") or in one season."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    season = models.CharField(max_length=7, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "season"], name="rating_one_per_season")]
        indexes = [models.Index(fields=["season", "games"], name="rating_board_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.season or 'overall'}: {self.mu:.2f} ± {self.sigma:.2f}"

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """What one rated game did to one person's rating (overall or the game's season): their history."""

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    season = models.CharField(max_length=7, blank=True)
    role = models.CharField(max_length=10)
    share = models.FloatField(help_text="the part of the game's rounds they held the seat")
    won = models.BooleanField(help_text="as counted for them: an exiled player lost")
    mu = models.FloatField(help_text="after the game")
    sigma = models.FloatField(help_text="after the game")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rated_game", "user", "season"], name="rating_change_once"),
        ]
        indexes = [models.Index(fields=["user", "season"], name="rating_history_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} after {self.rated_game_id}: {self.mu:.2f} ± {self.sigma:.2f}"
