"""Second factors (allauth.mfa) where a game's secrets are: moderators and staff must have one, and must have proved
it in the session they use, before any moderation page or the admin. A player may choose one.

A session proves a second factor when allauth recorded one in it: a code or a security key after the password, a
passkey alone, a recovery code, or asked again (reauthentication) by one of those. A session signed in with the
password alone, before the account had a second factor, is asked for it on the way in."""

from functools import wraps

from allauth.account.authentication import get_authentication_records
from allauth.account.internal.flows.login import record_authentication
from allauth.mfa.models import Authenticator
from allauth.mfa.utils import is_mfa_enabled
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from games.access import is_moderator

FACTORS = (Authenticator.Type.TOTP, Authenticator.Type.WEBAUTHN)  # recovery codes only stand in for one of these


def must_have_second_factor(user) -> bool:
    """Who can see a running game's secrets or the admin: the moderators, staff and superusers."""
    return bool(user.is_authenticated and (user.is_staff or user.is_superuser or is_moderator(user)))


def has_second_factor(user) -> bool:
    return is_mfa_enabled(user, types=list(FACTORS))


def proved_second_factor(request) -> bool:
    """Whether this session signed in, or was asked again, with a second factor (or added one)."""
    records = get_authentication_records(request, request.user)
    return any(record.get("method") == "mfa" for record in records)


def record_added_factor(request, user, authenticator) -> None:
    """Adding an authenticator app (its code checked) or a security key (its signature checked) proves it: the session
    that added it counts as signed in with it."""
    if request is not None and authenticator.type in FACTORS and request.user.pk == user.pk:
        record_authentication(request, user, "mfa", id=authenticator.pk, type=authenticator.type)


def refusal(request) -> HttpResponseRedirect | None:
    """None when the request may go on; else where to go first: set up a second factor, or use the one the
    account has in this session. Back here after either."""
    user = request.user
    if not must_have_second_factor(user):
        return None
    here = {"next": request.get_full_path()}
    if not has_second_factor(user):
        messages.warning(
            request,
            _("Moderators and staff need a second factor to go on: set up an authenticator app or a security key."),
        )
        return HttpResponseRedirect(f"{reverse('mfa_index')}?{urlencode(here)}")
    if not proved_second_factor(request):
        types = set(Authenticator.objects.filter(user=user).values_list("type", flat=True))
        address = "mfa_reauthenticate" if Authenticator.Type.TOTP in types else "mfa_reauthenticate_webauthn"
        return HttpResponseRedirect(f"{reverse(address)}?{urlencode(here)}")
    return None


def second_factor_required(view):
    """The view, for moderators and staff only once their session proved a second factor (others pass)."""

    @wraps(view)
    def guarded(request, *args, **kwargs):
        return refusal(request) or view(request, *args, **kwargs)

    return guarded
