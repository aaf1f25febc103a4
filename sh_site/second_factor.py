"""Second factors (allauth.mfa) where a game's secrets are: moderators and staff must have one, and must have proved
it in the session they use, before any moderation page or the admin. A player may choose one.

A session proves a second factor when allauth recorded one in it: a code or a security key after the password, a
passkey alone, a recovery code, or asked again (reauthentication) by one of those. A session signed in with the
password alone, before the account had a second factor, is asked for it on the way in."""

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
    """Adding the account's first authenticator app (its code checked) or security key (its signature checked) proves
    it: the session that added it counts as signed in with it. A later one is added only by a session that proved
    one already (`FactorChanges`)."""
    if request is None or authenticator.type not in FACTORS or request.user.pk != user.pk:
        return
    others = Authenticator.objects.filter(user=user, type__in=FACTORS).exclude(pk=authenticator.pk)
    if not others.exists():
        record_authentication(request, user, "mfa", id=authenticator.pk, type=authenticator.type)


def _prove(request, user) -> HttpResponseRedirect:
    """To the page that asks for the account's second factor (its app's code first, else its key), then back."""
    types = set(Authenticator.objects.filter(user=user).values_list("type", flat=True))
    address = "mfa_reauthenticate" if Authenticator.Type.TOTP in types else "mfa_reauthenticate_webauthn"
    return HttpResponseRedirect(f"{reverse(address)}?{urlencode({'next': _back(request)})}")


def _back(request) -> str:
    """Where to come back to: this page, or for a form sent here (which cannot be sent again by a link) the
    moderation dashboard or the admin's index it came from."""
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    return (
        reverse("admin:index") if request.path.startswith(reverse("admin:index")) else reverse("moderation:dashboard")
    )


def refusal(request) -> HttpResponseRedirect | None:
    """None when the request may go on; else where to go first: set up a second factor, or use the one the
    account has in this session. Back here after either."""
    user = request.user
    if not must_have_second_factor(user):
        return None
    if not has_second_factor(user):
        messages.warning(
            request,
            _(
                "Moderators and staff need a second factor to go on: set up an authenticator app or a security key, "
                "then go back to the page you wanted."
            ),
        )
        return HttpResponseRedirect(f"{reverse('mfa_index')}?{urlencode({'next': _back(request)})}")
    if not proved_second_factor(request):
        return _prove(request, user)
    return None


# allauth.mfa's pages that prove a factor (signing in with one, being asked for one): every other of its pages
# changes or shows the account's factors.
PROVING = {"mfa_authenticate", "mfa_reauthenticate", "mfa_reauthenticate_webauthn", "mfa_login_webauthn", "mfa_trust"}


class FactorChanges:
    """A session that never used the account's second factor (signed in with the password alone before the factor
    was set up, elsewhere) may neither see nor change the account's factors: asked for one first. Else being asked
    again by password would let it make recovery codes, or add a key, and so prove a factor of its own making."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        name = getattr(request.resolver_match, "url_name", None) or ""
        if not name.startswith("mfa_") or name in PROVING or not request.user.is_authenticated:
            return None
        if has_second_factor(request.user) and not proved_second_factor(request):
            return _prove(request, request.user)
        return None
