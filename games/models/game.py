"""Games that live for weeks: their settings, seats, persisted engine state, logs, deadlines and absences.

Every change to these rows goes through games.services, in one transaction with the game row locked.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import GameState, InvalidSetup, codec
from games.engine.settings import HouseRules

DAY = 24
# Every duration is from 1 hour to 60 days: a game's clock must stay within what the sweep can compute.
DURATION = [MinValueValidator(1), MaxValueValidator(60 * DAY)]
MAX_ABSENCE_DAYS = 90  # the longest cap a game may set on its absences (E4)
LINK_KEY_BYTES = 24  # an unlisted game's link key: 192 random bits, 32 characters of URL-safe base64


VOTE_BEFORE_NOMINATION = _(
    "The vote closes %(election)s h after the round starts: it must close after the nomination's deadline "
    "(%(nomination)s h after the start), leaving time to discuss. Give the vote more hours than the nomination."
)


def default_house_rules() -> dict:
    return HouseRules().to_dict()


def validate_house_rules(value) -> None:
    try:
        HouseRules.from_dict(value)
    except InvalidSetup as refused:
        raise ValidationError(str(refused)) from None


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open for sign-ups")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")
        CLOSED = "closed", _("Closed unfilled")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: listed in the lobby, readable by anyone")
        UNLISTED = "unlisted", _("Unlisted: readable by anyone with the link")

    # What it is and who may read it.
    name = models.CharField(_("name"), max_length=100)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="games_created"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC)
    # An unlisted game's secret address (games/u/<link_key>/), the only one at which a stranger reads it; blank for a
    # public game. Its creator or a moderator renews it (services.lobby.renew_link).
    link_key = models.CharField(max_length=64, blank=True, editable=False)
    # The game made to play this one again with the same players, once one of them asked (services/rematch.py): one
    # a game, so that two clicks at once make one lobby. Kept here, on the row the finished game's page reads.
    rematch = models.OneToOneField(
        "self", null=True, blank=True, editable=False, on_delete=models.SET_NULL, related_name="rematch_of"
    )

    # Its settings, chosen when it is made (SETTINGS_FIELDS).
    player_count = models.PositiveSmallIntegerField(
        _("players"), default=7, validators=[MinValueValidator(5), MaxValueValidator(10)]
    )
    # The house rules (RULES.md R3, R15, R18, R23, T4) by name, as games.engine.settings declares them: read as
    # `rules`; a rule declared after the game was made takes its default.
    house_rules = models.JSONField(default=default_house_rules, blank=True, validators=[validate_house_rules])

    # Durations in hours (T1-T3), counted from when the step (for T1's vote: the round) began.
    nomination_hours = models.PositiveIntegerField(default=2 * DAY, validators=DURATION)
    election_hours = models.PositiveIntegerField(default=7 * DAY, validators=DURATION)
    discard_hours = models.PositiveIntegerField(default=1 * DAY, validators=DURATION)
    legislative_hours = models.PositiveIntegerField(default=2 * DAY, validators=DURATION)
    veto_reply_hours = models.PositiveIntegerField(default=1 * DAY, validators=DURATION)
    veto_enact_hours = models.PositiveIntegerField(default=1 * DAY, validators=DURATION)
    power_hours = models.PositiveIntegerField(default=2 * DAY, validators=DURATION)
    execution_vote_hours = models.PositiveIntegerField(default=2 * DAY, validators=DURATION)
    # Durations shorter than an hour, for demonstrations: when set, every duration above counts in minutes.
    minute_durations = models.BooleanField(default=False)
    deadline_hour = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(23)], help_text=_("deadlines move to this hour")
    )
    time_zone = models.CharField(max_length=64, default="UTC")

    # Participation (E4, E6) and the lobby.
    absence_notice_hours = models.PositiveIntegerField(default=DAY, validators=[MaxValueValidator(30 * DAY)])
    absence_max_days = models.PositiveIntegerField(default=7, validators=[MaxValueValidator(MAX_ABSENCE_DAYS)])
    exile_lookback_games = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("refuse players exiled in any of their last N games")
    )
    lobby_days = models.PositiveSmallIntegerField(default=14, validators=[MinValueValidator(1), MaxValueValidator(90)])
    # Ratings (games/services/ratings.py): whether the game's result moves its players' ratings (never an unlisted
    # game's), and the overall rating (its conservative figure) a person needs to sign up.
    rated = models.BooleanField(_("rated"), default=False, help_text=_("the result moves the players' ratings"))
    min_rating = models.FloatField(
        _("minimum rating to join"),
        null=True,
        blank=True,
        validators=[MinValueValidator(-100), MaxValueValidator(100)],
        help_text=_("a player's rating (its conservative figure) must be at least this to sign up"),
    )

    # The running game: what every change writes (PLAYED_FIELDS), but its seed and set-up, written at its start.
    seed = models.BigIntegerField(null=True, blank=True)
    setup = models.JSONField(
        null=True, blank=True, help_text="the replay script's set-up (players, seed, rng); its settings: house_rules"
    )
    state = models.TextField(  # noqa: DJ001 (NULL: no state before the game starts, not an empty text)
        null=True, blank=True, help_text="the engine's GameState as versioned JSON text (games.engine.codec)"
    )
    step_number = models.PositiveIntegerField(default=0)
    event_count = models.PositiveIntegerField(default=0)
    action_count = models.PositiveIntegerField(default=0)
    round_started_at = models.DateTimeField(null=True, blank=True)
    session_started_at = models.DateTimeField(null=True, blank=True)
    step_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    thread_locked = models.BooleanField(default=False, help_text="a moderator closed the game thread to players")
    waiting = models.JSONField(  # public: the status box says it; a first ballot changes it with no event
        default=list, blank=True, help_text="the seat numbers that owe a move now, for the live page's fingerprint"
    )

    # Its result: what the statistics read of a finished game (games/stats.py), written when it ends
    # (services/results.py).
    winner = models.CharField(max_length=10, blank=True)
    win_reason = models.CharField(max_length=20, blank=True)
    rounds = models.PositiveIntegerField(null=True, blank=True)
    policies = models.PositiveIntegerField(null=True, blank=True, help_text="enacted, chaos's included")
    chaos_policies = models.PositiveIntegerField(null=True, blank=True)

    # Bookkeeping: when it was made, listed, started and ended; and when the sweep could not apply its deadline:
    # set aside, retried after a back-off, shown to the moderators; cleared when the sweep next succeeds.
    created_at = models.DateTimeField(auto_now_add=True)
    lobby_closes_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    sweep_failures = models.PositiveSmallIntegerField(default=0)
    sweep_error = models.TextField(blank=True)
    sweep_retry_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "deadline"], name="game_due_idx"),
            models.Index(fields=["status", "lobby_closes_at"], name="game_lobby_idx"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["link_key"], condition=~models.Q(link_key=""), name="game_link_key_unique")
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    def save(self, *args, **kwargs):
        if self._match_link_key_to_visibility() and kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = [*kwargs["update_fields"], "link_key"]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return self.address()

    def address(self, page: str = "thread", *args) -> str:
        """The address of one of the game's pages (games.urls: `thread`, `rules`, `post_history` with a post's id...).
        An unlisted game's carries its link key, not its number: it works for whoever holds the key, and the game's
        own pages and emails lead nobody to the number, which answers 404 to strangers."""
        return reverse(f"games:{page}", args=[self.link_key or self.pk, *args])

    def _match_link_key_to_visibility(self) -> bool:
        """An unlisted game has a link key, a public one none (made unlisted again, a game gets a new key): whether
        the key had to change."""
        unlisted = self.visibility == self.Visibility.UNLISTED
        if unlisted == bool(self.link_key):
            return False
        self.link_key = new_link_key() if unlisted else ""
        return True

    @property
    def is_rated(self) -> bool:
        """Whether its result moves ratings: a rated public game (an unlisted game never is, whatever it says)."""
        return self.rated and self.visibility == self.Visibility.PUBLIC

    def clean(self):
        """T1: the vote's hours and the nomination's both count from the round's start, so the vote must close after
        the nomination's deadline, leaving time to discuss. Every way of making a game (the new-game form, a model
        form; create_game, through full_clean) refuses it here, on the vote's field."""
        super().clean()
        if self.nomination_hours and self.election_hours and self.election_hours <= self.nomination_hours:
            raise ValidationError(
                {
                    "election_hours": ValidationError(
                        VOTE_BEFORE_NOMINATION,
                        code="vote_too_short",
                        params={"election": self.election_hours, "nomination": self.nomination_hours},
                    )
                }
            )

    def load_state(self) -> GameState:
        """The engine's state of this running or finished game, with its settings (stored in `house_rules`)."""
        return codec.decode(self.state, self.rules.for_engine())

    def store_state(self, state: GameState) -> None:
        self.state = codec.encode(state)

    @property
    def rules(self) -> HouseRules:
        return HouseRules.from_dict(self.house_rules)

    def duration(self, name: str) -> timedelta:
        """One of the durations above (`nomination`, `election`, ...) as a timedelta."""
        amount = getattr(self, f"{name}_hours")
        return timedelta(minutes=amount) if self.minute_durations else timedelta(hours=amount)


