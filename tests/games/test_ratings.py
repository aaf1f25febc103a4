"""Ratings: moved once, in the change that ends a rated game; recomputed from the results alone to the last digit;
seats that changed hands and exiles counted as the rules page says; rated games, seasons and a minimum rating."""

import time
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from django.core.management import call_command
from time_machine import travel

from games import ratings as model
from games.engine.events import Exiled, RoundStarted, Substituted
from games.models import Game, RatedGame, Rating, RatingChange, Seat
from games.services import GameError, cancel, make_move, sweep_due_deadlines
from games.services import ratings as ratings_service
from games.services.accounts import delete_account
from games.services.lobby import create_game, join_game
from games.services.ratings import recompute, season_of
from games.services.transfer import import_script
from tests.factories import HITLER_EXECUTED, NAMES, START, make_user, played_to_the_end, script, votes
from tests.games.helpers import in_threads

pytestmark = pytest.mark.django_db

SEATS_5 = [model.SeatPlayed(team, (model.Holder(name),)) for name, team in
           zip(NAMES[:5], ["liberal", "fascist", "fascist", "liberal", "liberal"], strict=True)]  # fmt: skip


def fresh(keys) -> dict:
    return {key: model.with_dynamics(model.Skill()) for key in keys}


def test_winning_the_side_that_usually_loses_moves_a_rating_more():
    ratings = fresh(NAMES[:5])
    even = model.rate(SEATS_5, ratings, liberals_won=True, chance=0.5)
    hard = model.rate(SEATS_5, ratings, liberals_won=True, chance=0.3)
    assert hard["ann"].after.mu > even["ann"].after.mu > model.MU
    assert hard["bob"].after.mu < even["bob"].after.mu < model.MU
    assert model.predict(SEATS_5, ratings, 0.3) == pytest.approx(0.3)  # equal players: the side's baseline


def test_team_size_is_not_counted_as_skill():
    """Three liberals against two fascists, all new: the prediction is the baseline, not the bigger team's."""
    assert model.predict(SEATS_5, fresh(NAMES[:5]), 0.5) == pytest.approx(0.5)


def test_e3_an_exiled_player_loses_the_game_whatever_their_team_did_at_the_share_they_held():
    seats = [*SEATS_5[:3], model.SeatPlayed("liberal", (model.Holder("dan", 0.5, True), model.Holder("zoe", 0.5))),
             SEATS_5[4]]  # fmt: skip
    ratings = fresh([*NAMES[:5], "zoe"])
    moved = model.rate(seats, ratings, liberals_won=True, chance=0.5)
    whole = model.rate(SEATS_5, fresh(NAMES[:5]), liberals_won=True, chance=0.5)
    assert not moved["dan"].won and moved["dan"].after.mu < model.MU
    assert moved["zoe"].won and model.MU < moved["zoe"].after.mu < whole["dan"].after.mu
    assert moved["zoe"].share == 0.5


def test_a_side_plays_as_its_members_do_on_average_so_a_larger_side_is_not_stronger_for_it():
    """Three liberals of skill 30 against two fascists of skill 30: an even game at an even baseline; and a seat
    with one holder moves them as openskill moves a member of a team."""
    ratings = {name: model.Skill(30.0, 3.0) for name in NAMES[:5]}
    assert model.predict(SEATS_5, ratings, 0.5) == pytest.approx(0.5)
    stronger = ratings | {"ann": model.Skill(36.0, 3.0)}
    assert model.predict(SEATS_5, stronger, 0.5) > 0.5
    moved = model.rate(SEATS_5, ratings, liberals_won=False, chance=0.5)
    assert moved["ann"].after.sigma < 3.0 and moved["ann"].after.mu < 30.0 < moved["bob"].after.mu


def test_baselines_lean_on_the_table_size_until_a_setting_has_games_of_its_own():
    baselines = model.Baselines()
    assert baselines.chance(7, "x") == 0.5
    for _game in range(30):
        baselines.add(7, "x", liberals_won=False)
    assert baselines.chance(7, "x") < baselines.chance(7, "y") < 0.5
    assert baselines.chance(7, "x") >= model.CHANCE_LIMITS[0]


def rated_game(data: dict, *, at: datetime = START, **options) -> Game:
    for name in set(data["players"]):
        make_user(name)
    return Game.objects.get(pk=import_script(data, now=at, **({"rated": True} | options)).pk)


def snapshot() -> dict:
    return {(r.user.username, r.season): (r.mu, r.sigma, r.games) for r in Rating.objects.select_related("user")}


