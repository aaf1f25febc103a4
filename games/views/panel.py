"""The private panel's forms: the owed move, claims, absences, resignation. Each POSTs to the service layer
with the step number it was made for; the server decides, whatever the form offered."""

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms import AbsenceForm, ClaimForm
from games.services import GameError, declare_absence, make_move, request_resignation
from games.services.forum import file_claim

from .common import attempt

MOVE_FIELDS = ("target", "vote", "policy")


def _back(game_id: int, anchor: str) -> str:
    return reverse("games:thread", args=[game_id]) + anchor


@login_required
@require_POST
def move(request, game_id: int):
    def make():
        try:
            step_number = int(request.POST.get("step_number", ""))
        except ValueError:
            raise GameError(_("The form is incomplete: reload the page.")) from None
        fields = {"type": request.POST.get("type", "")}
        fields.update({name: request.POST[name] for name in MOVE_FIELDS if request.POST.get(name)})
        if "accept" in request.POST:
            fields["accept"] = request.POST["accept"] == "yes"
        make_move(game_id, request.user, fields, step_number)

    return attempt(request, make, _back(game_id, "#panel"), _("Done."))


@login_required
@require_POST
def claim(request, game_id: int):
    def file():
        form = ClaimForm(request.POST)
        if not form.is_valid():
            raise GameError(_("A claim is 2 or 3 cards, each L or F."))
        file_claim(game_id, request.user, form.cleaned_data["round"], form.cleaned_data["cards"])

    return attempt(request, file, _back(game_id, "#history"), _("Your claim is on the record."))


@login_required
@require_POST
def absence(request, game_id: int):
    def declare():
        form = AbsenceForm(request.POST)
        if not form.is_valid():
            raise GameError(_("Give the start and the end of your absence."))
        starts, ends = _aware(form.cleaned_data["starts_at"]), _aware(form.cleaned_data["ends_at"])
        declare_absence(game_id, request.user, starts, ends)

    done = _("Your absence is announced: misses whose deadline falls inside it are excused.")
    return attempt(request, declare, _back(game_id, "#panel"), done)


@login_required
@require_POST
def resign(request, game_id: int):
    done = _("A moderator will hand your seat to someone else. Thank you for telling us.")
    return attempt(request, lambda: request_resignation(game_id, request.user), _back(game_id, "#panel"), done)


def _aware(moment: datetime) -> datetime:
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)