# The game's fields in their groups, each readable apart; every field is in one (tests/games/test_game_fields.py).
IDENTITY_FIELDS = ("name", "created_by", "status", "visibility", "link_key", "rematch")
SETTINGS_FIELDS = ("player_count", "house_rules", "nomination_hours", "election_hours", "discard_hours",
                   "legislative_hours", "veto_reply_hours", "veto_enact_hours", "power_hours", "execution_vote_hours",
                   "minute_durations", "deadline_hour", "time_zone", "absence_notice_hours", "absence_max_days",
                   "exile_lookback_games", "lobby_days", "rated", "min_rating")  # fmt: skip
RUNNING_FIELDS = ("seed", "setup", "state", "step_number", "event_count", "action_count", "round_started_at",
                  "session_started_at", "step_started_at", "deadline", "paused_at", "thread_locked",
                  "waiting")  # fmt: skip
RESULT_FIELDS = ("winner", "win_reason", "rounds", "policies", "chaos_policies")
BOOKKEEPING_FIELDS = ("created_at", "lobby_closes_at", "started_at", "finished_at", "sweep_failures", "sweep_error",
                      "sweep_retry_at")  # fmt: skip
# What a change (a move, a deadline, a moderator's intervention) writes of the game's row: its status, the running
# game, its result and the sweep's bookkeeping. Its settings are written by whoever sets them, with
# save(update_fields=...).
PLAYED_FIELDS = ("status", *RUNNING_FIELDS[2:], *RESULT_FIELDS, "finished_at", "sweep_failures", "sweep_error",
                 "sweep_retry_at")  # fmt: skip


