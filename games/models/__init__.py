from .api import ApiRequestCount, ApiToken
from .forum import Claim, Post, PostRevision, ThreadRead
from .game import Absence, ActionRecord, Game, GameEvent, Seat, SweepRun
from .notify import InboundEmail, Notification, SentEmail
from .profile import Profile
from .webhooks import WebhookDelivery, WebhookSubscription

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
    "WebhookDelivery",
    "WebhookSubscription",
]
