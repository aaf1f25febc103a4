"""The service layer: every change to a game goes through these functions, whoever asks (a view, a Celery
task, a management command or the moderator panel), in one transaction with the game row locked."""

from .absences import declare_absence, end_absence
from .deadlines import sweep_due_deadlines
from .errors import GameError
from .interventions import cancel, end_now, excuse, exile, extend, lock_thread, pause, replace, resume, unlock_thread
from .lobby import close_stale_lobbies, create_game, join_game, leave_game, request_resignation
from .moves import make_move
from .records import has_recent_exile, participation_record, participation_records

__all__ = [
    "GameError",
    "cancel",
    "close_stale_lobbies",
    "create_game",
    "declare_absence",
    "end_absence",
    "end_now",
    "excuse",
    "exile",
    "extend",
    "has_recent_exile",
    "join_game",
    "leave_game",
    "lock_thread",
    "make_move",
    "participation_record",
    "participation_records",
    "pause",
    "replace",
    "request_resignation",
    "resume",
    "sweep_due_deadlines",
    "unlock_thread",
]
