"""Celery tasks: take ids or nothing, have explicit names, return JSON."""

from celery import shared_task

from .models import SweepRun
from .services import close_stale_lobbies, sweep_due_deadlines


@shared_task(name="games.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> dict:
    """Run by beat every SWEEP_INTERVAL_SECONDS. Safe to run twice, or on several workers at once."""
    lobbies = close_stale_lobbies()
    handled = sweep_due_deadlines()
    SweepRun.record(handled)
    return {"deadlines": handled, "lobbies_closed": lobbies}