def test_a_rated_game_moves_its_players_ratings_once_in_the_change_that_ends_it():
    game = rated_game(script(actions=HITLER_EXECUTED))
    assert game.status == Game.Status.FINISHED and game.winner == "liberal"
    record = RatedGame.objects.get(game=game)
    assert record.order == 1 and record.season == season_of(game.finished_at) and record.predicted == 0.5
    ratings = snapshot()
    assert set(ratings) == {(name, season) for name in NAMES[:5] for season in ("", record.season)}
    assert ratings[("ann", "")][0] > model.MU > ratings[("bob", "")][0]  # ann a liberal, bob a fascist
    assert RatingChange.objects.filter(rated_game=record).count() == 10
    with pytest.raises(GameError):  # the game is over: nothing more moves it, nor its ratings
        ann = Seat.objects.get(game=game, name="ann").user
        make_move(game.pk, ann, {"type": "nominate", "target": "bob"}, game.step_number)
    assert snapshot() == ratings and RatedGame.objects.count() == 1


@pytest.mark.parametrize("options", [{"rated": False}, {"visibility": Game.Visibility.UNLISTED}])
def test_an_unrated_or_unlisted_game_moves_no_rating(options):
    rated_game(script(actions=HITLER_EXECUTED), **options)
    assert not Rating.objects.exists() and not RatedGame.objects.exists()


def test_a_running_or_cancelled_game_moves_no_rating():
    game = rated_game(script(actions=HITLER_EXECUTED[:-1]))
    assert game.status == Game.Status.RUNNING and not Rating.objects.exists()
    moderator = make_user("mod")
    cancel(game.pk, moderator)
    assert Game.objects.get(pk=game.pk).status == Game.Status.CANCELLED and not Rating.objects.exists()


def test_recompute_ratings_gives_the_same_figures_to_the_last_digit():
    """Games with shared players, at other table sizes, across two seasons, one with a seat that changed hands
    after an exile: replayed from their results, every figure is the one stored."""
    for seed, players, month in [(1, 5, 3), (2, 7, 3), (3, 5, 5), (4, 6, 5), (5, 7, 7)]:
        rated_game(played_to_the_end(players, seed), at=datetime(2026, month, 2, tzinfo=UTC))
    names = ["ann", "bob", "cat", "dan", "eve"]
    handed = [{"type": "substitute", "name": "zoe"}, {"type": "exile", "player": "bob"},
              {"type": "nominate", "by": "ann", "target": "dan"}, *votes(*names, ballot="nein"),
              {"type": "exile", "player": "cat"}, {"type": "nominate", "by": "zoe", "target": "ann"},
              *votes("ann", "zoe", "cat", "dan", "eve", ballot="nein")]  # fmt: skip
    rated_game(script(actions=handed), at=datetime(2026, 8, 1, tzinfo=UTC))
    stored, changes = snapshot(), sorted(RatingChange.objects.values_list("user_id", "season", "mu", "sigma"))
    assert RatedGame.objects.count() == 6 and len({season for _name, season in stored}) == 4
    assert recompute().differing == []
    assert snapshot() == stored
    assert sorted(RatingChange.objects.values_list("user_id", "season", "mu", "sigma")) == changes
    Rating.objects.filter(season="").update(mu=1.0)
    assert len(recompute().differing) == len([key for key in stored if key[1] == ""])
    assert snapshot() == stored
    call_command("recompute_ratings", stdout=(out := __import__("io").StringIO()))
    assert "identical" in out.getvalue()


def test_e5_bob_exiled_and_zoe_who_took_his_seat_are_rated_by_the_rounds_they_held_it():
    names = ["ann", "bob", "cat", "dan", "eve"]
    actions = [{"type": "substitute", "name": "zoe"}, {"type": "exile", "player": "bob"},
               {"type": "nominate", "by": "ann", "target": "dan"}, *votes(*names, ballot="nein"),
               {"type": "exile", "player": "cat"}, {"type": "nominate", "by": "zoe", "target": "ann"},
               *votes("ann", "zoe", "cat", "dan", "eve", ballot="nein")]  # fmt: skip
    game = rated_game(script(actions=actions))
    assert game.winner == "liberal"
    changes = {c.user.username: c for c in RatingChange.objects.filter(season="").select_related("user")}
    assert (changes["bob"].won, changes["bob"].share) == (False, 0.5)
    assert (changes["zoe"].won, changes["zoe"].share) == (False, 0.5)  # a fascist seat: the liberals won
    assert (changes["cat"].won, changes["cat"].share) == (False, 1.0)  # exiled Hitler
    assert changes["ann"].won and changes["ann"].share == 1.0


