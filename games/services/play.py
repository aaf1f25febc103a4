"""Applying moves to a stored game: the engine in memory, then the rows it changes, written in bulk.

Call everything here while holding the game row's lock (select_for_update) inside transaction.atomic().
Several games can be changed in one go (the deadline sweep); their writes are batched by `persist`.
"""

import contextlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from games.clock import compute_deadline
from games.engine import GameState, IllegalAction, Step, apply, waiting_for
from games.engine import events as ev
from games.engine.events import LogEntry, ModeratorAction, to_data
from games.engine.notation import BadShape, check_shape, to_action
from games.models import ActionRecord, Game, GameEvent, Seat, sql
from games.models.game import PLAYED_FIELDS
from games.notify import notify_changes
from games.signals import game_changed, newcomer_dropped

from . import ratings, results
from .errors import GameError
from .knowledge import user_ids_knowing


@dataclass
class Change:
    """One game's state being changed, and the rows to write for it."""

    game: Game
    state: GameState
    # Every seat row of the game, by the name the engine knows its person by (Seat.name): the user name they had
    # when they joined, kept when the account is renamed. A person is found by their account (`seat_held_by`).
    seats: dict[str, Seat]
    now: datetime
    events: list[GameEvent] = field(default_factory=list)
    records: list[ActionRecord] = field(default_factory=list)
    changed_seats: list[Seat] = field(default_factory=list)
    missed: Counter = field(default_factory=Counter)  # seat id -> rounds missed in this change
    owed_before: set[int] = field(default_factory=set)  # the seats that owed a move when the change began
    step_before: int = -1
    finished: bool = False  # the game row is up to date with the state (finish)
    ended: bool = False  # the game ended in this change: its result is written, its ratings move (persist)
    ghosts: list[str] = field(default_factory=list)  # substitutes whose account is gone, seated meanwhile
    forgotten: list[Seat] = field(default_factory=list)  # rows of people no longer waiting for a seat
    dropped: list[Seat] = field(default_factory=list)  # waiting for a seat, dropped for having seen the secrets
    # The accounts of people new to the game in this change, by the name the engine is to know them by: found by
    # whoever named them (a moderator naming a replacement, a script's import), never looked up again by name.
    newcomers: dict[str, object] = field(default_factory=dict)

    def seat_of(self, name: str) -> Seat:
        """The row of the person the engine calls `name`."""
        return self.seats[name]

    def seat_held_by(self, user) -> Seat | None:
        """The user's row in this game, found by their account, whatever their user name is now."""
        return next((seat for seat in self.seats.values() if seat.user_id == user.pk), None)


def begin(game: Game, now: datetime, seats: list[Seat] | None = None) -> Change:
    """Start changing a running game (its row locked by the caller)."""
    if seats is None:
        seats = sql.seats(game)
    state = game.load_state()
    change = Change(game, state, {seat.name: seat for seat in seats}, now)
    change.owed_before, change.step_before = set(waiting_for(state)), state.step_number
    _drop_newcomers_who_know(change)
    return change


def _drop_newcomers_who_know(change: Change) -> None:
    """Nobody who has seen the secrets takes a seat. The views refuse the secrets to those waiting for one, and
    nobody who has seen them can sign up or be named; should one have got them anyway (a race between a
    moderator naming them and their opening the moderation page), they are dropped before any move can hand
    them a seat, and the moderators are told."""
    state = change.state
    waiting = state.substitutes + [entry.name for entry in state.pending if entry.kind == "replace"]
    if not waiting:
        return
    rows = [change.seats[name] for name in waiting if name in change.seats]  # each waits in a row of their own
    knowing = user_ids_knowing(change.game, [seat.user_id for seat in rows if seat.user_id is not None])
    for seat in rows:
        if seat.user_id in knowing:
            try:
                play(change, {"type": "withdraw", "name": seat.name}, ActionRecord.Source.SYSTEM)
            except GameError:  # only once the game is over: never let it fail the move that follows
                continue
            change.dropped.append(seat)  # the moderators are told once the change is written (announce)


def begin_new_game(game: Game, state: GameState, seats: list[Seat], now: datetime) -> Change:
    """A Change for a game whose engine state was just set up: its first events are recorded."""
    game.round_started_at = game.session_started_at = game.step_started_at = now
    change = Change(game, state, {seat.name: seat for seat in seats}, now)
    for event in state.events:
        _record_event(change, event)
    return change


def apply_or_refuse(state: GameState, action: dict) -> list[ev.Event]:
    """Apply a replay script action to `state` and return its public events, or raise GameError with the
    rules' own message."""
    try:
        check_shape(action)
        return apply(state, to_action(state, action))
    except IllegalAction as error:
        raise GameError(gettext(error.template) % error.params, code=error.code) from None
    except BadShape as error:
        raise GameError(str(error), code="invalid_move") from None


