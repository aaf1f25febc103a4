from .forum import Claim, Post, PostRevision, ThreadRead
from .game import Absence, ActionRecord, Game, GameEvent, Seat, SweepRun
from .profile import Profile

__all__ = [
    "Absence",
    "ActionRecord",
    "Claim",
    "Game",
    "GameEvent",
    "Post",
    "PostRevision",
    "Profile",
    "Seat",
    "SweepRun",
    "ThreadRead",
]
