"""Forms: what people type, checked and turned into service calls."""

from django import forms
from django.core.validators import MinValueValidator
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .engine.notation import KIND_VALUES, MOVE_FIELDS, PLAYER_FIELDS, PLAYER_MOVES
from .engine.settings import RULES, Rule
from .models import ApiToken, Game, Note, Post, Profile, Proposal
from .models.names import check_name_distinct
from .models.notes import NOTES_TOO_LONG
from .zones import zone_choices


class ZoneChoices:
    """A form whose time zone field offers the browser's zone first, then the common ones, then all, and keeps the
    zone it shows (a profile's, even one the full list leaves out)."""

    def __init__(self, *args, browser_zone: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        current = self.get_initial_for_field(self.fields["time_zone"], "time_zone") or ""
        self.fields["time_zone"].choices = zone_choices(browser_zone, current)


def rule_field(rule: Rule) -> forms.Field:
    """A house rule's field, from its declaration: one of its values, or a box to tick."""
    help_text = _(rule.help_text) if rule.help_text else ""
    if rule.choices:
        choices = [(value, _(label)) for value, label in rule.choices]
        return forms.ChoiceField(label=_(rule.label), choices=choices, initial=rule.default, help_text=help_text)
    return forms.BooleanField(label=_(rule.label), required=False, initial=rule.default, help_text=help_text)


# The house rules' fields, declared on a base so that GameForm (a model form) lists them among its own.
HouseRuleFields = type("HouseRuleFields", (forms.Form,), {rule.name: rule_field(rule) for rule in RULES})


# On a fast table (Game.minute_durations) the step durations count in minutes, and are named so.
MINUTE_LABELS = {
    "nomination_hours": _("minutes to nominate"),
    "election_hours": _("minutes from the round's start until the vote closes"),
    "discard_hours": _("minutes for the president to discard"),
    "legislative_hours": _("minutes from the session's start for the chancellor to enact"),
    "veto_reply_hours": _("minutes to answer a veto request"),
    "veto_enact_hours": _("minutes to enact after a refused veto"),
    "power_hours": _("minutes to use a power"),
    "execution_vote_hours": _("minutes for an execution vote"),
}


class GameForm(ZoneChoices, HouseRuleFields, forms.ModelForm):
    """A new game's settings. A vote closing before the nomination's deadline (T1) is refused by Game.clean, which
    this model form runs after its own checks, as create_game does: one check, one message, on the vote's field."""

    time_zone = forms.ChoiceField(label=_("time zone"), initial="UTC")
    # An hour at least each (the model's bound on T1-T3, and an absence's notice): the browser refuses 0 too.
    DURATIONS = (
        "nomination_hours",
        "election_hours",
        "discard_hours",
        "legislative_hours",
        "veto_reply_hours",
        "veto_enact_hours",
        "power_hours",
        "execution_vote_hours",
        "absence_notice_hours",
    )

    class Meta:
        model = Game
        fields = [
            "name",
            "player_count",
            "visibility",
            *(rule.name for rule in RULES),
            "minute_durations",
            "nomination_hours",
            "election_hours",
            "discard_hours",
            "legislative_hours",
            "veto_reply_hours",
            "veto_enact_hours",
            "power_hours",
            "execution_vote_hours",
            "deadline_hour",
            "time_zone",
            "absence_notice_hours",
            "absence_max_days",
            "exile_lookback_games",
            "lobby_days",
            "rated",
            "min_rating",
        ]
        labels = {
            "visibility": _("visibility"),
            "minute_durations": _("a fast table: the durations below count in minutes"),
            "nomination_hours": _("hours to nominate"),
            "election_hours": _("hours from the round's start until the vote closes"),
            "discard_hours": _("hours for the president to discard"),
            "legislative_hours": _("hours from the session's start for the chancellor to enact"),
            "veto_reply_hours": _("hours to answer a veto request"),
            "veto_enact_hours": _("hours to enact after a refused veto"),
            "power_hours": _("hours to use a power"),
            "execution_vote_hours": _("hours for an execution vote"),
            "deadline_hour": _("deadline hour (0-23, optional)"),
            "absence_notice_hours": _("hours of notice for an absence"),
            "absence_max_days": _("days of absence allowed per player"),
            "exile_lookback_games": _("refuse players exiled in their last N games"),
            "lobby_days": _("days for the lobby to fill"),
            "rated": _("rated: the result moves the players' ratings (public games only)"),
            "min_rating": _("minimum rating to sign up (optional)"),
        }
        widgets = {"visibility": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:
            self.fields["rated"].initial = True  # a public game is rated unless its creator says otherwise
        self.fields["min_rating"].widget.attrs["step"] = "0.1"
        minutes = bool(self["minute_durations"].value())  # as sent, or as the game being edited has it
        for name in self.DURATIONS:
            field = self.fields[name]
            field.min_value = 1
            message = _("A duration is at least one hour.")
            if name in MINUTE_LABELS:  # both names, for the page's script to follow the fast table's box
                field.widget.attrs.update({"data-minutes": MINUTE_LABELS[name], "data-hours": self.Meta.labels[name]})
            if minutes and name in MINUTE_LABELS:
                field.label, message = MINUTE_LABELS[name], _("A duration is at least one minute.")
            field.validators.append(MinValueValidator(1, message=message))
            field.widget.attrs["min"] = "1"

    @classmethod
    def of(cls, game: Game, data=None, **kwargs) -> "GameForm":
        """The form filled with an open game's settings, its house rules among them, to change them."""
        rules = {rule.name: getattr(game.rules, rule.name) for rule in RULES}
        return cls(data, instance=game, initial=rules, **kwargs)

    def clean_rated(self) -> bool:
        """An unlisted game is never rated: its result is for those who have its link."""
        return self.cleaned_data["rated"] and self.cleaned_data.get("visibility") != Game.Visibility.UNLISTED

    def clean_min_rating(self) -> float | None:
        """A game that moves no rating asks for none."""
        return self.cleaned_data["min_rating"] if self.cleaned_data.get("rated") else None

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if any(ord(character) < 32 for character in name):  # a line break would break the emails' subjects
            raise forms.ValidationError(_("A game's name is one line of text."))
        return name


class PostForm(forms.Form):
    body = forms.CharField(
        label=_("Message (Markdown)"), widget=forms.Textarea(attrs={"rows": 6}), max_length=Post.MAX_BODY
    )
    thread = forms.ChoiceField(choices=Post.Thread.choices, widget=forms.HiddenInput, initial=Post.Thread.MAIN)
    quote_of = forms.IntegerField(required=False, widget=forms.HiddenInput)


class EditPostForm(forms.Form):
    body = forms.CharField(
        label=_("Message (Markdown)"), widget=forms.Textarea(attrs={"rows": 8}), max_length=Post.MAX_BODY
    )


class NotesField(forms.CharField):
    """Text whose line breaks count one character each, as the service counts them (a browser sends CR LF)."""

    def to_python(self, value) -> str:
        return super().to_python(value).replace("\r\n", "\n")


class NotesForm(forms.Form):
    body = NotesField(
        required=False, strip=False, max_length=Note.MAX_BODY, error_messages={"max_length": NOTES_TOO_LONG}
    )


class MoveForm(forms.Form):
    """A move from the private panel, made for the step `step_number` the page showed."""

    type = forms.ChoiceField(
        choices=[(move, move) for move in sorted(PLAYER_MOVES)], error_messages={"invalid_choice": _("Unknown move.")}
    )
    step_number = forms.IntegerField(
        min_value=0, error_messages={"required": _("The form is incomplete: reload the page.")}
    )
    target = forms.CharField(required=False, max_length=150)
    vote = forms.ChoiceField(required=False, choices=[(ballot, ballot.title()) for ballot in KIND_VALUES["ballot"]])
    policy = forms.ChoiceField(required=False, choices=[(policy, policy) for policy in KIND_VALUES["policy"]])
    accept = forms.ChoiceField(required=False, choices=[("yes", "yes"), ("no", "no")])
    confirmed = forms.ChoiceField(required=False, choices=[("yes", "yes")])

    TARGETED = frozenset(move for move in PLAYER_MOVES if "target" in MOVE_FIELDS[move])
    """The moves that name a player: the panel offers none chosen, so that one click on Confirm picks nobody."""

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("type") in self.TARGETED and not cleaned.get("target"):
            self.add_error("target", _("Choose a player first: nothing was done."))
        return cleaned

    def needs_confirmation(self) -> bool:
        """An irreversible move not confirmed yet: every move but a ballot, which can be changed until the vote
        closes (R11), moves the game on at once with no undo (T2)."""
        return self.cleaned_data["type"] != "vote" and self.cleaned_data["confirmed"] != "yes"

    def confirmed_fields(self) -> list[tuple[str, str]]:
        """The fields to POST again, confirmed, from the confirmation page."""
        names = ("type", "step_number", *(name for name in PLAYER_FIELDS if name != "vote"))
        return [(name, str(self.cleaned_data[name])) for name in names if self.cleaned_data[name] not in ("", None)]

    def move(self) -> dict:
        """The move as a replay action without `by`: only the fields given."""
        data = self.cleaned_data
        move = {"type": data["type"]}
        for name, kind in PLAYER_FIELDS.items():
            if data[name]:
                move[name] = data[name] == "yes" if kind == "bool" else data[name]
        return move


class ClaimForm(forms.Form):
    round = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    cards = forms.RegexField(label=_("Cards"), regex=r"^[LFlf]{2,3}$", max_length=3)
    confirmed = forms.ChoiceField(required=False, choices=[("yes", "yes")])


def aware(moment):
    """A moment typed in a datetime-local field, in the reader's time zone (the one the form names)."""
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


class AbsenceForm(forms.Form):
    starts_at = forms.DateTimeField(label=_("Away from"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    ends_at = forms.DateTimeField(label=_("Back on"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))


class ProposalForm(forms.Form):
    """A proposal of the table (services.proposals): what, and its terms; the service checks them against the
    game."""

    kind = forms.ChoiceField(label=_("Proposal"), choices=Proposal.Kind.choices)
    hours = forms.IntegerField(label=_("Hours"), required=False, min_value=1, max_value=Proposal.MAX_HOURS)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=Proposal.MAX_REASON)
    until = forms.DateTimeField(
        label=_("Until"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )


class ProposalBallotForm(forms.Form):
    proposal = forms.IntegerField(min_value=1)
    vote = forms.ChoiceField(choices=[("yes", "yes"), ("no", "no")])


class WithdrawAbsenceForm(forms.Form):
    """Withdrawing an absence, from the game's panel or from the list of all of them (`back`)."""

    back = forms.ChoiceField(required=False, choices=[("", ""), ("profile", "profile")])

    def from_profile(self) -> bool:
        return self.is_valid() and self.cleaned_data["back"] == "profile"


class ProfileForm(ZoneChoices, forms.ModelForm):
    time_zone = forms.ChoiceField(label=_("time zone"))

    def clean_display_name(self) -> str:
        """A display name is shown in place of the username: it may not read like another account's names."""
        name = self.cleaned_data["display_name"]
        if name:
            check_name_distinct(name, user=self.instance.user)
        return name

    class Meta:
        model = Profile
        fields = [
            "display_name",
            "time_zone",
            "language",
            "email_moves",
            "reminders",
            "email_warnings",
            "email_absences",
            "digest_events",
            "digest_mentions",
            "reply_by_email",
            "show_claims",
        ]


class ApiTokenForm(forms.ModelForm):
    class Meta:
        model = ApiToken
        fields = ["name", "scope"]
        widgets = {"scope": forms.RadioSelect}
