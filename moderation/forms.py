"""Every POST and search of the moderator panel goes through one of these forms, which refuse bad input (NUL
bytes, oversize values, wrong types, unknown actions) once for all, with a message in the reader's language."""

from django import forms
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

from .verbs import OPTIONS, VERBS

TEXT_LENGTH = 2000
SEARCH_LENGTH = 1000  # the middleware refuses longer query values with a message


def reason_field() -> forms.CharField:
    return forms.CharField(
        max_length=TEXT_LENGTH, error_messages={"required": _("Give a reason: it goes in the audit log.")}
    )


class GameActionForm(forms.Form):
    """An intervention on a game, made from the page of its step `step` (a stale page is refused): the actions and
    their options are the verbs' (moderation.verbs)."""

    action = forms.ChoiceField(choices=[(name, name) for name in VERBS])
    step = forms.IntegerField(min_value=0, error_messages={"required": _("The form is incomplete: reload the page.")})
    reason = reason_field()
    confirm = forms.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update({name: option.field() for name, option in OPTIONS.items()})

    def clean(self):
        data = super().clean()
        verb = VERBS.get(data.get("action"))
        if verb is None:
            return data
        if verb.confirm and not data.get("confirm"):
            self.add_error("confirm", verb.confirm)
        for name in verb.required:
            if data.get(name) in (None, ""):
                self.add_error(name, OPTIONS[name].missing)
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
