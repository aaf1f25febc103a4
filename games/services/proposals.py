"""The table's own votes on the clock: any living player proposes to pause the game, resume it or extend the
current deadline; every living player votes yes or no from their private panel, and no moderator is needed.

A proposal passes when a majority of the living players vote yes (the proposer's yes counts), fails as soon as that
majority can no longer be reached, and lapses when its step ends or after LAPSE_AFTER, whichever is first. A passed
proposal applies the moderators' own intervention (interventions.py), on the record as the table's.

Every change is one transaction with the game row locked (`changing`), so two ballots at once are counted one
after the other and a proposal is decided, and applied, once. A lapsed proposal is closed by the next proposal or
ballot in its game, or by the deadline sweep's `close_due_proposals`, whichever comes first.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import SeatStatus
from games.engine.events import ModeratorAction
from games.models import Game, Proposal, ProposalBallot, Seat
from games.notify.bell import notify_proposal

from .errors import GameError
from .interventions import extend_deadline, pause_game, resume_game
from .play import Change, changing, lock_game

LAPSE_AFTER = timedelta(hours=48)


def propose(
    game_id: int,
    user,
    kind: str,
    *,
    hours: int | None = None,
    reason: str = "",
    until: datetime | None = None,
    now: datetime | None = None,
) -> Proposal:
    """A living player's proposal, open for the table's ballots; theirs is a yes. Refused while another is open."""
    _check_terms(kind, hours, reason, until, now or timezone.now())
    with changing(game_id, now=now) as change:
        seat = _living_seat(change, user)
        open_proposal = _open(change)
        if open_proposal is not None:
            raise GameError(_("A proposal is already open in this game: vote on it first."), code="proposal_open")
        _check_applies(change.game, kind)
        deadline = change.game.deadline
        proposal = Proposal.objects.create(
            game=change.game,
            kind=kind,
            hours=hours if kind == Proposal.Kind.EXTEND else None,
            reason=reason.strip(),
            until=until if kind == Proposal.Kind.PAUSE else None,
            proposer=seat,
            step_number=change.game.step_number,
            created_at=change.now,
            lapses_at=min(change.now + LAPSE_AFTER, deadline) if deadline else change.now + LAPSE_AFTER,
        )
        ProposalBallot.objects.create(proposal=proposal, seat=seat, yes=True, cast_at=change.now)
        notify_proposal(proposal, [u for u in _table(change) if u != user.pk], change.now)
        _decide(change, proposal)
        return proposal


def vote_on_proposal(game_id: int, user, proposal_id: int, yes: bool, *, now: datetime | None = None) -> bool:
    """A living player's ballot on the open proposal. Returns False for a second ballot (the first stands)."""
    with changing(game_id, now=now) as change:
        seat = _living_seat(change, user)
        proposal = _open(change)
        if proposal is None or proposal.pk != proposal_id:
            raise GameError(_("This proposal is closed: nothing was done."), code="proposal_closed")
        if proposal.ballots.filter(seat=seat).exists():
            return False
        ProposalBallot.objects.create(proposal=proposal, seat=seat, yes=yes, cast_at=change.now)
        _decide(change, proposal)
        return True


def open_proposal(game: Game, now: datetime | None = None) -> Proposal | None:
    """The game's open proposal, as the panel shows it (one that lapsed is not, even before it is closed)."""
    proposal = game.proposals.filter(closed_at=None).select_related("proposer").first()
    if proposal is None or _lapsed(proposal, game, now or timezone.now()):
        return None
    return proposal


def close_due_proposals(*, now: datetime | None = None) -> int:
    """Close every proposal that lapsed, and resume every game whose table-voted pause has reached its end. Each
    game in a transaction of its own; returns how many proposals and pauses were handled."""
    now = now or timezone.now()
    lapsed = Proposal.objects.filter(Q(lapses_at__lte=now) | ~Q(step_number=F("game__step_number")), closed_at=None)
    handled = sum(_close_lapsed(game_id, now) for game_id in lapsed.values_list("game_id", flat=True))
    pauses = Proposal.objects.filter(
        kind=Proposal.Kind.PAUSE,
        outcome=Proposal.Outcome.PASSED,
        until__lte=now,
        game__status=Game.Status.RUNNING,
        game__paused_at=F("closed_at"),  # still the pause this proposal made: no moderator resumed it meanwhile
    )
    return handled + sum(_resume_at_end(proposal, now) for proposal in pauses)


def _close_lapsed(game_id: int, now: datetime) -> bool:
    with transaction.atomic():
        game = lock_game(game_id)
        proposal = game.proposals.filter(closed_at=None).first()
        if proposal is None or not _lapsed(proposal, game, now):
            return False
        _close(proposal, Proposal.Outcome.LAPSED, now, _table_of(game))
        return True


