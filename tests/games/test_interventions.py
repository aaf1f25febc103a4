"""Moderators' interventions (T5, E8) through the service layer, and what they leave in the log."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from games.models import ActionRecord, Game, Seat
from games.services import (
    GameError,
    cancel,
    end_now,
    excuse,
    exile,
    extend,
    join_game,
    lock_thread,
    make_move,
    pause,
    replace,
    resume,
    sweep_due_deadlines,
    unlock_thread,
)
from games.services.transfer import export_script
from tests.factories import EXECUTED, START, make_user, running_game

from .helpers import reload, state_of, user

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


@pytest.fixture
def moderator():
    return make_user("mod")


def test_t5_end_now_applies_the_outcome_at_once(moderator):
    game = running_game()
    end_now(game.pk, moderator, now=START + HOUR)
    s = state_of(game)
    assert (s["round"], s["president"], s["missed"]["ann"]) == (2, "bob", 1)
    record = ActionRecord.objects.filter(game=game).last()
    assert (record.source, record.actor_name) == (ActionRecord.Source.MODERATOR, "mod")
    assert reload(game).deadline == START + 49 * HOUR


def test_t5_resume_without_a_pause_changes_nothing(moderator):
    game = running_game()
    assert resume(game.pk, moderator) is False
    assert reload(game).deadline == START + 48 * HOUR


def test_e8_excuse_keeps_the_count(moderator):
    game = running_game()
    excuse(game.pk, moderator, "ann", now=START + HOUR)
    sweep_due_deadlines(now=START + 48 * HOUR)
    assert state_of(game)["missed"]["ann"] == 0


def test_e8_exile_at_the_end_of_the_round_recorded_against_the_player(moderator):
    game = running_game()
    exile(game.pk, moderator, "dan", now=START + HOUR)
    assert Seat.objects.get(game=game, user__username="dan").active
    end_now(game.pk, moderator, now=START + 2 * HOUR)
    seat = Seat.objects.get(game=game, user__username="dan")
    assert (seat.active, seat.exile_reason) == (False, "moderator")
    assert state_of(game)["exiled"] == ["dan"]


def test_e8_replace_hands_the_seat_over_held_against_nobody(moderator):
    game = running_game()
    make_user("zoe")
    replace(game.pk, moderator, "cat", "zoe", now=START + HOUR)
    end_now(game.pk, moderator, now=START + 2 * HOUR)
    old = Seat.objects.get(game=game, user__username="cat")
    new = Seat.objects.get(game=game, user__username="zoe")
    assert (old.active, old.exiled_at, old.replaced_at) == (False, None, START + 2 * HOUR)
    assert (new.active, new.number) == (True, 2)
    assert state_of(game)["alive"] == ["ann", "bob", "zoe", "dan", "eve"]
    assert {"type": "replace", "player": "cat", "name": "zoe"} in export_script(reload(game))["actions"]


def test_e8_replace_needs_an_account_not_already_in_the_game(moderator):
    game = running_game()
    with pytest.raises(GameError, match="no account named"):
        replace(game.pk, moderator, "cat", "nobody")
    with pytest.raises(GameError, match="bob is already in this game"):
        replace(game.pk, moderator, "cat", "bob")


def waiting_substitute(game: Game, name: str = "zed") -> Seat:
    join_game(game.pk, make_user(name), as_substitute=True, now=START)
    return Seat.objects.get(game=game, user__username=name)


def test_e8_e5_the_waiting_substitute_named_to_replace_takes_the_seat_in_her_own_row_held_against_nobody(moderator):
    game = running_game()
    row = waiting_substitute(game)
    assert replace(game.pk, moderator, "dan", "zed", now=START + HOUR) is True
    assert replace(game.pk, moderator, "dan", "zed", now=START + HOUR) is False  # a repeated click
    end_now(game.pk, moderator, now=START + 2 * HOUR)
    old = Seat.objects.get(game=game, user__username="dan")
    assert (old.active, old.exiled_at, old.exile_reason, old.replaced_at) == (False, None, "", START + 2 * HOUR)
    [new] = Seat.objects.filter(game=game, user__username="zed")  # one membership: her substitute row
    assert (new.pk, new.number, new.active, new.pending) == (row.pk, 3, True, False)
    s = state_of(game)
    assert (s["alive"], s["exiled"]) == (["ann", "bob", "cat", "zed", "eve"], [])
    assert reload(game).load_state().substitutes == []


def test_e8_e5_a_substitute_named_to_replace_no_longer_waits_for_the_next_exile(moderator):
    game = running_game()
    waiting_substitute(game)
    exile(game.pk, moderator, "eve", now=START + HOUR)
    replace(game.pk, moderator, "dan", "zed", now=START + HOUR)
    end_now(game.pk, moderator, now=START + 2 * HOUR)
    s = state_of(game)
    assert (s["alive"], s["exiled"]) == (["ann", "bob", "cat", "zed"], ["eve"])  # eve's seat left play


def test_e8_a_renamed_substitute_named_to_replace_keeps_the_name_they_joined_with(moderator):
    game = running_game()
    row = waiting_substitute(game)
    row.user.username = "zora"
    row.user.save()
    replace(game.pk, moderator, "dan", "zora", now=START + HOUR)
    assert replace(game.pk, moderator, "dan", "zora", now=START + HOUR) is False
    end_now(game.pk, moderator, now=START + 2 * HOUR)
    assert state_of(game)["alive"] == ["ann", "bob", "cat", "zed", "eve"]
    assert Seat.objects.get(pk=row.pk).number == 3


def test_e8_a_refused_replacement_by_a_substitute_leaves_her_waiting(moderator):
    game = running_game()
    row = waiting_substitute(game)
    exile(game.pk, moderator, "dan", now=START + HOUR)
    with pytest.raises(GameError, match="dan already has an exile or replacement waiting"):
        replace(game.pk, moderator, "dan", "zed", now=START + HOUR)
    assert reload(game).load_state().substitutes == ["zed"]
    assert Seat.objects.filter(pk=row.pk, active=True, pending=False, number=None).exists()


def test_e8_e5_a_substitute_named_for_a_seat_that_leaves_play_first_waits_again(moderator):
    game = running_game(actions=EXECUTED[:-1])  # dan, president, is to execute someone
    row = waiting_substitute(game)
    replace(game.pk, moderator, "eve", "zed", now=START + HOUR)
    make_move(game.pk, user("dan"), {"type": "execute", "target": "eve"}, reload(game).step_number, now=START + HOUR)
    s = reload(game).load_state()
    assert (s.round, s.substitutes, state_of(game)["dead"]) == (5, ["zed"], ["eve"])
    row = Seat.objects.get(pk=row.pk)
    assert (row.number, row.active, row.pending) == (None, True, False)
    assert export_script(reload(game))["actions"][-1] == {"type": "substitute", "name": "zed"}  # it replays so


def test_e8_cancel_ends_the_game_with_no_winner(moderator):
    game = running_game()
    cancel(game.pk, moderator, now=START + HOUR)
    game = reload(game)
    assert (game.status, game.winner, game.win_reason, game.deadline) == (Game.Status.CANCELLED, "", "cancelled", None)
    with pytest.raises(GameError, match="not running"):
        end_now(game.pk, moderator)


def test_interventions_on_a_missing_game(moderator):
    with pytest.raises(GameError, match="no such game"):
        end_now(12345, moderator)


# T5: pausing gives back every hour paused, with or without a deadline hour, across a daylight-saving change.


def hour_game(start, zone: str = "UTC") -> Game:
    """A running game whose deadlines move to 23:00 in `zone`, its nomination started at `start`."""
    from games.services.transfer import import_script
    from tests.factories import script

    return import_script(script(), now=start, deadline_hour=23, time_zone=zone)


def test_t5_resume_gives_back_the_time_paused_without_a_deadline_hour(moderator):
    game = running_game()
    pause(game.pk, moderator, now=START + 38 * HOUR)  # 10 h left
    resume(game.pk, moderator, now=START + 68 * HOUR)  # 30 h later
    assert reload(game).deadline == START + 78 * HOUR


@pytest.mark.parametrize("paused_hours", [2, 30])
def test_t5_resume_with_a_deadline_hour_leaves_at_least_the_time_left(moderator, paused_hours):
    game = hour_game(START)  # nomination due 48 h later, moved to 23:00 UTC: 2026-03-04 23:00
    deadline = reload(game).deadline
    assert deadline == datetime(2026, 3, 4, 23, tzinfo=UTC)
    paused_at = deadline - 10 * HOUR
    pause(game.pk, moderator, now=paused_at)
    resumed_at = paused_at + paused_hours * HOUR
    resume(game.pk, moderator, now=resumed_at)
    after = reload(game).deadline
    assert after >= resumed_at + 10 * HOUR  # the 10 hours left at the pause, given back in full
    assert after - deadline >= paused_hours * HOUR
    assert (after.astimezone(UTC).hour, after - (resumed_at + 10 * HOUR) < 24 * HOUR) == (23, True)


def test_t5_resume_across_a_daylight_saving_change_keeps_the_local_hour(moderator):
    zone = ZoneInfo("Europe/Madrid")  # clocks go forward on 2026-03-29 at 02:00
    start = datetime(2026, 3, 26, 20, tzinfo=zone)
    game = hour_game(start, "Europe/Madrid")
    deadline = reload(game).deadline
    assert deadline.astimezone(zone) == datetime(2026, 3, 28, 23, tzinfo=zone)
    pause(game.pk, moderator, now=deadline - 5 * HOUR)
    resume(game.pk, moderator, now=deadline + 20 * HOUR)  # paused 25 h, across the change
    after = reload(game).deadline
    assert after >= deadline + 25 * HOUR
    assert after.astimezone(zone) == datetime(2026, 3, 30, 23, tzinfo=zone)


def test_t5_extend_with_a_deadline_hour_moves_on_by_at_least_the_hours(moderator):
    game = hour_game(START)
    deadline = reload(game).deadline
    moved = extend(game.pk, moderator, hours=3, now=START)
    assert reload(game).deadline == moved == deadline + 24 * HOUR  # 23:00 + 3 h is next day's 23:00


def test_t5_extend_while_paused_comes_back_on_resume(moderator):
    game = running_game()
    pause(game.pk, moderator, now=START + HOUR)
    assert extend(game.pk, moderator, hours=5, now=START + 2 * HOUR) is None  # no deadline while paused
    resume(game.pk, moderator, now=START + 3 * HOUR)
    assert reload(game).deadline == START + (48 + 2 + 5) * HOUR


def test_t5_extensions_never_put_the_deadline_more_than_90_days_ahead(moderator):
    game = running_game()  # the deadline: START + 48 h
    extend(game.pk, moderator, hours=720, now=START)
    extend(game.pk, moderator, hours=720, now=START)
    deadline = reload(game).deadline
    assert deadline == START + (48 + 1440) * HOUR
    with pytest.raises(GameError, match="at most 90 days from now: nothing was done") as refusal:
        extend(game.pk, moderator, hours=720, now=START)
    assert refusal.value.code == "deadline_too_far" and reload(game).deadline == deadline
    extend(game.pk, moderator, hours=720, now=START + 30 * 24 * HOUR)  # a month on, there is room again


def test_t5_extensions_while_paused_are_bounded_by_the_deadline_on_resume(moderator):
    game = running_game()
    pause(game.pk, moderator, now=START)
    for _ in range(2):
        extend(game.pk, moderator, hours=720, now=START + HOUR)
    with pytest.raises(GameError, match="at most 90 days from now"):
        extend(game.pk, moderator, hours=720, now=START + HOUR)
    resume(game.pk, moderator, now=START + HOUR)
    assert reload(game).deadline == START + (48 + 1440 + 1) * HOUR


# Every verb is tied to the step of the page it came from, and a repeated click changes nothing.


def test_t5_a_stale_end_now_or_extend_changes_nothing(moderator):
    game = running_game()
    step = reload(game).step_number
    end_now(game.pk, moderator, step=step, now=START + HOUR)  # the first click: the nomination times out
    before = (reload(game).deadline, reload(game).action_count, state_of(game))
    for stale in (
        lambda: end_now(game.pk, moderator, step=step, now=START + 2 * HOUR),  # the double click
        lambda: extend(game.pk, moderator, hours=24, step=step, now=START + 2 * HOUR),
        lambda: excuse(game.pk, moderator, "bob", step=step, now=START + 2 * HOUR),
        lambda: pause(game.pk, moderator, step=step, now=START + 2 * HOUR),
    ):
        with pytest.raises(GameError, match="moved on since this page was loaded"):
            stale()
    assert (reload(game).deadline, reload(game).action_count, state_of(game)) == before


def test_repeated_verbs_change_nothing_the_second_time(moderator):
    game = running_game()
    assert pause(game.pk, moderator, now=START + HOUR) is True
    assert pause(game.pk, moderator, now=START + 2 * HOUR) is False
    assert reload(game).paused_at == START + HOUR
    assert resume(game.pk, moderator, now=START + 3 * HOUR) is True
    assert excuse(game.pk, moderator, "ann", now=START + 3 * HOUR) is True
    assert excuse(game.pk, moderator, "ann", now=START + 3 * HOUR) is False
    assert exile(game.pk, moderator, "dan", now=START + 3 * HOUR) is True
    assert exile(game.pk, moderator, "dan", now=START + 3 * HOUR) is False
    make_user("zoe")
    assert replace(game.pk, moderator, "cat", "zoe", now=START + 3 * HOUR) is True
    assert replace(game.pk, moderator, "cat", "zoe", now=START + 3 * HOUR) is False
    kinds = list(reload(game).events.values_list("type", flat=True))
    assert (kinds.count("excused"), kinds.count("exile_scheduled"), kinds.count("replacement_scheduled")) == (1, 1, 1)


def test_t5_extension_with_a_deadline_hour_moves_the_deadline_by_at_least_the_hours():
    game = running_game(now=datetime(2026, 3, 2, 20, 0, tzinfo=UTC))
    Game.objects.filter(pk=game.pk).update(deadline_hour=23)
    new = extend(game.pk, make_user("mod"), hours=2, now=datetime(2026, 3, 2, 21, 0, tzinfo=UTC))
    # The deadline was 4 Mar 23:00; 2 hours later is 5 Mar 01:00, and the next 23:00 after that is 5 Mar.
    assert new == datetime(2026, 3, 5, 23, 0, tzinfo=UTC)


# What the engine does not announce, the verb writes in the game's log itself, in its change.


def announced(game) -> list[dict]:
    return list(reload(game).events.filter(type="moderator_action").values_list("data", flat=True))


def test_t5_pause_extend_and_resume_are_announced_in_the_games_log(moderator):
    game = running_game()
    pause(game.pk, moderator, now=START + HOUR)
    extend(game.pk, moderator, hours=5, now=START + 2 * HOUR)
    resume(game.pk, moderator, now=START + 3 * HOUR)
    assert announced(game) == [{"action": "pause"}, {"action": "extend", "hours": 5}, {"action": "resume"}]


def test_locking_the_thread_twice_locks_and_announces_once(moderator):
    game = running_game()
    assert lock_thread(game.pk, moderator, now=START + HOUR) is True
    assert lock_thread(game.pk, moderator, now=START + HOUR) is False
    assert reload(game).thread_locked is True
    assert unlock_thread(game.pk, moderator, now=START + 2 * HOUR) is True
    assert unlock_thread(game.pk, moderator, now=START + 2 * HOUR) is False
    assert reload(game).thread_locked is False
    assert announced(game) == [{"action": "thread_locked"}, {"action": "thread_unlocked"}]
