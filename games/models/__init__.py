from .api import ApiRequestCount, ApiToken
from .forum import Claim, Post, PostRevision, ThreadRead
from .game import Absence, ActionRecord, Game, GameEvent, Seat, SweepRun
from .notify import InboundEmail, Notification, SentEmail
from .profile import Profile

__all__ = [
    "Absence",
    "ActionRecord",
    "ApiRequestCount",
    "ApiToken",
    "Claim",
    "Game",
    "GameEvent",
    "InboundEmail",
    "Notification",
    "Post",
    "PostRevision",
    "Profile",
    "Seat",
    "SentEmail",
    "SweepRun",
    "ThreadRead",
]
