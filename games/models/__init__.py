from .forum import Claim, Post, PostRevision, ThreadRead
from .game import Absence, ActionRecord, Game, GameEvent, Seat, SweepRun
from .notify import Notification, SentEmail
from .profile import Profile

__all__ = [
    "Absence",
    "ActionRecord",
    "Claim",
    "Game",
    "GameEvent",
    "Notification",
    "Post",
    "PostRevision",
    "Profile",
    "Seat",
    "SentEmail",
    "SweepRun",
    "ThreadRead",
]
