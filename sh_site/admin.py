"""Django's admin behind the site's sign-in: signing in through allauth's pages (a second factor included), and every
admin page refused to staff whose session has not proved a second factor (sh_site/second_factor.py)."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin

from .second_factor import refusal


class AdminSite(admin.AdminSite):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.login = secure_admin_login(self.login)  # Django's own form would take a password alone

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
