"""The private panel's forms: the owed move, claims, absences, resignation. Each POSTs to the service layer
with the step number it was made for; the server decides, whatever the form offered."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from games.forms import (
    AbsenceForm,
    ClaimForm,
    MoveForm,
    ProposalBallotForm,
    ProposalForm,
    WithdrawAbsenceForm,
    aware,
)
from games.models import Absence
from games.presenters import claim_question
from games.services import GameError, absences, declare_absence, make_move, request_resignation
from games.services.forum import check_claim, file_claim
from games.services.moves import check_move
from games.services.proposals import propose, vote_on_proposal
from games.wording import confirm_question, done_message

from .common import attempt, came_by_key, first_error, reach, refused, submit


def _back(request, game_id: int, anchor: str) -> str:
    """The game's page, at its link key if the form was sent there, else at its number."""
    key = request.resolver_match.kwargs["game_key"] if came_by_key(request, game_id) else None
    return reverse("games:thread", args=[key or game_id]) + anchor


@sensitive_post_parameters()  # a discard or a vote is a secret: never in an error email
@login_required
@require_POST
def move(request, game_id: int):
    form = MoveForm(request.POST)
    if not form.is_valid():
        reach(request, game_id)  # no such game: a 404, not a refusal that sends back to a page that does not exist
        return refused(request, first_error(form), _back(request, game_id, "#panel"))
    if form.needs_confirmation():
        return _confirm(request, reach(request, game_id), form)

    def make() -> None:
        # The move reads the game once, locking its row: no query before it to ask whether the game exists.
        try:
            events = make_move(game_id, request.user, form.move(), form.cleaned_data["step_number"])
        except GameError as error:
            if error.code == "no_such_game":
                raise Http404(str(error)) from None
            reach(request, game_id)  # a stranger at an unlisted game's number: a 404, never that it refused
            raise
        messages.success(request, done_message(form.move(), events))  # what the move did: a vote it closed

    return attempt(request, make, _back(request, game_id, "#panel"))


def _confirm(request, game, form: MoveForm):
    """Ask before an irreversible move (with JavaScript the page asked already and this is skipped). A move the
    service would refuse is refused now, not after the question."""
    try:
        check_move(game.pk, request.user, form.move(), form.cleaned_data["step_number"])
    except GameError as error:
        return refused(request, error, _back(request, game.pk, "#panel"))
    return _ask(
        request,
        game,
        game.address("move"),
        confirm_question(form.move(), execution_vote=game.rules.execution_vote),
        form.confirmed_fields(),
    )


def _ask(request, game, action: str, question: str, fields: list[tuple[str, str]]):
    """The page that asks before an irreversible form is sent (without JavaScript): yes POSTs it again."""
    context = {"game": game, "action": action, "question": question, "fields": fields}
    return render(request, "games/confirm.html", context)


@sensitive_post_parameters()
@login_required
@require_POST
def claim(request, game_id: int):
    game = reach(request, game_id)
    form = ClaimForm(request.POST)
    if not form.is_valid():
        return refused(request, _("A claim is 2 or 3 cards, each L or F."), _back(request, game.pk, "#history"))
    if form.cleaned_data["confirmed"] != "yes":  # public and final: asked first, as a move is
        data = form.cleaned_data
        try:
            office = check_claim(game.pk, request.user, data["round"], data["cards"])
        except GameError as error:
            return refused(request, error, _back(request, game.pk, "#panel"))
        question = claim_question(office, data["round"], data["cards"].upper())
        fields = [("round", str(data["round"])), ("cards", data["cards"].upper())]
        return _ask(request, game, game.address("claim"), question, fields)

    def file(data: dict) -> None:
        file_claim(game.pk, request.user, data["round"], data["cards"])

    return submit(request, form, file, _back(request, game.pk, "#history"), _("Your claim is on the record."))


@login_required
@require_POST
def absence(request, game_id: int):
    """An absence announced from the game's panel; refused, its form again with the dates as typed and why under
    them (a 400: nothing changed)."""
    game = reach(request, game_id)
    form = AbsenceForm(request.POST)
    back = _back(request, game.pk, "#panel")
    if form.is_valid():
        data = form.cleaned_data
        try:
            declare_absence(game.pk, request.user, aware(data["starts_at"]), aware(data["ends_at"]))
        except GameError as error:
            form.add_error(None, str(error))
    if form.is_valid():
        messages.success(request, _("Your absence is announced: misses whose deadline falls inside it are excused."))
        return HttpResponseRedirect(back)
    return render(request, "games/absence.html", {"game": game, "absence_form": form, "back": back}, status=400)


@login_required
@require_POST
def withdraw_absence(request, absence_id: int):
    """The player's own absence withdrawn (not begun) or ended (under way); back to where the list was."""
    form = WithdrawAbsenceForm(request.POST)
    game_id = Absence.objects.filter(pk=absence_id, seat__user=request.user).values_list("seat__game", flat=True)
    back = _back(request, game_id[0], "#absences") if game_id and not form.from_profile() else reverse("games:absences")
    try:
        absence = absences.withdraw_absence(absence_id, request.user)
    except GameError as error:
        return refused(request, error, back)
    messages.success(request, _("Welcome back.") if absence.ended_early_at else _("Your absence is withdrawn."))
    return HttpResponseRedirect(back)


@login_required
@require_POST
def resign(request, game_id: int):
    game = reach(request, game_id)
    done = _("A moderator will hand your seat to someone else. Thank you for telling us.")
    return attempt(request, lambda: request_resignation(game.pk, request.user), _back(request, game.pk, "#panel"), done)


@login_required
@require_POST
def proposal(request, game_id: int):
    """A living player proposes to pause, resume or extend; the table votes on it from their panels."""
    game = reach(request, game_id)

    def make(data: dict) -> None:
        until = aware(data["until"]) if data["until"] else None
        propose(game.pk, request.user, data["kind"], hours=data["hours"], reason=data["reason"], until=until)

    done = _("Your proposal is open: the table votes on it from their panels.")
    return submit(request, ProposalForm(request.POST), make, _back(request, game.pk, "#proposal"), done)


@login_required
@require_POST
def proposal_ballot(request, game_id: int):
    game = reach(request, game_id)

    def cast(data: dict) -> bool:
        return vote_on_proposal(game.pk, request.user, data["proposal"], data["vote"] == "yes")

    done = _("Your vote is counted.")
    return submit(request, ProposalBallotForm(request.POST), cast, _back(request, game.pk, "#proposal"), done)