def play(change: Change, action: dict, source: str, actor=None) -> list[ev.Event]:
    """Apply one move, written as a replay script action (names, not seats), and record it.

    Raises GameError with the rules' own message when the move is illegal; nothing changes then.
    """
    state = change.state
    round_before, step_before = state.round, state.step_number
    events = apply_or_refuse(state, action)
    game = change.game
    change.records.append(
        ActionRecord(
            game=game,
            index=game.action_count,
            action=action,
            source=source,
            actor=actor,
            actor_name=actor.get_username() if actor is not None else "",
            created_at=change.now,
        )
    )
    game.action_count += 1
    if state.round != round_before:
        game.round_started_at = change.now
    if state.step_number != step_before:
        game.step_started_at = change.now
        if state.step == Step.DISCARD:
            game.session_started_at = change.now
    for event in events:
        _record_event(change, event)
    while change.ghosts:
        with contextlib.suppress(GameError):  # already scheduled, or the seat left play meanwhile
            play(change, {"type": "exile", "player": change.ghosts.pop()}, ActionRecord.Source.SYSTEM)
    return events


def record_announcement(change: Change, entry: ModeratorAction) -> None:
    """A public entry of the thread's log that no move emits (a moderator's intervention), in its place among
    the events of the change: before the outcome it causes."""
    _record_event(change, entry)


def _record_event(change: Change, event: LogEntry) -> None:
    game = change.game
    change.events.append(
        GameEvent(
            game=game,
            index=game.event_count,
            step_number=change.state.step_number,
            type=event.type,
            data=to_data(event),
            created_at=change.now,
        )
    )
    game.event_count += 1
    reaction = _REACTIONS.get(event.__class__)
    if reaction is not None:
        reaction(change, event)


def _round_missed(change: Change, event: ev.RoundMissed) -> None:
    change.missed[change.seat_of(event.player).pk] += 1  # E6: the participation record


def _exiled(change: Change, event: ev.Exiled) -> None:
    seat = change.seat_of(event.player)
    seat.active = False
    if seat.user_id is None:
        seat.exile_reason = "account_deleted"  # no exiled_at: the account is gone, nobody's record to mark
    else:
        seat.exiled_at = change.now
        seat.exile_reason = event.reason
    change.changed_seats.append(seat)


def _substitute_joined(change: Change, event: ev.SubstituteJoined) -> None:
    if event.player not in change.seats:  # a script's substitute (import_replay) has no row yet
        seat = _new_seat(change, event.player, number=None, is_substitute=True)
        change.changed_seats.append(seat)


def _substituted(change: Change, event: ev.Substituted) -> None:
    old = change.seat_of(event.replaces)
    seat = change.seat_of(event.player)
    seat.number = old.number
    seat.active = True
    change.changed_seats.append(seat)
    if seat.user_id is None:
        change.ghosts.append(seat.name)  # the account is gone: the seat is handed on at the round's end


def _replacement_scheduled(change: Change, event: ev.ReplacementScheduled) -> None:
    """The person named is in the game from now on (they may not moderate it), though not seated yet."""
    state = change.state
    name = next(
        entry.name
        for entry in state.pending
        if entry.kind == "replace" and state.seats[entry.seat].name == event.player
    )
    seat = change.seats.get(name) or _new_seat(change, name, number=None)
    seat.active, seat.pending = False, True
    change.changed_seats.append(seat)


def _replaced(change: Change, event: ev.Replaced) -> None:
    old = change.seat_of(event.replaces)
    old.active = False
    old.replaced_at = change.now
    change.changed_seats.append(old)
    seat = change.seat_of(event.player)  # in the game since the replacement was scheduled
    seat.number = old.number
    seat.active, seat.pending = True, False
    change.changed_seats.append(seat)


def _new_seat(change: Change, name: str, *, number: int | None, is_substitute: bool = False) -> Seat:
    user = change.newcomers[name]
    seat = Seat(game=change.game, user=user, name=name, number=number, is_substitute=is_substitute)
    change.seats[name] = seat
    return seat


_REACTIONS = {
    ev.RoundMissed: _round_missed,
    ev.Exiled: _exiled,
    ev.SubstituteJoined: _substitute_joined,
    ev.Substituted: _substituted,
    ev.Replaced: _replaced,
    ev.ReplacementScheduled: _replacement_scheduled,
}


def finish(change: Change) -> None:
    """Bring the game row up to date with its engine state: step number, deadline, result."""
    game, state = change.game, change.state
    game.step_number = state.step_number
    if state.over:
        if game.status not in (Game.Status.FINISHED, Game.Status.CANCELLED):  # it ends with this change
            change.changed_seats += results.record(game, state, change.seats.values(), change.events)
            change.ended = True
        game.status = Game.Status.CANCELLED if state.cancelled else Game.Status.FINISHED
        game.winner = state.winner or ""
        game.win_reason = state.win_reason
        game.finished_at = change.now
    game.deadline = compute_deadline(game, state)
    game.waiting = list(waiting_for(state))
    _forget_who_no_longer_waits(change)
    game.store_state(state)  # without its event log, which lives in GameEvent rows
    change.finished = True