def new_link_key() -> str:
    return secrets.token_urlsafe(LINK_KEY_BYTES)


class Seat(models.Model):
    """A person's place in a game: a player's seat, a substitute waiting for one (E5), or a person a moderator
    named to take one at the round's end (E8, `pending`). All of them are in the game: none may moderate it.

    `number` is the engine's seat index. Several rows may share a number over a game's life (a substitute
    or a replacement takes the seat); the one with `active` set holds it now.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="seats")
    name = models.CharField(max_length=150, help_text="the name the engine knows (the user name when joining)")
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    is_substitute = models.BooleanField(default=False)
    active = models.BooleanField(default=True, help_text="holds the seat now, or waits as a substitute")
    pending = models.BooleanField(
        default=False, help_text="named by a moderator to take a seat when the round ends (E8); not seated yet"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    rounds_missed = models.PositiveIntegerField(default=0, help_text="every round missed in this game (E6)")
    role = models.CharField(max_length=10, blank=True, help_text="the seat's role, written when the game ends")
    exiled_at = models.DateTimeField(null=True, blank=True)
    exile_reason = models.CharField(max_length=200, blank=True)
    replaced_at = models.DateTimeField(null=True, blank=True)
    resign_requested_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.UniqueConstraint(fields=["game", "name"], name="seat_one_per_name"),
            models.UniqueConstraint(
                fields=["game", "number"], condition=models.Q(active=True), name="seat_one_active_holder"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.game_id} (seat {self.number})"


class GameEvent(models.Model):
    """The public game log, append-only: one row per engine event (games.engine.events)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    index = models.PositiveIntegerField()
    step_number = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    data = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="event_unique_index")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.index} {self.type}"


class ActionRecord(models.Model):
    """Every move applied to a game, in order, as a replay script action: the game's audit trail and the
    source of `export_replay`."""

    class Source(models.TextChoices):
        PLAYER = "player", _("Player")
        DEADLINE = "deadline", _("Deadline")
        MODERATOR = "moderator", _("Moderator")
        SYSTEM = "system", _("System")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField()
    action = models.JSONField()
    source = models.CharField(max_length=10, choices=Source.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    actor_name = models.CharField(max_length=150, blank=True, help_text="kept if the account goes")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="action_unique_index")]
        indexes = [models.Index(fields=["created_at"], name="action_recent_idx")]  # /metrics: moves a minute

    def __str__(self) -> str:
        return f"{self.game_id}#{self.index} {self.action.get('type')}"


class Absence(models.Model):
    """An absence announced in advance (E4): misses whose deadline falls inside it are excused."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="absences")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    ended_early_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")), name="absence_positive")
        ]

    def __str__(self) -> str:
        return f"{self.seat.user} away {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"

    @property
    def effective_end(self):
        return min(self.ends_at, self.ended_early_at) if self.ended_early_at else self.ends_at

    def covers(self, moment) -> bool:
        return self.starts_at <= moment < self.effective_end


class SweepRun(models.Model):
    """When each periodic task last finished its work (one row a task): monitoring sees which ones run."""

    class Task(models.TextChoices):
        DEADLINES = "deadlines", _("Deadlines")
        LOBBIES = "lobbies", _("Lobbies")
        REMINDERS = "reminders", _("Reminders")
        OUTBOX = "outbox", _("Emails")
        WEBHOOKS = "webhooks", _("Webhooks")
        PUSH = "push", _("Push notifications")

    task = models.CharField(max_length=20, choices=Task.choices, unique=True, default=Task.DEADLINES)
    finished_at = models.DateTimeField()
    handled = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0, help_text="how long the last run took")
    failed = models.PositiveIntegerField(default=0, help_text="rows the last run could not handle")
    errors = models.TextField(blank=True, help_text="the first errors of the last run, one a line")

    def __str__(self) -> str:
        return f"{self.task} at {self.finished_at:%Y-%m-%d %H:%M:%S} ({self.handled} handled)"

    @classmethod
    def record(cls, task: str, handled: int, seconds: float = 0.0, *, failed: int = 0, errors: str = "") -> None:
        defaults = {"finished_at": timezone.now(), "handled": handled, "seconds": seconds}
        cls.objects.update_or_create(task=task, defaults={**defaults, "failed": failed, "errors": errors})
