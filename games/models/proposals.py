"""The table's own votes on the game's clock: a living player proposes to pause, resume or extend the deadline, and
the living players vote on it; a passed proposal applies the moderators' intervention (games.services.proposals)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .game import Game, Seat


class Proposal(models.Model):
    class Kind(models.TextChoices):
        PAUSE = "pause", _("Pause the game")
        RESUME = "resume", _("Resume the game")
        EXTEND = "extend", _("Extend the deadline")

    class Outcome(models.TextChoices):
        PASSED = "passed", _("Passed")
        FAILED = "failed", _("Failed")
        LAPSED = "lapsed", _("Lapsed")

    MAX_HOURS = 72
    MAX_REASON = 300

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="proposals")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    hours = models.PositiveSmallIntegerField(null=True, blank=True, help_text="an extension's length")
    reason = models.CharField(max_length=MAX_REASON, blank=True)
    until = models.DateTimeField(null=True, blank=True, help_text="a pause's end, if the proposer set one")
    proposer = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    step_number = models.PositiveIntegerField(help_text="the step it was made in: it lapses when the step ends")
    created_at = models.DateTimeField()
    lapses_at = models.DateTimeField(help_text="the step's deadline or 48 hours on, whichever is first")
    closed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=6, choices=Outcome.choices, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=models.Q(closed_at=None), name="proposal_one_open_per_game"
            ),
        ]
        indexes = [
            models.Index(fields=["lapses_at"], condition=models.Q(closed_at=None), name="proposal_open_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} in {self.game_id} ({self.outcome or 'open'})"


class ProposalBallot(models.Model):
    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="ballots")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    yes = models.BooleanField()
    cast_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["proposal", "seat"], name="proposal_ballot_one_per_seat")]

    def __str__(self) -> str:
        return f"{'yes' if self.yes else 'no'} by {self.seat_id} on {self.proposal_id}"
