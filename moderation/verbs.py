"""A moderator's verbs on a game, one entry each: the options it takes from the form, the game service it calls
(which announces it in the game's log, as the log has no other writer) and its name in the audit log. The form,
the panel's view and the dispatch in `services.game_action` are derived from this registry: a new verb is one
entry here and its button."""

from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.services import interventions

NAME_LENGTH = 150  # a user name's longest


@dataclass(frozen=True)
class Option:
    """A value a verb takes from the form, besides the action, the page's step and the reason."""

    field: Callable[[], forms.Field]
    missing: Promise | str = ""  # the form's message when a verb that requires it is sent without it
    public: bool = True  # in the thread's log and the audit entry (the deadline a page showed is not)


OPTIONS = {
    "hours": Option(
        lambda: forms.IntegerField(required=False, min_value=1, max_value=720),
        _("An extension is from 1 hour to 30 days."),
    ),
    "player": Option(lambda: forms.CharField(required=False, max_length=NAME_LENGTH), _("Choose a player.")),
    "newcomer": Option(
        lambda: forms.CharField(required=False, max_length=NAME_LENGTH), _("Name the account that takes the seat.")
    ),
    "deadline": Option(lambda: forms.DateTimeField(required=False), public=False),  # extend: the page's deadline
}


@dataclass(frozen=True)
class Verb:
    """One intervention. `run(moderator, game, step=, now=, **options)` returns False when it changed nothing."""

    name: str
    run: Callable[..., bool | None]
    options: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    audited_as: str = ""  # the audit log's name for it, when not the verb's own
    confirm: Promise | str = ""  # cannot be undone: the form asks to tick a box, with this message

    @property
    def audit_name(self) -> str:
        return self.audited_as or self.name


def _intervention(verb, *named):
    """A game service verb, called with the game, the moderator, the options it names, the step and the time."""

    def run(moderator, game, *, step, now, **options):
        return verb(game.pk, moderator, *(options[name] for name in named), step=step, now=now)

    return run


def _extend(moderator, game, *, step, now, hours, deadline=None):
    return interventions.extend(game.pk, moderator, hours=hours, step=step, seen_deadline=deadline, now=now)


def _thread(verb):
    """Locking or unlocking the thread, from a page of any step of the game: neither depends on the step, and a
    repeated click finds the thread already so."""

    def run(moderator, game, *, step, now):
        return verb(game.pk, moderator, now=now)

    return run


_PLAYER = ("player",)
VERBS = {
    verb.name: verb
    for verb in (
        Verb("pause", _intervention(interventions.pause)),
        Verb("resume", _intervention(interventions.resume)),
        Verb("extend", _extend, options=("hours", "deadline"), required=("hours",)),
        Verb("end_now", _intervention(interventions.end_now)),
        Verb("excuse", _intervention(interventions.excuse, "player"), options=_PLAYER, required=_PLAYER),
        Verb("exile", _intervention(interventions.exile, "player"), options=_PLAYER, required=_PLAYER),
        Verb(
            "replace",
            _intervention(interventions.replace, "player", "newcomer"),
            options=("player", "newcomer"),
            required=("player", "newcomer"),
        ),
        Verb(
            "cancel",
            _intervention(interventions.cancel),
            confirm=_("Tick the box to confirm: cancelling a game cannot be undone."),
        ),
        Verb("lock", _thread(interventions.lock_thread), audited_as="lock_thread"),
        Verb("unlock", _thread(interventions.unlock_thread), audited_as="unlock_thread"),
    )
}
