from .api import ApiRequestCount, ApiToken
from .eligibility import Ban, SecretWitness
from .forum import Claim, Post, PostRevision, ThreadRead
from .game import Absence, ActionRecord, Game, GameEvent, Seat, SweepRun
from .names import NameSkeleton
from .notes import Note
from .notify import InboundEmail, Notification, SentEmail, SigningKey
from .profile import Profile, Rename
from .proposals import Proposal, ProposalBallot
from .push import PushDevice, PushMessage, PushPreferences
from .ratings import RatedGame, Rating, RatingChange, RatingLedger
from .webhooks import WebhookDelivery, WebhookSubscription

__all__ = [
    "Absence",
    "ActionRecord",
    "ApiRequestCount",
    "ApiToken",
    "Ban",
    "Claim",
    "Game",
    "GameEvent",
    "InboundEmail",
    "NameSkeleton",
    "Note",
    "Notification",
    "Post",
    "PostRevision",
    "Profile",
    "Proposal",
    "ProposalBallot",
    "PushDevice",
    "PushMessage",
    "PushPreferences",
    "RatedGame",
    "Rating",
    "RatingChange",
    "RatingLedger",
    "Rename",
    "Seat",
    "SecretWitness",
    "SentEmail",
    "SigningKey",
    "SweepRun",
    "ThreadRead",
    "WebhookDelivery",
    "WebhookSubscription",
]
