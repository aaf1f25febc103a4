"""Known answers for the random source: any change to what is drawn, or in which order, shows here in review.

Stored games replay with the scheme they were set up with, so a change here must come with a new scheme name.
"""

import random

import pytest

from games.engine import GameState, apply, codec, new_game, random_move
from games.engine.rng import NAMED_STREAMS, SINGLE_STREAM, Randomness, Rng, stream_seed
from games.engine.setup import seat_and_deal
from games.replay import EXIT_INVALID, replay_script

from .helpers import NAMES


def test_splitmix64_first_outputs_for_seed_zero():
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_stream_seeds_are_a_keyed_hash_of_seed_and_name():
    assert stream_seed(7, "roles") == 12829227304974521548
    names = ["seating", "roles", "deck", "first_president", "reshuffle:1", "reshuffle:2", "timeout:step:3"]
    assert len({stream_seed(7, name) for name in names}) == len(names)
    assert stream_seed(7, "roles") != stream_seed(8, "roles")


def deal(g: GameState) -> tuple:
    return [seat.name for seat in g.seats], [str(seat.role) for seat in g.seats], "".join(g.draw_pile), g.president


def test_r1_r4_r8_new_game_deal_for_a_seed_named_streams():
    assert deal(new_game(NAMES[:5], seed=7)) == (
        NAMES[:5],
        ["liberal", "fascist", "hitler", "liberal", "liberal"],
        "FFLLFFLFLFFLFLFFF",
        2,
    )


def test_r1_r4_r8_new_game_deal_for_a_seed_single_stream():
    assert deal(new_game(NAMES[:5], seed=7, rng=SINGLE_STREAM)) == (
        NAMES[:5],
        ["hitler", "liberal", "fascist", "liberal", "liberal"],
        "FFFFLFLFLFFLFLFLF",
        3,
    )


def test_seat_and_deal_for_a_seed():
    g = seat_and_deal(NAMES[:5], seed=7)
    assert [seat.name for seat in g.seats] == ["eve", "dan", "ann", "bob", "cat"]
    assert [str(seat.role) for seat in g.seats] == ["liberal", "fascist", "hitler", "liberal", "liberal"]


def test_single_stream_seating_undoes_its_deal():
    """Why named streams exist: the first scheme seats and deals with one permutation, so the first to join is
    dealt the deal's first card (a liberal) and the last to join its last (Hitler)."""
    for seed in range(50):
        g = seat_and_deal(NAMES[:5], seed=seed, rng=SINGLE_STREAM)
        roles = {seat.name: str(seat.role) for seat in g.seats}
        assert (roles["ann"], roles["eve"]) == ("liberal", "hitler")


@pytest.mark.parametrize("scheme", [NAMED_STREAMS, SINGLE_STREAM])
def test_a_game_stored_and_loaded_at_every_move_plays_as_one_never_stored(scheme):
    def play(reload: bool) -> GameState:
        moves = random.Random(3)
        g = new_game(NAMES[:7], seed=41, rng=scheme)
        while not g.over:
            if reload:
                g = codec.from_builtins(g.to_dict())
            apply(g, random_move(g, moves))
        return g

    assert play(True).to_dict() == play(False).to_dict()


def test_stored_states_keep_their_scheme():
    single = new_game(NAMES[:5], seed=7, rng=SINGLE_STREAM).to_dict()["rng"]
    assert single["scheme"] == SINGLE_STREAM and isinstance(single["shared"], int)  # the stream's state goes on
    assert new_game(NAMES[:5], seed=7).to_dict()["rng"] == {"seed": 7, "scheme": NAMED_STREAMS, "shared": None}
    assert Randomness.from_json(12345).scheme == SINGLE_STREAM  # a version-1 state stored the stream alone


@pytest.mark.parametrize("value", ["", "mersenne", 3, ["named-streams"]])
def test_replay_refuses_an_unknown_scheme(value):
    status, output = replay_script({"players": NAMES[:5], "rng": value})
    assert status == EXIT_INVALID
    assert "rng" in output["error"]["message"]


def test_replay_draws_with_the_named_scheme():
    script = {"players": NAMES[:5], "seed": 7}
    _, default = replay_script(script, reveal=True)
    _, named = replay_script({**script, "rng": NAMED_STREAMS}, reveal=True)
    _, single = replay_script({**script, "rng": SINGLE_STREAM}, reveal=True)
    assert default == named
    assert single["secret"]["roles"] == {
        "ann": "hitler",
        "bob": "liberal",
        "cat": "fascist",
        "dan": "liberal",
        "eve": "liberal",
    }