def test_a_game_asking_for_a_minimum_rating_refuses_a_player_below_it():
    creator = make_user("ann")
    newcomer = make_user("bob")
    game = create_game(creator, min_rating=0.0)
    join_game(game.pk, newcomer)  # a newcomer's conservative figure: 0 (25 - 3 x 8.33..., a hair below it, shown 0.0)
    strict = create_game(make_user("cat"), join=False, min_rating=1.0)
    with pytest.raises(GameError) as refused:
        join_game(strict.pk, newcomer)
    assert refused.value.code == "rating_too_low"
    assert not Seat.objects.filter(game=strict).exists()


def test_a_public_game_is_rated_by_default_and_an_unlisted_one_never():
    creator = make_user("ann")
    assert create_game(creator).rated
    unlisted = create_game(make_user("bob"), visibility=Game.Visibility.UNLISTED)
    assert not unlisted.rated and not unlisted.is_rated


@travel(START, tick=False)
def test_seasons_start_afresh():
    rated_game(played_to_the_end(5, 1), at=datetime(2026, 3, 2, tzinfo=UTC))
    rated_game(played_to_the_end(5, 2), at=datetime(2026, 4, 2, tzinfo=UTC))
    ann = {r.season: r.games for r in Rating.objects.filter(user__username="ann")}
    assert ann == {"": 2, "2026-Q1": 1, "2026-Q2": 1}


def one_move_from_the_end() -> Game:
    """A rated game in which dan, president, is about to execute cat, Hitler: the liberals win with that move."""
    return rated_game(script(actions=HITLER_EXECUTED[:-1]))


def the_last_move(game: Game) -> list:
    dan = Seat.objects.get(game=game, name="dan").user
    step = Game.objects.get(pk=game.pk).step_number
    return make_move(game.pk, dan, {"type": "execute", "target": "cat"}, step, now=START)


def test_a_fault_in_the_ending_change_loses_nothing_and_rates_nothing_twice(monkeypatch):
    """The game's end and its ratings are one transaction: a fault while writing the ratings leaves the game
    running and nobody rated; the move made again ends it and rates it once."""
    game = one_move_from_the_end()

    def fail(*args):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(ratings_service, "_store", fail)
    with pytest.raises(RuntimeError):
        the_last_move(game)
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    assert not Rating.objects.exists() and not RatedGame.objects.exists() and not RatingChange.objects.exists()
    monkeypatch.undo()
    the_last_move(game)
    assert RatedGame.objects.get().game_id == game.pk and Rating.objects.filter(season="").count() == 5
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_rated_games_ending_at_once_with_the_same_players_are_rated_one_after_the_other():
    """Both games' last moves at the same moment, in two transactions: each game is rated once, one after the other
    (the second from the ratings the first left), and recomputing gives the same figures."""
    first, second = one_move_from_the_end(), one_move_from_the_end()
    results = in_threads(partial(the_last_move, first), partial(the_last_move, second))
    assert not any(isinstance(result, Exception) for result in results), results
    assert sorted(RatedGame.objects.values_list("order", flat=True)) == [1, 2]
    assert set(Rating.objects.filter(season="").values_list("games", flat=True)) == {2}
    stored = snapshot()
    assert recompute().differing == [] and snapshot() == stored


HANDED = [{"type": "substitute", "name": "zoe"}, {"type": "exile", "player": "bob"},
          {"type": "nominate", "by": "ann", "target": "dan"}, *votes(*NAMES[:5], ballot="nein"),
          {"type": "exile", "player": "cat"}, {"type": "nominate", "by": "zoe", "target": "ann"},
          *votes("ann", "zoe", "cat", "dan", ballot="nein")]  # fmt: skip  # eve's ballot ends it: Hitler exiled


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_account_deleted_while_a_game_it_left_ends_waits_for_that_game(monkeypatch):
    """bob was exiled from a rated game; eve's ballot ends it while bob deletes his account. The end writes bob's
    seat, then the ratings; the deletion would write the ratings, then his seat: it takes the game's lock first, so
    it waits for the end, and both are done, nothing lost."""
    rated_game(script(actions=HITLER_EXECUTED))  # bob has a rating already
    game = rated_game(script(actions=HANDED))
    bob = Seat.objects.get(game=game, name="bob").user
    ending = ratings_service.rate_ended

    def slowly(games):
        time.sleep(1.0)  # the seats written, the ledger not taken yet: the deletion comes in between
        return ending(games)

    monkeypatch.setattr(ratings_service, "rate_ended", slowly)
    eve = Seat.objects.get(game=game, name="eve").user
    step = Game.objects.get(pk=game.pk).step_number
    last_ballot = partial(make_move, game.pk, eve, {"type": "vote", "vote": "nein"}, step, now=START)

    def delete_a_moment_later():
        time.sleep(0.3)
        delete_account(bob)

    results = in_threads(last_ballot, delete_a_moment_later)
    assert not any(isinstance(result, Exception) for result in results), results
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED and RatedGame.objects.count() == 2
    assert not Rating.objects.filter(user_id=bob.pk).exists()
    assert recompute().differing == []


