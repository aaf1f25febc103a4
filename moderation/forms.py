"""Every POST and search of the moderator panel goes through one of these forms, which refuse bad input (NUL
bytes, oversize values, wrong types, unknown actions) once for all, with a message in the reader's language."""

from django import forms
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

GAME_ACTIONS = ("pause", "resume", "extend", "end_now", "excuse", "exile", "replace", "cancel", "lock", "unlock")
NEEDS_PLAYER = ("excuse", "exile", "replace")
NAME_LENGTH = 150  # a user name's longest
TEXT_LENGTH = 2000
SEARCH_LENGTH = 1000  # the middleware refuses longer query values with a message


def reason_field() -> forms.CharField:
    return forms.CharField(
        max_length=TEXT_LENGTH, error_messages={"required": _("Give a reason: it goes in the audit log.")}
    )


class GameActionForm(forms.Form):
    """An intervention on a game, made from the page of its step `step` (a stale page is refused)."""

    action = forms.ChoiceField(choices=[(action, action) for action in GAME_ACTIONS])
    step = forms.IntegerField(min_value=0, error_messages={"required": _("The form is incomplete: reload the page.")})
    reason = reason_field()
    hours = forms.IntegerField(required=False, min_value=1, max_value=720)
    player = forms.CharField(required=False, max_length=NAME_LENGTH)
    newcomer = forms.CharField(required=False, max_length=NAME_LENGTH)
    confirm = forms.BooleanField(required=False)
    deadline = forms.DateTimeField(required=False)  # extend: the deadline the page showed

    def clean(self):
        data = super().clean()
        action = data.get("action")
        if action == "cancel" and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to confirm: cancelling a game cannot be undone."))
        if action == "extend" and data.get("hours") is None:
            self.add_error("hours", _("An extension is from 1 hour to 30 days."))
        if action in NEEDS_PLAYER and not data.get("player"):
            self.add_error("player", _("Choose a player."))
        if action == "replace" and not data.get("newcomer"):
            self.add_error("newcomer", _("Name the account that takes the seat."))
        return data


class ReasonForm(forms.Form):
    reason = reason_field()


class ResolveForm(forms.Form):
    resolution = reason_field()


class ReportForm(forms.Form):
    reason = forms.CharField(
        max_length=TEXT_LENGTH, error_messages={"required": _("Say what is wrong with this post.")}
    )


class BanForm(forms.Form):
    days = forms.IntegerField(
        min_value=1, max_value=3650, error_messages={"min_value": _("A ban lasts from 1 day to 10 years.")}
    )
    reason = reason_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["days"].error_messages["max_value"] = self.fields["days"].error_messages["min_value"]


class PostVisibilityForm(forms.Form):
    hide = forms.ChoiceField(choices=[("yes", "yes"), ("no", "no")])
    reason = reason_field()
    next = forms.CharField(required=False, max_length=500)

    def clean_next(self) -> str:
        """Only a path on this site: anything else (another host, `0`, `<b>`) is dropped."""
        target = self.cleaned_data["next"]
        if target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts=None):
            return target
        return ""


class SearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=SEARCH_LENGTH, strip=True)
    page = forms.IntegerField(required=False, min_value=1)

    def query(self) -> str:
        return self.cleaned_data.get("q", "") if self.is_valid() else ""
