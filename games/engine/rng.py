"""The engine's random source: SplitMix64 generators drawn from the game's secret seed.

Every random decision of a game (the seating, the role deal, the deck, the first candidate, each reshuffle,
each random timeout outcome) has a name, and draws from its own stream: a SplitMix64 generator seeded with
HMAC-SHA256(seed, name). No draw is then a function of another, and nothing public (the seating, the first
president) says anything about the secrets unless the seed itself is guessed. A game is still reproduced
exactly by its seed, its scheme and its action log.

Schemes (the replay script's `rng` key, REPLAY.md):
  named-streams   every decision its own stream, as above; new games use it.
  single-stream   one SplitMix64 stream from the seed for every draw, in the order they happen. Games set up
                  before named streams existed keep it to the end; its seating drew the same permutation as
                  its role deal, which made the deal a function of the join order.
"""

import hashlib
import hmac

import msgspec

_MASK = (1 << 64) - 1
_SPAN = 1 << 64

NAMED_STREAMS = "named-streams"
SINGLE_STREAM = "single-stream"
SCHEMES = (NAMED_STREAMS, SINGLE_STREAM)
DEFAULT_SCHEME = NAMED_STREAMS


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPAN - _SPAN % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place: each j is `below(i + 1)`, with next64 written out (the same draws, without
        two calls per card; a deal and a reshuffle are the engine's costliest steps)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                state = z = (state + 0x9E3779B97F4A7C15) & _MASK
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state


def stream_seed(seed: int, name: str) -> int:
    """The starting state of the stream for the decision `name`: a keyed hash, so that streams never overlap
    (unlike `seed + k`, whose SplitMix64 sequences are shifted copies of one another)."""
    digest = hmac.digest(str(seed).encode(), name.encode(), hashlib.sha256)
    return int.from_bytes(digest[:8], "big")


class Randomness(msgspec.Struct, gc=False):  # every field written: a default may change, a stored game may not
    """Where one game's draws come from: its scheme, its secret seed, and (single-stream) the shared stream's
    state, which every draw moves on. Stored as it is (codec.py): {"scheme", "seed"} or {"scheme", "shared"}."""

    seed: int | None = None
    scheme: str = DEFAULT_SCHEME
    shared: int | None = None  # single-stream: the state of the one generator every draw comes from

    @classmethod
    def new(cls, seed: int | None, scheme: str = DEFAULT_SCHEME) -> "Randomness":
        """A new game's randomness (a stored one is decoded as it was stored, with nothing to check)."""
        if scheme not in SCHEMES:
            raise ValueError(f"unknown random scheme {scheme!r}")
        if scheme == SINGLE_STREAM:  # the stream's state is all it needs, as version 1 stored it
            return cls(None, scheme, (seed or 0) & _MASK)
        return cls(seed, scheme)

    def stream(self, name: str) -> Rng:
        """The generator for the decision `name` ("roles", "reshuffle:2", "timeout:step:41", ...)."""
        if self.scheme == SINGLE_STREAM:
            return _Shared(self)
        return Rng(stream_seed(self.seed, name))

    def to_json(self) -> int | dict:
        """As the replay script and the secret view print it (REPLAY.md): a single-stream game as the shared
        generator's state alone, as before named streams."""
        if self.scheme == SINGLE_STREAM:
            return self.shared
        return {"scheme": self.scheme, "seed": self.seed}

    @classmethod
    def from_json(cls, value: int | dict) -> "Randomness":
        if isinstance(value, int):
            return cls(None, SINGLE_STREAM, shared=value)
        return cls(value.get("seed"), value["scheme"], value.get("shared"))


class _Shared(Rng):
    """The single stream: a generator whose state is the game's own, so that each draw moves it on."""

    __slots__ = ("owner",)

    def __init__(self, owner: Randomness) -> None:
        self.owner = owner

    @property
    def state(self) -> int:
        return self.owner.shared

    @state.setter
    def state(self, value: int) -> None:
        self.owner.shared = value