def _forget_who_no_longer_waits(change: Change) -> None:
    """A substitute who withdrew, or a person named to take a seat whose replacement was called off or dropped
    (the seat left play first), is no longer in the game: their row goes. A substitute named to take a seat
    whose replacement was dropped had not withdrawn: they wait again instead."""
    state = change.state
    awaited = set(state.substitutes) | {entry.name for entry in state.pending if entry.kind == "replace"}
    for seat in list(change.seats.values()):
        waits = seat.pending or (seat.is_substitute and seat.active and seat.number is None)
        if waits and seat.name not in awaited and not _waits_again(change, seat):
            change.forgotten.append(seat)
    if change.forgotten:
        change.changed_seats = [seat for seat in change.changed_seats if seat not in change.forgotten]
        for seat in change.forgotten:
            del change.seats[seat.name]


def _waits_again(change: Change, seat: Seat) -> bool:
    """E5/E8: a substitute a moderator named to take a seat that left play before the round's end signs up again
    (at the end of the list), unless they withdrew in this change or the game is over."""
    withdrew = {"type": "withdraw", "name": seat.name}
    if not (seat.pending and seat.is_substitute) or change.state.over:
        return False
    if any(record.action == withdrew for record in change.records):
        return False
    play(change, {"type": "substitute", "name": seat.name}, ActionRecord.Source.SYSTEM)
    seat.active, seat.pending = True, False
    change.changed_seats.append(seat)
    return True


def persist(changes: list[Change]) -> None:
    """Write every change: a constant number of queries per batch, plus one per seat that changed hands."""
    for change in changes:
        if not change.finished:
            finish(change)
    _save_games([c.game for c in changes])
    GameEvent.objects.bulk_create([event for c in changes for event in c.events])
    ActionRecord.objects.bulk_create([record for c in changes for record in c.records])
    for change in changes:
        _save_seats(change.changed_seats)
    forgotten = [seat.pk for change in changes for seat in change.forgotten if seat.pk is not None]
    if forgotten:
        Seat.objects.filter(pk__in=forgotten).delete()
    by_amount: dict[int, list[int]] = {}
    for change in changes:
        for seat_id, amount in change.missed.items():
            by_amount.setdefault(amount, []).append(seat_id)
    for amount, seat_ids in by_amount.items():
        Seat.objects.filter(pk__in=seat_ids).update(rounds_missed=F("rounds_missed") + amount)
    ratings.rate_ended([change.game for change in changes if change.ended])
    notify_changes(changes)  # every channel, in this transaction


def _save_games(games: list[Game]) -> None:
    """Every game's played fields: a sweep's batch together, in one round trip."""
    if len(games) == 1:
        games[0].save(update_fields=PLAYED_FIELDS)
    elif games:
        sql.save_played(games)


def _save_seats(seats: list[Seat]) -> None:
    # A seat's holder is released before its new holder takes it: the one-active-holder constraint is
    # checked row by row.
    unique = list({id(seat): seat for seat in seats}.values())
    for seat in sorted(unique, key=lambda s: s.active):
        seat.save()


def lock_game(game_id: int) -> Game:
    """The game row, locked until the transaction ends (call inside one); GameError when there is none."""
    game = sql.game(game_id, lock=True)
    if game is None:
        raise GameError(_("There is no such game."), code="no_such_game")
    return game


@contextmanager
def changing(game_id: int, *, now: datetime | None = None, running: bool = True) -> Iterator[Change]:
    """Lock the game row, yield its Change, then write it and announce it after commit.

    An exception inside the block rolls everything back: nothing of a refused move is kept.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if running and game.status != Game.Status.RUNNING:
            raise GameError(_("This game is not running."), code="game_not_running")
        change = begin(game, now or timezone.now())
        yield change
        persist([change])
        announce([change])


def announce(changes: list[Change]) -> None:
    """After commit, tell whoever listens (the live thread, the moderators) what happened in each game. (The
    channels heard of it in `persist`.)"""
    for change in changes:
        for seat in change.dropped:
            transaction.on_commit(
                lambda g=change.game.pk, n=seat.name, u=seat.user_id: newcomer_dropped.send(
                    sender=Game, game_id=g, name=n, user_id=u
                )
            )
        if change.events:
            game_id, step_number = change.game.pk, change.game.step_number
            events = [{"type": event.type, **event.data} for event in change.events]
            transaction.on_commit(
                lambda g=game_id, s=step_number, e=events: game_changed.send(
                    sender=Game, game_id=g, step_number=s, events=e
                )
            )
