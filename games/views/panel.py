"""The private panel's forms: the owed move, claims, absences, resignation. Each POSTs to the service layer
with the step number it was made for; the server decides, whatever the form offered."""

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.access import access_game
from games.forms import AbsenceForm, ClaimForm, MoveForm
from games.services import declare_absence, make_move, request_resignation
from games.services.forum import file_claim

from .common import attempt, refused, submit


def _back(game_id: int, anchor: str) -> str:
    return reverse("games:thread", args=[game_id]) + anchor


@login_required
@require_POST
def move(request, game_id: int):
    game = access_game(game_id)
    form = MoveForm(request.POST)

    def make(data: dict) -> None:
        make_move(game.pk, request.user, form.move(), data["step_number"])

    return submit(request, form, make, _back(game.pk, "#panel"), _("Done."))


@login_required
@require_POST
def claim(request, game_id: int):
    game = access_game(game_id)
    form = ClaimForm(request.POST)
    if not form.is_valid():
        return refused(request, _("A claim is 2 or 3 cards, each L or F."), _back(game.pk, "#history"))

    def file(data: dict) -> None:
        file_claim(game.pk, request.user, data["round"], data["cards"])

    return submit(request, form, file, _back(game.pk, "#history"), _("Your claim is on the record."))


@login_required
@require_POST
def absence(request, game_id: int):
    game = access_game(game_id)
    form = AbsenceForm(request.POST)
    if not form.is_valid():
        return refused(request, _("Give the start and the end of your absence."), _back(game.pk, "#panel"))

    def declare(data: dict) -> None:
        declare_absence(game.pk, request.user, _aware(data["starts_at"]), _aware(data["ends_at"]))

    done = _("Your absence is announced: misses whose deadline falls inside it are excused.")
    return submit(request, form, declare, _back(game.pk, "#panel"), done)


@login_required
@require_POST
def resign(request, game_id: int):
    game = access_game(game_id)
    done = _("A moderator will hand your seat to someone else. Thank you for telling us.")
    return attempt(request, lambda: request_resignation(game.pk, request.user), _back(game.pk, "#panel"), done)


def _aware(moment: datetime) -> datetime:
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)
