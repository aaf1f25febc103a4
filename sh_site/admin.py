"""Django's admin behind the site's sign-in: nobody signs in or changes a password through the admin's own forms
(they take a password alone, past every limit and notice); every admin page is refused to staff whose session has
not proved a second factor (sh_site/second_factor.py); and second factors are listed there without their secrets,
read only: a lost one is reset by a moderator, on the record."""

from allauth.account.decorators import secure_admin_login
from allauth.mfa.models import Authenticator
from django.contrib import admin
from django.http import HttpResponseRedirect
from django.urls import reverse

from .second_factor import refusal


class AdminSite(admin.AdminSite):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The site's sign-in (allauth's, second factor included) for visitors; staff already signed in go to the
        # index; anyone else signed in is refused (403). Django's form, which would sign in whoever's password is
        # posted to it, is never reached.
        self.login = secure_admin_login(self._to_index)

    def _to_index(self, request, extra_context=None):
        return HttpResponseRedirect(reverse("admin:index", current_app=self.name))

    def password_change(self, request, extra_context=None):
        """The site's own page: it asks the current password, tells the owner by email and keeps this session."""
        return HttpResponseRedirect(reverse("account_change_password"))

    def admin_view(self, view, cacheable=False):
        inner = super().admin_view(view, cacheable)

        def guarded(request, *args, **kwargs):
            if request.user.is_active and request.user.is_staff:
                refused = refusal(request)
                if refused is not None:
                    return refused
            return inner(request, *args, **kwargs)

        guarded.__dict__.update(inner.__dict__)
        return guarded


class SecondFactorAdmin(admin.ModelAdmin):
    """Whose account has which second factor, and when it was last used: never its secret (an app's seed, the
    recovery codes), and nothing changed here."""

    list_display = ("user", "type", "created_at", "last_used_at")
    list_filter = ("type",)
    search_fields = ("user__username",)
    fields = ("user", "type", "created_at", "last_used_at")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def register_second_factors(site: admin.AdminSite) -> None:
    """allauth.mfa registers its own admin, which shows and edits each secret: replaced by ours."""
    from allauth.mfa.admin import AuthenticatorAdmin  # here: importing it registers it on the site being made

    if site.is_registered(Authenticator) and isinstance(site._registry[Authenticator], AuthenticatorAdmin):
        site.unregister(Authenticator)
    if not site.is_registered(Authenticator):
        site.register(Authenticator, SecondFactorAdmin)