def _resume_at_end(proposal: Proposal, now: datetime) -> bool:
    try:
        with changing(proposal.game_id, now=now) as change:
            if change.game.paused_at != proposal.closed_at:  # resumed by another sweep or a moderator meanwhile
                return False
            return resume_game(change, ModeratorAction(action="resume", by_table=True))
    except GameError:  # the game ended since it was found: nothing to resume
        return False


def _check_terms(kind: str, hours: int | None, reason: str, until: datetime | None, now: datetime) -> None:
    if kind not in Proposal.Kind.values:
        raise GameError(_("Propose a pause, a resumption or an extension."), code="invalid_proposal")
    if kind == Proposal.Kind.EXTEND and (hours is None or not 1 <= hours <= Proposal.MAX_HOURS):
        raise GameError(
            _("An extension the table votes on is from 1 to %(hours)s hours.") % {"hours": Proposal.MAX_HOURS},
            code="out_of_range",
        )
    if kind == Proposal.Kind.PAUSE and not reason.strip():
        raise GameError(_("Say why the game should pause."), code="reason_missing")
    if len(reason) > Proposal.MAX_REASON:
        raise GameError(
            _("A reason is at most %(limit)s characters.") % {"limit": Proposal.MAX_REASON}, code="reason_too_long"
        )
    if kind == Proposal.Kind.PAUSE and until is not None and until <= now:
        raise GameError(_("A pause ends in the future."), code="until_past")


def _check_applies(game: Game, kind: str) -> None:
    if kind == Proposal.Kind.RESUME and game.paused_at is None:
        raise GameError(_("The game is not paused."), code="not_paused")
    if kind != Proposal.Kind.RESUME and game.paused_at is not None:
        raise GameError(_("The game is paused: propose to resume it."), code="paused")


def _living_seat(change: Change, user) -> Seat:
    """The user's seat, if they hold one and are alive: only the living decide the game's clock."""
    seat = change.seat_held_by(user)
    if seat is None or not seat.active or seat.number is None:
        raise GameError(_("Only the game's players can propose or vote."), code="not_a_player")
    if change.state.seats[seat.number].status != SeatStatus.ALIVE:
        raise GameError(_("Only living players can propose or vote."), code="not_alive")
    return seat


def _living(change: Change) -> list[Seat]:
    state = change.state
    return [change.seat_of(seat.name) for seat in state.seats if seat.status == SeatStatus.ALIVE]


def _open(change: Change) -> Proposal | None:
    """The game's open proposal; one that lapsed is closed first, and is no longer open."""
    proposal = change.game.proposals.filter(closed_at=None).first()
    if proposal is not None and _lapsed(proposal, change.game, change.now):
        _close(proposal, Proposal.Outcome.LAPSED, change.now, _table(change))
        return None
    return proposal


def _lapsed(proposal: Proposal, game: Game, now: datetime) -> bool:
    return proposal.step_number != game.step_number or now >= proposal.lapses_at or game.status != Game.Status.RUNNING


def _decide(change: Change, proposal: Proposal) -> None:
    """Pass or fail the proposal once its ballots settle it: a majority of the living said yes, or can no longer."""
    living = {seat.pk for seat in _living(change)}
    ballots = dict(proposal.ballots.filter(seat__in=living).values_list("seat", "yes"))
    yes = sum(ballots.values())
    majority = len(living) // 2 + 1
    if yes >= majority:
        _close(proposal, Proposal.Outcome.PASSED, change.now, _table(change))
        _apply(change, proposal)
    elif len(living) - (len(ballots) - yes) < majority:
        _close(proposal, Proposal.Outcome.FAILED, change.now, _table(change))


def _apply(change: Change, proposal: Proposal) -> None:
    """The moderators' intervention, in this change, on the record as the table's."""
    if proposal.kind == Proposal.Kind.PAUSE:
        pause_game(change, ModeratorAction(action="pause", by_table=True))
    elif proposal.kind == Proposal.Kind.RESUME:
        resume_game(change, ModeratorAction(action="resume", by_table=True))
    else:
        extend_deadline(change, ModeratorAction(action="extend", hours=proposal.hours, by_table=True))


def _close(proposal: Proposal, outcome: str, now: datetime, told: list[int]) -> None:
    proposal.closed_at, proposal.outcome = now, outcome
    proposal.save(update_fields=["closed_at", "outcome"])
    notify_proposal(proposal, told, now)


def _table(change: Change) -> list[int]:
    """Everyone seated at the table now (the living and the dead), by account."""
    return [seat.user_id for seat in change.seats.values() if _seated(seat)]


def _table_of(game: Game) -> list[int]:
    return [seat.user_id for seat in game.seats.all() if _seated(seat)]


def _seated(seat: Seat) -> bool:
    return seat.active and seat.number is not None and not seat.pending and seat.user_id is not None
