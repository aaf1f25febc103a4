"""Today's engine lists the same legal moves as the engine before issue 14's speed-up, read from git."""

import random

import pytest

from devtools import engine_before as engine_before_from_git
from games.engine import apply, legal_actions, new_game, random_move
from tests.conftest import _missing


@pytest.fixture(scope="module")
def engine_before():
    try:
        return engine_before_from_git.load()
    except engine_before_from_git.EngineBeforeUnavailable as error:
        _missing(f"the engine before comes from git: {error}")


@pytest.mark.parametrize("players", [5, 7, 10])
def test_r9_r11_r17_r19_legal_moves_are_those_of_the_engine_before_the_speed_up(players, engine_before):
    """The moves listed now (ballots, nominations and card choices made once and shared; one seat's or everyone's)
    are exactly those the engine before issue 14's speed-up (its own code, read from git) lists for the same game,
    move after move: a card choice once per distinct card in the hand, the veto when allowed."""
    names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe"][:players]
    for seed in range(15):
        g, old = new_game(names, seed=seed), engine_before.new_game(names, seed=seed)
        rnd = random.Random(seed)
        while not g.over:
            before = [tuple(move) for move in engine_before.legal_actions(old)]
            assert [tuple(move) for move in legal_actions(g)] == before
            for seat in range(players):
                assert [tuple(move) for move in legal_actions(g, seat)] == [m for m in before if m[1] == seat]
            move = random_move(g, rnd)
            apply(g, move)
            engine_before.apply(old, engine_before.Action(*move))


def test_a_clone_without_the_tag_falls_back_to_the_commit_written_in_the_loader(monkeypatch):
    monkeypatch.setattr(engine_before_from_git, "TAG", "no-such-tag")
    try:
        assert engine_before_from_git.commit() == engine_before_from_git.COMMIT
    except engine_before_from_git.EngineBeforeUnavailable as error:
        _missing(f"the engine before comes from git: {error}")


def test_without_the_commit_the_engine_before_is_unavailable_and_says_why(monkeypatch):
    monkeypatch.setattr(engine_before_from_git, "TAG", "no-such-tag")
    monkeypatch.setattr(engine_before_from_git, "COMMIT", "0" * 40)
    with pytest.raises(engine_before_from_git.EngineBeforeUnavailable, match="neither the tag no-such-tag nor"):
        engine_before_from_git.commit()
