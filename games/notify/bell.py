"""The bell: who is told what, as notices made in the same transaction as the change they announce.

Each notice is a row (the bell lists them; the email outbox sends those marked for email, as each reader chose),
made at most once thanks to its unique key, and handed to every channel (channels.py). Nothing secret goes in:
only public events and the reader's own duties.
"""

from collections.abc import Callable
from datetime import datetime, time, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from games.engine import events as ev
from games.engine import waiting_for
from games.engine.events import LogEntry, from_stored
from games.models import Game, Notification, Profile

from .channels import channels, notify_notices
from .failures import Failures

if TYPE_CHECKING:
    from games.services.play import Change

EMAIL_NOW = {
    Notification.Kind.YOUR_MOVE: "email_moves",
    Notification.Kind.WARNING: "email_warnings",
    Notification.Kind.EXILED: "email_warnings",
    Notification.Kind.ABSENCE: "email_absences",
    Notification.Kind.GAME_OVER: "email_moves",  # the last news of the games whose moves the reader follows
    Notification.Kind.STARTED: "email_moves",  # and their first
    Notification.Kind.SEATED: "email_moves",  # the first news of a seat whose moves the reader is to make
    Notification.Kind.PROPOSAL: "email_moves",  # a vote the reader is asked for, as a move is, and its outcome
    Notification.Kind.REMOVED: "email_moves",  # the last news of a game they had joined
    Notification.Kind.REMATCH: "email_moves",  # an invitation to a game they may play next
}
EMAIL_DIGEST = {Notification.Kind.EVENT: "digest_events", Notification.Kind.MENTION: "digest_mentions"}
DIGEST_HOUR = 8  # the daily digest goes out at 08:00 in each reader's time zone
REMINDER_OFFSETS = (24, 3)  # hours before a deadline
REMINDER_NEWS_AFTER = timedelta(hours=1)  # a reminder due sooner after the step began says nothing new
REMINDER_CHOICES = {"none": (), "3": (3,), "24": (24,), "both": (24, 3)}


def notify_changes(changes: "list[Change]") -> None:
    """ "Your move" for whoever starts to owe a move, warnings and exiles (E7), and digest events; then every
    channel hears of the changes and of those notices (each in one query for the whole batch)."""
    pending = []
    for change in changes:
        pending += _your_moves(change) + _from_events(change)
    rows = _make(pending, now=changes[0].now, email=None) if pending else []
    for channel in channels():
        channel.changes(changes, rows)


def _your_moves(change: "Change") -> list[tuple]:
    game, state = change.game, change.state
    if state.over or game.paused_at is not None:
        return []
    owed = set(waiting_for(state))
    if state.step_number == change.step_before:
        owed -= change.owed_before  # a ballot does not make anyone newly owe anything
    offers = _claim_offers(change)
    notices = []
    for seat in sorted(owed):
        user_id = change.seat_of(state.seats[seat].name).user_id
        if user_id is not None:
            key = f"move:{game.pk}:{state.step_number}:{seat}:{user_id}"
            seat_data = owed_data(game, state, seat)
            if seat in offers:
                seat_data["claim"] = offers[seat]
            notices.append((user_id, game, Notification.Kind.YOUR_MOVE, seat_data, key))
    return notices


def owed_data(game: Game, state, seat: int) -> dict:
    """What `seat` owes in `game` now, as a "your move" notice's data says it (messages.owed words it): the step,
    the deadline, and under the execution vote (R23) whose execution the ballot is on, which is public."""
    data = {"step": str(state.step), "step_number": state.step_number, "round": state.round}
    if game.deadline is not None:
        data["deadline"] = game.deadline.isoformat()
    if state.execution_target is not None:
        data["target"] = state.name(state.execution_target)
        if seat == state.execution_target:
            data["own_execution"] = True
    return data


def _claim_offers(change: "Change") -> dict[int, dict]:
    """The members of the legislative session that ended in this change, by seat, with what each may claim:
    their "your move" says so. Who sat in a government is public; what they saw is not in here."""
    sessions = change.state.sessions
    ended = any(_ends_session(from_stored(event.type, event.data)) for event in change.events)
    if not ended or not sessions or not sessions[-1].over:
        return {}
    session = sessions[-1]
    return {
        session.president_seat: {"round": session.round, "office": "president"},
        session.chancellor_seat: {"round": session.round, "office": "chancellor"},
    }