def test_a_seat_left_empty_by_an_exile_counts_no_round_until_a_substitute_takes_it():
    """bob holds seat 1 two rounds and is exiled; zoe takes it two rounds and is exiled with nobody waiting; the
    seat stays empty three rounds more. Each held it for half of its rounds, not zoe for five of seven."""
    started = {"type": RoundStarted.type, "president": "ann"}
    events = [(started["type"], started)] * 2 + [
        (Exiled.type, {"player": "bob", "reason": "missed_rounds"}),
        (Substituted.type, {"player": "zoe", "replaces": "bob"}),
        *[(RoundStarted.type, started)] * 2,
        (Exiled.type, {"player": "zoe", "reason": "missed_rounds"}),
        *[(RoundStarted.type, started)] * 3,
    ]
    game = Game(player_count=5, setup={"players": NAMES[:5]}, winner="liberal", finished_at=START)
    roles = ["liberal", "fascist", "hitler", "liberal", "liberal"]
    seats = [
        Seat(name=name, number=n, role=roles[n], user_id=n + 1, joined_at=START) for n, name in enumerate(NAMES[:5])
    ]
    seats.append(Seat(name="zoe", number=1, role="fascist", user_id=9, joined_at=START + timedelta(days=1)))
    read = ratings_service.played(game, seats, events)
    holders = {holder.key: holder for seat in read.seats for holder in seat.holders}
    assert (holders[2].share, holders[2].exiled) == (0.5, True)  # bob
    assert (holders[9].share, holders[9].exiled) == (0.5, True)  # zoe
    assert holders[1].share == 1.0


# cat, Hitler, casts no ballot in two rounds: the second round's deadline exiles her (E3), and the liberals win.
CAT_SILENT = [{"type": "nominate", "by": "ann", "target": "bob"}, *votes("ann", "bob", "dan", "eve", ballot="nein"),
              {"type": "timeout"}, {"type": "nominate", "by": "bob", "target": "dan"},
              *votes("ann", "bob", "dan", "eve", ballot="nein")]  # fmt: skip


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_e3_rated_games_ended_by_their_deadlines_in_two_sweeps_at_once_are_each_rated_once():
    games = [rated_game(script(actions=CAT_SILENT)) for _ in range(6)]
    due = Game.objects.get(pk=games[0].pk).deadline + timedelta(seconds=1)
    handled = in_threads(partial(sweep_due_deadlines, now=due, batch_size=2), partial(sweep_due_deadlines, now=due))
    assert sum(handled) == 6, handled
    ended = Game.objects.filter(pk__in=[game.pk for game in games])
    assert set(ended.values_list("status", "win_reason")) == {(Game.Status.FINISHED, "hitler_exiled")}
    assert sorted(RatedGame.objects.values_list("order", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert set(Rating.objects.filter(season="").values_list("games", flat=True)) == {6}
    stored = snapshot()
    assert recompute().differing == [] and snapshot() == stored


def test_e8_a_replaced_player_is_rated_with_their_side_by_their_share_held_against_nobody():
    """A moderator replaces ann, a liberal, by zoe (a resignation): unlike an exile, ann wins with the liberals,
    by the half of the rounds she held the seat, and so does zoe."""
    actions = [{"type": "replace", "player": "ann", "name": "zoe"}, {"type": "nominate", "by": "ann", "target": "dan"},
               *votes(*NAMES[:5], ballot="nein"), {"type": "exile", "player": "cat"},
               {"type": "nominate", "by": "bob", "target": "zoe"},
               *votes("zoe", "bob", "cat", "dan", "eve", ballot="nein")]  # fmt: skip
    game = rated_game(script(actions=actions))
    assert (game.winner, game.win_reason) == ("liberal", "hitler_exiled")
    changes = {c.user.username: c for c in RatingChange.objects.filter(season="").select_related("user")}
    assert (changes["ann"].won, changes["ann"].share) == (True, 0.5)
    assert (changes["zoe"].won, changes["zoe"].share) == (True, 0.5)
    assert (changes["cat"].won, changes["cat"].share) == (False, 1.0)
