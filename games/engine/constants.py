"""The game's fixed tables and names (RULES.md R1, R4, R20, and the house rule `rebalanced`)."""

from enum import StrEnum
from typing import NamedTuple


class Role(StrEnum):
    LIBERAL = "liberal"
    FASCIST = "fascist"
    HITLER = "hitler"


class Party(StrEnum):
    LIBERAL = "liberal"
    FASCIST = "fascist"


class Step(StrEnum):
    NOMINATE = "nominate"
    VOTE = "vote"
    DISCARD = "discard"
    ENACT = "enact"
    VETO_REPLY = "veto_reply"
    INVESTIGATE = "investigate"
    SPECIAL_ELECTION = "special_election"
    EXECUTE = "execute"
    EXECUTION_VOTE = "execution_vote"
    GAME_OVER = "game_over"


class Power(StrEnum):
    INVESTIGATE = "investigate"
    PEEK = "peek"
    SPECIAL_ELECTION = "special_election"
    EXECUTE = "execute"


class SeatStatus(StrEnum):
    ALIVE = "alive"
    DEAD = "dead"
    EXILED = "exiled"


class WinReason(StrEnum):
    LIBERAL_POLICIES = "liberal_policies"
    FASCIST_POLICIES = "fascist_policies"
    HITLER_EXECUTED = "hitler_executed"
    HITLER_ELECTED = "hitler_elected"
    HITLER_EXILED = "hitler_exiled"
    CANCELLED = "cancelled"


# Short names for the steps the engine compares in every move.
NOMINATE, VOTE, DISCARD, ENACT, VETO_REPLY = Step.NOMINATE, Step.VOTE, Step.DISCARD, Step.ENACT, Step.VETO_REPLY
INVESTIGATE, SPECIAL_ELECTION, EXECUTE = Step.INVESTIGATE, Step.SPECIAL_ELECTION, Step.EXECUTE
EXECUTION_VOTE, GAME_OVER = Step.EXECUTION_VOTE, Step.GAME_OVER
ALIVE, DEAD, EXILED = SeatStatus.ALIVE, SeatStatus.DEAD, SeatStatus.EXILED
HITLER = Role.HITLER

LIBERAL = "L"
FASCIST = "F"
POLICIES = (LIBERAL, FASCIST)
JA = "ja"
NEIN = "nein"
BALLOTS = (JA, NEIN)

MIN_PLAYERS = 5
MAX_PLAYERS = 10

# R1: players -> (liberals, fascists besides Hitler).
ROLE_COUNTS = {5: (3, 1), 6: (4, 1), 7: (4, 2), 8: (5, 2), 9: (5, 3), 10: (6, 3)}

# R4
DECK_LIBERALS = 6
DECK_FASCISTS = 11

# The house rule `rebalanced`, at the table sizes it applies to: the fascist policies the deck holds and those on the
# board from the start, the rest of R4's 11 left out of the game. Elsewhere it changes nothing.
REBALANCED = {6: (10, 1), 7: (10, 0), 9: (9, 0)}

LIBERAL_POLICIES_TO_WIN = 5
FASCIST_POLICIES_TO_WIN = 6
HITLER_ZONE = 3  # R16: fascist policies after which electing Hitler chancellor wins
VETO_UNLOCKED_AT = 5  # R19, R25
CHAOS_AT = 3  # R14
HAND_SIZE = 3
SMALL_GAME_MAX = 6  # R3: Hitler knows the fascist in games of this many players or fewer
FULL_TERM_LIMITS_ALIVE = 6  # R10: from this many living players the last president is term-limited too

_SMALL = (None, None, Power.PEEK, Power.EXECUTE, Power.EXECUTE)
_MEDIUM = (None, Power.INVESTIGATE, Power.SPECIAL_ELECTION, Power.EXECUTE, Power.EXECUTE)
_LARGE = (Power.INVESTIGATE, Power.INVESTIGATE, Power.SPECIAL_ELECTION, Power.EXECUTE, Power.EXECUTE)

# R20: the power on each fascist slot, by the number of players the game started with.
POWER_TRACK = {5: _SMALL, 6: _SMALL, 7: _MEDIUM, 8: _MEDIUM, 9: _LARGE, 10: _LARGE}


def party_of(role: Role) -> Party:
    """R2: fascists and Hitler are both members of the fascist party."""
    return Party.LIBERAL if role == Role.LIBERAL else Party.FASCIST


class Deck(NamedTuple):
    """The policies a game starts with: in its draw pile, and fascist ones already enacted."""

    liberals: int
    fascists: int
    enacted_fascists: int = 0

    @property
    def size(self) -> int:
        return self.liberals + self.fascists


def deck_for(players: int, *, rebalanced: bool) -> Deck:
    """R4, or the house rule `rebalanced` where it applies to `players`."""
    if rebalanced and players in REBALANCED:
        return Deck(DECK_LIBERALS, *REBALANCED[players])
    return Deck(DECK_LIBERALS, DECK_FASCISTS)


def power_for(players_at_start: int, fascist_policies: int) -> Power | None:
    """R20: the power granted by the fascist policy just enacted (the nth, counting from 1)."""
    track = POWER_TRACK[players_at_start]
    if 1 <= fascist_policies <= len(track):
        return track[fascist_policies - 1]
    return None
