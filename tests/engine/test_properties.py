"""Property tests: random legal play, with timeouts, absences, substitutes and moderators, for 5-10 players."""

import contextlib
import json
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from games.engine import Action, GameState, IllegalAction, Settings, apply, codec, new_game, random_move, summary
from games.engine.constants import ROLE_COUNTS, Role, SeatStatus, deck_for
from games.engine.events import ENGINE_EVENTS

from .helpers import NAMES

MAX_MOVES = 3000


def random_event(g: GameState, rnd: random.Random, serial: int) -> Action:
    """A random move, or now and then a deadline, an absence, a substitute or a moderator's intervention."""
    roll = rnd.random()
    living = g.living()
    if roll < 0.12:
        return Action("timeout")
    if roll < 0.15:
        return Action("absence", rnd.choice(living), choice=rnd.random() < 0.5)
    if roll < 0.17:
        return Action("substitute", name=f"sub{serial}")
    if roll < 0.175:
        return Action("excuse", target=rnd.choice(living))
    if roll < 0.18:
        return Action("replace", target=rnd.choice(living), name=f"new{serial}")
    return random_move(g, rnd)


def check_invariants(g: GameState) -> None:
    deck = deck_for(len(g.seats), rebalanced=g.settings.rebalanced)
    cards = len(g.draw_pile) + len(g.discard_pile) + len(g.hand) + g.liberal_policies + g.fascist_policies
    assert cards == deck.size + deck.enacted_fascists
    assert Counter(g.draw_pile + g.discard_pile + g.hand)["L"] + g.liberal_policies == deck.liberals
    liberals, fascists = ROLE_COUNTS[len(g.seats)]
    assert Counter(seat.role for seat in g.seats) == {Role.LIBERAL: liberals, Role.FASCIST: fascists, Role.HITLER: 1}
    assert g.liberal_policies <= 5 and g.fascist_policies <= 6 and g.election_tracker < 3
    s = summary(g)
    assert set(s["waiting_for"]) <= set(s["alive"])
    if not g.over:
        assert s["waiting_for"] or (s["step"] in ("vote", "execution_vote") and not g.settings.close_vote_early)
        assert g.seats[g.president].status == SeatStatus.ALIVE


def check_the_dead_never_act(g: GameState) -> None:
    out_of_play = [i for i, seat in enumerate(g.seats) if seat.status != SeatStatus.ALIVE]
    if not out_of_play or g.over:
        return
    before = g.to_dict()
    for move in (Action("vote", out_of_play[0], choice="ja"), Action("nominate", out_of_play[0], target=0)):
        try:
            apply(g, move)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{move} by a seat out of play was applied")
    assert g.to_dict() == before


def play(n: int, seed: int, *, roundtrip_every: int = 0, settings=None) -> GameState:
    rnd = random.Random(seed)
    g = new_game(NAMES[:n], seed=seed, **({"settings": settings} if settings else {}))
    for serial in range(MAX_MOVES):
        if g.over:
            return g
        with contextlib.suppress(IllegalAction):  # a random absence or name may be refused: nothing changes
            apply(g, random_event(g, rnd, serial))
        check_invariants(g)
        check_the_dead_never_act(g)
        if roundtrip_every and serial % roundtrip_every == 0:
            g = codec.from_builtins(json.loads(json.dumps(g.to_dict())))
    raise AssertionError("the game did not end")


@given(n=st.integers(5, 10), seed=st.integers(0, 2**32))
def test_random_play_always_ends_with_a_winner(n, seed):
    g = play(n, seed)
    assert {event.__class__ for event in g.events} <= set(ENGINE_EVENTS)
    assert g.winner in ("liberal", "fascist")
    reasons = ("liberal_policies", "fascist_policies", "hitler_executed", "hitler_elected", "hitler_exiled")
    assert g.win_reason in reasons


@given(n=st.integers(5, 10), seed=st.integers(0, 2**32), every=st.integers(1, 7))
def test_serialising_at_any_point_changes_nothing(n, seed, every):
    straight = play(n, seed)
    reloaded = play(n, seed, roundtrip_every=every)
    assert reloaded.to_dict() == straight.to_dict()


@given(n=st.integers(5, 10), seed=st.integers(0, 2**32))
def test_variants_play_to_the_end(n, seed):
    settings = Settings(
        execution_vote=True,
        tracker_resets_on_election=True,
        close_vote_early=seed % 2 == 0,
        missing_vote="nein",
        nomination_timeout="random",
        power_timeout="random",
        hitler_blind_small=True,
        rebalanced=True,
    )
    g = play(n, seed, settings=settings)
    assert g.over


@given(n=st.integers(5, 10), seed=st.integers(0, 2**32))
def test_illegal_moves_change_nothing(n, seed):
    rnd = random.Random(seed)
    g = new_game(NAMES[:n], seed=seed)
    for _serial in range(300):
        if g.over:
            break
        wild = Action(
            rnd.choice(["nominate", "vote", "discard", "enact", "veto", "veto_reply", "investigate", "execute"]),
            by=rnd.randrange(n),
            target=rnd.randrange(n),
            choice=rnd.choice(["ja", "nein", "L", "F", True, False, "x"]),
        )
        before = g.to_dict()
        try:
            apply(g, wild)
        except IllegalAction:
            assert g.to_dict() == before
        if g.over:
            break
        try:
            apply(g, random_move(g, rnd))
        except IllegalAction:
            raise AssertionError("random_move gave an illegal move") from None


@given(players=st.integers(5, 10), seed=st.integers(0, 2**32), moves=st.integers(0, 300))
def test_r10_t1_e3_the_kept_living_count_is_always_the_seats_alive(players, seed, moves):
    """Term limits (R10), the vote closing when all have voted (T1) and exiles (E3, R23) read the count kept in the
    state: it must equal the seats alive after any play, deaths and exiles included."""
    rnd = random.Random(seed)
    g = new_game(NAMES[:players], seed=seed)
    for _ in range(moves):
        if g.over:
            break
        apply(g, random_move(g, rnd) if rnd.random() < 0.9 else Action("timeout"))
        assert g.living_count == len(g.living())
