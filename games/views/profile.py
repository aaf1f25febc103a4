"""Profiles: each user's own settings, the public participation record (E6), and deleting an account."""

from datetime import timedelta

from allauth.account.decorators import reauthentication_required
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from games.forms import AbsenceForm, ApiTokenForm, ProfileForm, aware
from games.models import Absence, ApiToken, Game, Profile, Seat
from games.services import GameError, participation_record, ratings
from games.services.absences import declare_vacation
from games.services.accounts import delete_account
from games.stats import player_stats, rating_plot

from .common import FORGET, reach


def user_profile(request, username: str):
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    seats = user.seats.filter(game__visibility=Game.Visibility.PUBLIC).select_related("game")
    seats = seats.order_by("-game__created_at")[:50]
    profile = Profile.for_reading(user)
    history = ratings.history(user)
    season = ratings.season_of(timezone.now())
    return render(
        request,
        "games/user_profile.html",
        {
            "profile_user": user,
            "profile": profile,
            "record": participation_record(user),
            "played": player_stats(user, claims=profile.show_claims),
            "seats": seats,
            "rating": ratings.overall_of(user),
            "season": season,
            "season_rating": ratings.rating_in(user, season),
            "history": history,
            "plot": rating_plot(history),
        },
    )


def player_profile(request, game_id: int, name: str):
    """The profile of whoever sat at the game's table as `name`: a game's pages name its players as the game knows
    them, which stays the name they joined with when their account is renamed; the account is found by the seat."""
    reach(request, game_id)  # who sits at an unlisted game's table is nothing a stranger learns at its number
    seated = Seat.objects.filter(game_id=game_id, name=name, number__isnull=False, user__is_active=True)
    seat = get_object_or_404(seated.select_related("user"))
    return redirect("games:user_profile", seat.user.get_username())


@login_required
def edit_profile(request):
    if request.method == "POST":
        profile = Profile.of(request.user, request)
    else:
        profile = Profile.for_reading(request.user, request)  # shown, not made: it is made when saved
    form = ProfileForm(request.POST or None, instance=profile, browser_zone=request.COOKIES.get("tz", ""))
    if request.method == "POST" and form.is_valid():
        profile = form.save()
        with translation.override(profile.language):  # the next page speaks the language just chosen
            messages.success(request, _("Your profile is saved."))
        return redirect("games:edit_profile")
    calendar = profile.calendar_token
    return render(
        request,
        "games/edit_profile.html",
        {
            "form": form,
            "record": participation_record(request.user),
            "calendar_url": request.build_absolute_uri(reverse("games:calendar", args=[calendar])) if calendar else "",
            "email_refused": profile.email_refused
            if profile.email_refused and profile.email_refused.lower() == request.user.email.lower()
            else "",
        },
    )


@login_required
def absences(request):
    """Every absence the user announced, in every game, and a vacation: one absence in each running game. A vacation
    refused everywhere (dates no game allows, or each game's own refusal) answers 400: nothing changed."""
    form = AbsenceForm(request.POST or None)
    results, status = [], 200
    if request.method == "POST":
        results = _vacation(request, form)
        if not form.is_valid() or (results and not any(result["absence"] for result in results)):
            status = 400
    announced = (
        Absence.objects.filter(seat__user=request.user, ends_at__gt=timezone.now() - timedelta(days=30))
        .select_related("seat__game")
        .order_by("starts_at")
    )
    context = {"form": form, "results": results, "absences": announced, "now": timezone.now(), "back": "profile"}
    return render(request, "games/absences.html", context, status=status)


def _vacation(request, form: AbsenceForm) -> list[dict]:
    """The vacation's results game by game; dates refused for all games go on the form as its error."""
    if not form.is_valid():
        return []
    data = form.cleaned_data
    try:
        results = declare_vacation(request.user, aware(data["starts_at"]), aware(data["ends_at"]))
    except GameError as error:
        form.add_error(None, str(error))
        return []
    if not results:
        messages.info(request, _("You hold no seat in a running game: there is nothing to be away from."))
    return results


@login_required
@reauthentication_required(allow_get=True)  # asked again: the password, or a second factor
def delete(request):
    if request.method == "POST" and request.POST.get("confirm") == request.user.get_username():
        delete_account(request.user)
        logout(request)
        messages.success(request, _("Your account is deleted. Your posts stay, signed by a deleted user."))
        response = redirect("games:home")
        response["Clear-Site-Data"] = FORGET  # what the site kept in this browser: its kept pages, its devices
        return response
    if request.method == "POST":
        messages.error(request, _("Type your user name to confirm."))
    return render(request, "games/delete_account.html")


@require_POST
def choose_language(request):
    """The language switcher: remembered in the profile once signed in, in a cookie before."""
    language = request.POST.get("language")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        Profile.objects.filter(pk=Profile.of(request.user, request).pk).update(language=language)
    return set_language(request)


@login_required
@reauthentication_required(allow_get=True)  # a token is a credential of its own: made after a recent sign-in
def api_tokens(request):
    """The user's API tokens: made here (the token shown once, then only its first characters), and revoked."""
    form = ApiTokenForm(request.POST or None)
    secret = ""
    if request.method == "POST" and form.is_valid():
        secret = ApiToken.new_secret()
        token = form.save(commit=False)
        token.user, token.created_at = request.user, timezone.now()
        token.digest, token.prefix = ApiToken.digest_of(secret), secret[:8]
        token.save()
        form = ApiTokenForm()
    tokens = ApiToken.objects.filter(user=request.user, revoked_at=None)
    return render(
        request,
        "games/api_tokens.html",
        {"form": form, "tokens": tokens, "secret": secret, "docs": reverse("api:openapi-view")},
    )


@login_required
@require_POST
def revoke_api_token(request, token_id: int):
    revoked = ApiToken.objects.filter(pk=token_id, user=request.user, revoked_at=None).update(revoked_at=timezone.now())
    if revoked:
        messages.success(request, _("The token is revoked: it no longer works."))
    else:
        messages.info(request, _("Nothing changed: it was already done."))
    return redirect("games:api_tokens")
