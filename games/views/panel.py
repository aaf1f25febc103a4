"""The private panel's forms: the owed move, claims, absences, resignation. Each POSTs to the service layer
with the step number it was made for; the server decides, whatever the form offered."""

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms import AbsenceForm, ClaimForm
from games.services import GameError, declare_absence, make_move, request_resignation
from games.services.forum import file_claim

from .common import load, refused

MOVE_FIELDS = {"target": str, "vote": str, "policy": str}


@login_required
@require_POST
def move(request, game_id: int):
    game, _state, _viewer = load(request, game_id)
    back = reverse("games:thread", args=[game.pk]) + "#panel"
    try:
        step_number = int(request.POST.get("step_number", ""))
    except ValueError:
        return refused(request, GameError(_("The form is incomplete: reload the page.")), back)
    move = {"type": request.POST.get("type", "")}
    for name in MOVE_FIELDS:
        if request.POST.get(name):
            move[name] = request.POST[name]
    if "accept" in request.POST:
        move["accept"] = request.POST["accept"] == "yes"
    try:
        make_move(game.pk, request.user, move, step_number)
    except GameError as error:
        return refused(request, error, back)
    messages.success(request, _("Done."))
    return redirect(back)


@login_required
@require_POST
def claim(request, game_id: int):
    game, _state, _viewer = load(request, game_id)
    back = reverse("games:thread", args=[game.pk]) + "#history"
    form = ClaimForm(request.POST)
    if not form.is_valid():
        return refused(request, GameError(_("A claim is 2 or 3 cards, each L or F.")), back)
    try:
        file_claim(game.pk, request.user, form.cleaned_data["round"], form.cleaned_data["cards"])
    except GameError as error:
        return refused(request, error, back)
    messages.success(request, _("Your claim is on the record."))
    return redirect(back)


@login_required
@require_POST
def absence(request, game_id: int):
    game, _state, _viewer = load(request, game_id)
    back = reverse("games:thread", args=[game.pk]) + "#panel"
    form = AbsenceForm(request.POST)
    if not form.is_valid():
        return refused(request, GameError(_("Give the start and the end of your absence.")), back)
    try:
        declare_absence(
            game.pk, request.user, _aware(form.cleaned_data["starts_at"]), _aware(form.cleaned_data["ends_at"])
        )
    except GameError as error:
        return refused(request, error, back)
    messages.success(request, _("Your absence is announced: misses whose deadline falls inside it are excused."))
    return redirect(back)


@login_required
@require_POST
def resign(request, game_id: int):
    game, _state, _viewer = load(request, game_id)
    back = reverse("games:thread", args=[game.pk]) + "#panel"
    try:
        request_resignation(game.pk, request.user)
    except GameError as error:
        return refused(request, error, back)
    messages.success(request, _("A moderator will hand your seat to someone else. Thank you for telling us."))
    return redirect(back)


def _aware(moment: datetime) -> datetime:
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)