def _ends_session(entry: LogEntry) -> bool:
    """R17/R19: a policy enacted by a government (not by chaos), or a veto accepted."""
    match entry:
        case ev.PolicyEnacted(chaos=chaos):
            return not chaos
        case ev.VetoAnswered(accepted=accepted):
            return accepted
    return False


def _from_events(change: "Change") -> list[tuple]:
    notices = []
    for event in change.events:
        notices += NOTICES[from_stored(event.type, event.data).__class__](change, event)
    return notices


def _personal(kind: Notification.Kind, change: "Change", event) -> list[tuple]:
    """To the player it is about (E7 warning, exile)."""
    user_id = change.seat_of(event.data["player"]).user_id
    return (
        [] if user_id is None else [(user_id, change.game, kind, event.data, f"{kind}:{change.game.pk}:{event.index}")]
    )


def _digest(change: "Change", event) -> list[tuple]:
    """To everyone seated: the news of their email digest."""
    data = {"event": event.type, **event.data}
    game = change.game
    return [
        (seat.user_id, game, Notification.Kind.EVENT, data, f"event:{game.pk}:{event.index}:{seat.user_id}")
        for seat in change.seats.values()
        if seat.user_id is not None and seat.number is not None
    ]


def _seated(change: "Change", event) -> list[tuple]:
    """To whoever takes over a seat (E5 substitute, E8 replacement): which seat, in place of whom. The seat's role
    is not in it: the newcomer reads it on their private panel."""
    seat = change.seat_of(event.data["player"])
    if seat.user_id is None:
        return []
    kind = Notification.Kind.SEATED
    data = {
        "seat": seat.number,
        "replaces": event.data["replaces"],
        "round": event.data["round"],
        # a newcomer who owes the step's move hears of the seat and of the move in one email
        "step_number": change.state.step_number,
    }
    return [(seat.user_id, change.game, kind, data, f"{kind}:{change.game.pk}:{event.index}")]


def _substituted(change: "Change", event) -> list[tuple]:
    """The substitute is told they hold the seat; everyone else seated reads of it in their digest."""
    seated = _seated(change, event)
    newcomer = {notice[0] for notice in seated}
    return seated + [notice for notice in _digest(change, event) if notice[0] not in newcomer]


def _started(change: "Change", event) -> list[tuple]:
    """A game that filled its lobby: everyone in it is told it began, once per game and person, the seated that
    their role is on their private panel, those waiting for a seat that they wait; and the digest's news. An
    imported game has no lobby: it was under way elsewhere, and its players hear of it by their moves."""
    game = change.game
    if game.lobby_closes_at is None:
        return _digest(change, event)
    kind, notices = Notification.Kind.STARTED, []
    for seat in change.seats.values():
        if seat.user_id is not None and (seat.number is not None or seat.is_substitute):
            # with the step's number: the president's email tells of the start and of their move at once
            data = {"step_number": change.state.step_number, "waiting": seat.number is None}
            notices.append((seat.user_id, game, kind, data, f"{kind}:{game.pk}:{seat.user_id}"))
    return notices + _digest(change, event)


def _nothing(change: "Change", event) -> list[tuple]:
    return []


def _game_over(change: "Change", event) -> list[tuple]:
    """The result, to everyone who held a seat: the living, the dead, the exiled and the replaced; not those who
    waited for one. Once per game and person, whatever delivers the change again."""
    data = {"event": event.type, **event.data}
    kind = Notification.Kind.GAME_OVER
    players = {seat.user_id for seat in change.seats.values() if seat.number is not None and not seat.pending}
    return [(u, change.game, kind, data, f"{kind}:{change.game.pk}:{u}") for u in sorted(players - {None})]


