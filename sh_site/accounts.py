"""django-allauth, as the site uses it: its emails sign as the site, whatever host the request came through, and are
written in their reader's language and time zone; every field of its forms has a length limit before it reaches a
query; and ending one of a person's sessions also stops pushes to the devices subscribed in it."""

import time
from dataclasses import dataclass
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from allauth.account import forms as allauth
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.authentication import get_authentication_records
from allauth.account.models import EmailAddress
from allauth.mfa.base import forms as mfa_base
from allauth.mfa.recovery_codes import forms as mfa_recovery_codes
from allauth.mfa.totp import forms as mfa_totp
from allauth.mfa.webauthn import forms as mfa_webauthn
from allauth.usersessions.adapter import DefaultUserSessionsAdapter
from django import forms
from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import PermissionDenied
from django.core.validators import MaxLengthValidator
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.models.names import check_name_distinct

# A login is a user name (150) or an email address (254 to Django's EmailField's 320); a password is bounded
# only so that hashing and comparing cost little, far above what any pass phrase needs. Anything else allauth
# asks (codes, reset keys) is short.
# A security key's signed answer (WebAuthn "credential", JSON with its attestation) runs to a few kilobytes.
MAX_LENGTHS = {"login": 320, "email": 320, "email2": 320, "username": 150, "credential": 20_000}
MAX_PASSWORD = 1_000
MAX_OTHER = 200


