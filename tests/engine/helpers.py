"""Building games and playing moves by name, for the engine's tests."""

import msgspec

from games.engine import Action, GameState, Settings, apply, new_game, summary

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe"]

# R1 role counts; bob is a fascist and cat is Hitler at every size, the other fascists sit last.
_EXTRA_FASCISTS = {5: [], 6: [], 7: ["gus"], 8: ["hal"], 9: ["hal", "ivy"], 10: ["ivy", "joe"]}

LIBERAL_FIRST = "LLLLLL" + "F" * 11
FASCIST_FIRST = "F" * 11 + "LLLLLL"


def roles_for(n: int) -> dict[str, str]:
    roles = dict.fromkeys(NAMES[:n], "liberal")
    roles["bob"] = "fascist"
    roles["cat"] = "hitler"
    for name in _EXTRA_FASCISTS[n]:
        roles[name] = "fascist"
    return roles


def make_game(
    n: int = 5,
    *,
    deck: str = FASCIST_FIRST,
    first: str = "ann",
    roles: dict[str, str] | None = None,
    seed: int = 0,
    reshuffles: tuple = (),
    **settings,
) -> GameState:
    players = NAMES[:n]
    return new_game(
        players,
        seed=seed,
        roles=roles or roles_for(n),
        deck=list(deck),
        first_president=first,
        settings=Settings(**settings),
        reshuffles=[list(order) for order in reshuffles],
    )


def seat(g: GameState, name: str) -> int:
    return next(i for i, s in enumerate(g.seats) if s.name == name)


def act(g: GameState, type_: str, by: str | None = None, target: str | None = None, choice=None, name=None):
    return apply(
        g,
        Action(
            type_,
            by=None if by is None else seat(g, by),
            target=None if target is None else seat(g, target),
            choice=choice,
            name=name,
        ),
    )


def vote_all(g: GameState, ballot: str = "ja", **overrides: str) -> None:
    """Every living player who has not voted casts `ballot`, except those named in overrides."""
    for name in list(state(g)["waiting_for"]):
        act(g, "vote", name, choice=overrides.get(name, ballot))


def elect(g: GameState, chancellor: str, ballot: str = "ja") -> None:
    act(g, "nominate", g.seats[g.president].name, chancellor)
    vote_all(g, ballot)


def legislate(g: GameState, discard: str, enact: str) -> None:
    act(g, "discard", g.seats[g.president].name, choice=discard)
    act(g, "enact", g.seats[g.chancellor].name, choice=enact)


def govern(g: GameState, chancellor: str, discard: str = "F", enact: str = "F") -> None:
    """A whole government: nominated, elected unanimously, a policy enacted."""
    elect(g, chancellor)
    legislate(g, discard, enact)


def fail_election(g: GameState, chancellor: str | None = None) -> None:
    if chancellor is None:
        chancellor = next(
            name for name in state(g)["alive"] if name not in state(g)["term_limited"] and name != president(g)
        )
    elect(g, chancellor, "nein")


def president(g: GameState) -> str:
    return g.seats[g.president].name


def state(g: GameState) -> dict:
    return summary(g)


def public(events) -> list[dict]:
    """Events as the public log holds them: their JSON (games.engine.events), to check its exact shape."""
    return msgspec.to_builtins(events)