NOTICES: dict[type, Callable[["Change", Any], list[tuple]]] = {
    ev.GameStarted: _started,
    ev.RoundStarted: _nothing,
    ev.CandidacyLost: _nothing,
    ev.Nominated: _nothing,
    ev.VoteClosed: _digest,
    ev.TrackerAdvanced: _nothing,
    ev.TrackerReset: _nothing,
    ev.Chaos: _nothing,
    ev.PolicyEnacted: _digest,
    ev.DeckReshuffled: _nothing,
    ev.ConfirmedNotHitler: _nothing,
    ev.LegislativeSessionStarted: _nothing,
    ev.PresidentDiscarded: _nothing,
    ev.VetoRequested: _nothing,
    ev.VetoAnswered: _nothing,
    ev.PowerGranted: _nothing,
    ev.PowerForfeited: _nothing,
    ev.PolicyPeeked: _digest,
    ev.Investigated: _digest,
    ev.SpecialElection: _digest,
    ev.ExecutionProposed: _nothing,
    ev.ExecutionVoteClosed: _nothing,
    ev.Executed: _digest,
    ev.DeadlinePassed: _nothing,
    ev.RoundMissed: _nothing,
    ev.Warned: partial(_personal, Notification.Kind.WARNING),
    ev.Exiled: partial(_personal, Notification.Kind.EXILED),
    ev.Substituted: _substituted,
    ev.Replaced: _seated,
    ev.SubstituteJoined: _nothing,
    ev.SubstituteWithdrawn: _nothing,
    ev.AbsenceStarted: _nothing,
    ev.AbsenceEnded: _nothing,
    ev.Excused: _nothing,
    ev.ExileScheduled: _nothing,
    ev.ReplacementScheduled: _nothing,
    ev.ReplacementWithdrawn: _nothing,
    ev.GameOver: _game_over,
    ev.ModeratorAction: _nothing,
}
"""What each kind of the log sends as notices: to the player it is about, to whoever takes over a seat, to everyone
seated (the digest's news), the result to everyone who held a seat, or nothing. A test checks that every kind is
here."""


def notify_mentions(game: Game, post_id: int, author, user_ids: list[int], now: datetime) -> None:
    data = {"post": post_id, "by": author.get_username()}
    kind = Notification.Kind.MENTION
    _create([(u, game, kind, data, f"mention:{post_id}:{u}") for u in user_ids if u != author.pk], now=now)


def notify_absence(absence, now: datetime) -> None:
    seat = absence.seat
    data = {"starts_at": absence.starts_at.isoformat(), "ends_at": absence.ends_at.isoformat()}
    _create([(seat.user_id, seat.game, Notification.Kind.ABSENCE, data, f"absence:{absence.pk}")], now=now)


def notify_removed(game: Game, seat, by: str, now: datetime) -> None:
    """`seat`'s holder was taken off the open game's sign-ups by `by` (its creator or a moderator)."""
    data = {"by": by}
    _create([(seat.user_id, game, Notification.Kind.REMOVED, data, f"removed:{seat.pk}")], now=now)


def notify_settings_changed(game: Game, user_ids: list[int], changed: list[str], now: datetime) -> None:
    """The open game's settings named in `changed` were changed: whoever signed up under the old ones is told."""
    data = {"changed": changed}
    stamp = now.isoformat()
    _create([(u, game, Notification.Kind.SETTINGS, data, f"settings:{game.pk}:{stamp}:{u}") for u in user_ids], now=now)


def notify_proposal(proposal, user_ids: list[int], now: datetime) -> None:
    """A proposal of the table, made or closed (its outcome), to each of `user_ids`: once per proposal, outcome and
    person."""
    data = {
        "proposal": proposal.pk,
        "kind": proposal.kind,
        "by": proposal.proposer.name,
        "outcome": proposal.outcome,
        **({"hours": proposal.hours} if proposal.hours else {}),
        **({"until": proposal.until.isoformat()} if proposal.until else {}),
        **({"reason": proposal.reason} if proposal.reason else {}),
    }
    kind, stage = Notification.Kind.PROPOSAL, proposal.outcome or "made"
    _create([(u, proposal.game, kind, data, f"{kind}:{proposal.pk}:{stage}:{u}") for u in user_ids], now=now)


def notify_rematch(rematch: Game, finished: Game, inviter, user_ids: list[int], now: datetime) -> None:
    """An invitation to the rematch's lobby, to each of `user_ids` once (the inviter is in it already): they join it
    or not, as they choose."""
    data = {"by": inviter.get_username(), "finished": finished.name}
    kind = Notification.Kind.REMATCH
    pending = [(u, rematch, kind, data, f"{kind}:{rematch.pk}:{u}") for u in set(user_ids) if u != inviter.pk]
    _create(sorted(pending, key=lambda notice: notice[0]), now=now)