@dataclass(frozen=True)
class SiteIdentity:
    """What allauth's email templates read of `current_site`."""

    name: str
    domain: str


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """In the language of the account the address is theirs, when it is someone's (a security notice, a password
        reset asked from another browser); else in the page's."""
        site = SiteIdentity(settings.SITE_NAME, urlsplit(settings.SITE_URL).netloc)
        profile = reader_profile(email)
        with (
            translation.override(profile.language if profile else translation.get_language()),
            timezone.override(ZoneInfo(profile.time_zone) if profile else timezone.get_current_timezone()),
        ):
            # allauth's own, but for the site it names: it would read the host of the request, which a notice sent
            # once a transaction commits may no longer have
            request = getattr(self, "request", None)
            self.render_mail(
                template_prefix, email, {"request": request, "email": email, "current_site": site, **context}
            ).send()

    def is_reauthentication_required(self, *, app: str, **kwargs) -> bool:
        """allauth's rule (asked again before what matters), where a sign-in within the last
        ACCOUNT_REAUTHENTICATION_TIMEOUT seconds counts as having been asked: the person has just given their
        password or second factor, and is not asked for it twice in a row."""
        if not super().is_reauthentication_required(app=app, **kwargs):
            return False
        return not signed_in_recently(self.request)

    def format_email_subject(self, subject: str) -> str:
        return f"[{settings.SITE_NAME}] {subject}"

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's checks, then: no name a reader could take for another account's ("lucía" beside "lucia"). A
        shallow check (allauth making up a name) only wants a free one."""
        username = super().clean_username(username, shallow=shallow)
        if not shallow:
            check_name_distinct(username)
        return username


def signed_in_recently(request) -> bool:
    """Whether this session proved who it is (a password, a code, a key) within ACCOUNT_REAUTHENTICATION_TIMEOUT."""
    if request is None or not request.user.is_authenticated:
        return False
    records = get_authentication_records(request, request.user)
    return any(time.time() - record.get("at", 0) < settings.ACCOUNT_REAUTHENTICATION_TIMEOUT for record in records)


def reader_profile(email: str):
    """The profile (language, time zone) of the account whose address `email` is, or None."""
    owner = EmailAddress.objects.filter(email__iexact=email).select_related("user__profile").first()
    return getattr(owner.user, "profile", None) if owner is not None else None


class UserSessionsAdapter(DefaultUserSessionsAdapter):
    def end_sessions(self, sessions) -> None:
        """Each session signed out, and the devices subscribed in it no longer pushed to, as signing out there would
        (games/services/devices.py)."""
        from games.services.devices import SESSION_DEVICES, remove_devices

        for session in sessions:
            data = _session_data(session.session_key)
            device_ids = [number for number in data.get(SESSION_DEVICES, []) if isinstance(number, int)]
            if device_ids:
                remove_devices(session.user_id, device_ids)  # by id: no query for the user
        super().end_sessions(sessions)


TRACKED = "usersession_tracked"  # in a session's data: allauth's list of sessions has it


def tracked_sessions(get_response):
    """Every signed-in session in the person's list of sessions (allauth.usersessions), so that "sign out the
    others" and a moderator's reset reach it: allauth lists a session when it signs in, and this adds, once, those
    that signed in another way or before the list existed. A request of a session already listed costs nothing."""
    from allauth.usersessions.models import UserSession

    def middleware(request):
        session = getattr(request, "session", None)
        if request.user.is_authenticated and session is not None and session.session_key and not session.get(TRACKED):
            try:
                UserSession.objects.create_from_request(request)
                session[TRACKED] = True
            except PermissionDenied:  # no address to list it under (allauth needs one): listed at its next sign-in
                pass
        return get_response(request)

    return middleware


def _session_data(session_key: str) -> dict:
    from importlib import import_module

    store: SessionBase = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return dict(store.load()) if store.exists(session_key) else {}


def bound_lengths(form: forms.Form) -> None:
    """Give every text field of `form` a maximum length (a form error past it), where allauth gives none: on
    SQLite a 60,000-character login made the case-insensitive user lookup fail ("LIKE or GLOB pattern too
    complex"), a 500."""
    for name, field in form.fields.items():
        if not isinstance(field, forms.CharField):
            continue
        limit = MAX_PASSWORD if "password" in name else MAX_LENGTHS.get(name, MAX_OTHER)
        if field.max_length is not None and field.max_length <= limit:
            continue
        field.max_length = limit
        field.validators.append(MaxLengthValidator(limit))
        field.widget.attrs["maxlength"] = str(limit)


class Bounded:
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        bound_lengths(self)


class SignupForm(Bounded, allauth.SignupForm):
    def clean_password2(self) -> str:
        """The two passwords differ: said with every other error. allauth compares them only after its password
        rules passed (a refused password leaves the form's cleaned data): compared here, before those rules run,
        a mismatch is not held back until everything else is put right."""
        password2 = self.cleaned_data["password2"]
        password1 = self.cleaned_data.get("password1")
        if password1 and password2 and password1 != password2:
            raise forms.ValidationError(_("You must type the same password each time."))
        return password2


# Every form allauth lets a project replace, bounded (settings.ACCOUNT_FORMS names them).
# fmt: off
class LoginForm(Bounded, allauth.LoginForm): ...
class AddEmailForm(Bounded, allauth.AddEmailForm): ...
class ChangeEmailForm(Bounded, allauth.ChangeEmailForm): ...
class ChangePasswordForm(Bounded, allauth.ChangePasswordForm): ...
class SetPasswordForm(Bounded, allauth.SetPasswordForm): ...
class ResetPasswordForm(Bounded, allauth.ResetPasswordForm): ...
class ResetPasswordKeyForm(Bounded, allauth.ResetPasswordKeyForm): ...
class UserTokenForm(Bounded, allauth.UserTokenForm): ...
class ReauthenticateForm(Bounded, allauth.ReauthenticateForm): ...
class RequestLoginCodeForm(Bounded, allauth.RequestLoginCodeForm): ...
class ConfirmLoginCodeForm(Bounded, allauth.ConfirmLoginCodeForm): ...
class ConfirmEmailVerificationCodeForm(Bounded, allauth.ConfirmEmailVerificationCodeForm): ...
class ConfirmPasswordResetCodeForm(Bounded, allauth.ConfirmPasswordResetCodeForm): ...
class ConfirmReauthenticationCodeForm(Bounded, allauth.ConfirmReauthenticationCodeForm): ...
class ChangePhoneForm(Bounded, allauth.ChangePhoneForm): ...
class VerifyPhoneForm(Bounded, allauth.VerifyPhoneForm): ...
# and the second factors' (settings.MFA_FORMS)
class MFAAuthenticateForm(Bounded, mfa_base.AuthenticateForm): ...
class MFAReauthenticateForm(Bounded, mfa_base.ReauthenticateForm): ...
class ActivateTOTPForm(Bounded, mfa_totp.ActivateTOTPForm): ...
class DeactivateTOTPForm(Bounded, mfa_totp.DeactivateTOTPForm): ...
class GenerateRecoveryCodesForm(Bounded, mfa_recovery_codes.GenerateRecoveryCodesForm): ...
class AddWebAuthnForm(Bounded, mfa_webauthn.AddWebAuthnForm): ...
class SignupWebAuthnForm(Bounded, mfa_webauthn.SignupWebAuthnForm): ...
class EditWebAuthnForm(Bounded, mfa_webauthn.EditWebAuthnForm): ...
class AuthenticateWebAuthnForm(Bounded, mfa_webauthn.AuthenticateWebAuthnForm): ...
class LoginWebAuthnForm(Bounded, mfa_webauthn.LoginWebAuthnForm): ...
class ReauthenticateWebAuthnForm(Bounded, mfa_webauthn.ReauthenticateWebAuthnForm): ...
# fmt: on


def sign_out(request, *args, **kwargs):
    """allauth's sign-out, and the browser told to forget what the site kept in it (Clear-Site-Data)."""
    from allauth.account.views import logout

    from games.views.common import FORGET

    response = logout(request, *args, **kwargs)
    if request.method == "POST" and not request.user.is_authenticated:
        response["Clear-Site-Data"] = FORGET
    return response