def queue_reminders(*, now: datetime | None = None, failures: Failures | None = None) -> int:
    """Reminders to each player who still owes a move, 24 and 3 hours before the deadline (as each chose).

    At most one per user, deadline and offset (the key holds the deadline, so a moved deadline is re-armed);
    when both offsets have already passed, only the nearer one is sent. Returns how many are due now
    (those made by an earlier sweep are not made again). A game whose state cannot be read is counted among
    the run's failures, alone: the other games get their reminders.
    """
    now = now or timezone.now()
    failures = Failures() if failures is None else failures
    horizon = now + timedelta(hours=max(REMINDER_OFFSETS))
    games = Game.objects.filter(
        status=Game.Status.RUNNING, paused_at=None, deadline__gt=now, deadline__lte=horizon
    ).prefetch_related("seats")
    owing: list[tuple[int, Game, datetime]] = []
    for game in games:
        try:
            owing += _owing_reminders(game)
        except Exception as error:
            failures.add(f"the reminders of game {game.pk}", error)
    preferences = {
        user_id: (reminders, email_moves)
        for user_id, reminders, email_moves in Profile.objects.filter(user_id__in={u for u, _, _ in owing}).values_list(
            "user_id", "reminders", "email_moves"
        )
    }
    pending = []
    for user_id, game, deadline in owing:
        reminders, email_moves = preferences.get(user_id, ("both", True))
        due = [hours for hours in REMINDER_CHOICES[reminders] if deadline - now <= timedelta(hours=hours)]
        if due:
            hours = min(due)  # both passed: only the nearer one
            if email_moves and _says_nothing_new(game, deadline - timedelta(hours=hours)):
                continue
            data = {"deadline": deadline.isoformat(), "hours": hours, "step_number": game.step_number}
            key = f"reminder:{game.pk}:{deadline.isoformat()}:{hours}:{user_id}"
            pending.append((user_id, game, Notification.Kind.REMINDER, data, key))
    return _create(pending, now=now, email=True)


def _owing_reminders(game: Game) -> list[tuple[int, Game, datetime]]:
    """(user id, game, deadline) for each player of the game who owes a move now."""
    state = game.load_state()
    holders = {seat.number: seat.user_id for seat in game.seats.all() if seat.active and seat.number is not None}
    return [(holders[s], game, game.deadline) for s in waiting_for(state) if holders.get(s) is not None]


def _says_nothing_new(game: Game, moment: datetime) -> bool:
    """A reminder that falls within the hour the step began repeats its "your move" email (a 24-hour step's
    24-hour reminder): it is not sent to whoever gets those."""
    return game.step_started_at is not None and moment - game.step_started_at < REMINDER_NEWS_AFTER


def _create(pending: list[tuple], *, now: datetime | None = None, email: bool | None = None) -> int:
    now = now or timezone.now()
    rows = _make(pending, now=now, email=email)
    notify_notices(rows, now)  # a notice made twice is one delivery: its key is the notice's
    return len(rows)


def _make(pending: list[tuple], *, now: datetime, email: bool | None) -> list[Notification]:
    """The notification rows (each at most once: its key is unique); returns the rows asked for."""
    profiles = {p.user_id: p for p in Profile.objects.filter(user_id__in={item[0] for item in pending})}
    rows = []
    for user_id, game, kind, data, key in pending:
        profile = profiles.get(user_id) or Profile(user_id=user_id)
        row = Notification(user_id=user_id, game=game, kind=kind, data=data, key=key, created_at=now)
        if email or (kind in EMAIL_NOW and getattr(profile, EMAIL_NOW[kind])):
            row.email, row.email_due_at = Notification.Email.PENDING, now
        elif kind in EMAIL_DIGEST and getattr(profile, EMAIL_DIGEST[kind]):
            row.email, row.email_due_at = Notification.Email.PENDING, next_digest(now, profile.time_zone)
        elif kind == Notification.Kind.EVENT:
            continue  # game events go to those who asked for the digest only
        rows.append(row)
    return Notification.objects.bulk_create(rows, ignore_conflicts=True)


def notify_webhook_disabled(subscription, now: datetime) -> None:
    """A subscription's URL failed for a day: its owner is told, by email too."""
    data = {"url": subscription.url[:200], "kind": subscription.kind}
    key = f"webhook:{subscription.pk}:{now.isoformat()}"
    _create([(subscription.owner_id, subscription.game, Notification.Kind.WEBHOOK, data, key)], now=now, email=True)


def next_digest(now: datetime, zone: str) -> datetime:
    local = now.astimezone(ZoneInfo(zone))
    moment = datetime.combine(local.date(), time(DIGEST_HOUR), tzinfo=local.tzinfo)
    return moment if moment > local else moment + timedelta(days=1)
