"""A user's forum profile: the name shown, the time zone every deadline is shown in, the language; and the names
each user went by."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.zones import is_zone


def validate_time_zone(value: str) -> None:
    if not is_zone(value):
        raise ValidationError(_("%(zone)s is not a time zone."), params={"zone": value})


class Profile(models.Model):
    class Reminders(models.TextChoices):
        NONE = "none", _("No reminders")
        LAST = "3", _("3 hours before")
        FIRST = "24", _("24 hours before")
        BOTH = "both", _("24 and 3 hours before")

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC", validators=[validate_time_zone])
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, default="en")
    # Email preferences: what is sent at once, and what waits for the daily digest.
    email_moves = models.BooleanField(
        _(
            "email me when my games start, when I take over a seat, when it is my move, when my games end and when "
            "I am invited to a rematch"
        ),
        default=True,
    )
    reminders = models.CharField(_("deadline reminders"), max_length=4, choices=Reminders.choices, default="both")
    email_warnings = models.BooleanField(_("email me missed-round warnings and exiles"), default=True)
    email_absences = models.BooleanField(_("email me absence confirmations"), default=True)
    show_claims = models.BooleanField(
        _("show on my profile how often my claims matched the cards I drew (finished games)"), default=False
    )
    digest_events = models.BooleanField(_("daily digest of my games' events"), default=False)
    digest_mentions = models.BooleanField(_("daily digest of my @mentions"), default=True)
    reply_by_email = models.BooleanField(
        _("let me answer game emails by replying: the reply is posted in the game's thread"), default=True
    )
    # The address's mail server refused it permanently (a 5xx): nothing more is sent to it until the address
    # changes (the profile page and the moderators' dashboard say so).
    email_refused = models.EmailField(blank=True, help_text="the address a mail server refused for good")
    email_refused_at = models.DateTimeField(null=True, blank=True)
    email_refused_reason = models.CharField(max_length=200, blank=True)
    calendar_token = models.CharField(max_length=64, blank=True, help_text="the secret of the calendar feed's URL")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()

    @classmethod
    def of(cls, user, request=None) -> "Profile":
        """The user's profile, made now if they have none, in the language and time zone `request` shows."""
        profile, _ = cls.objects.get_or_create(user=user, defaults=cls.defaults_from(request))
        return profile

    @classmethod
    def for_reading(cls, user, request=None) -> "Profile":
        """The user's profile, or an unsaved one with what `request` shows of them: a page that only reads
        writes nothing, not even a profile on a first visit."""
        try:
            return cls.objects.get(user=user)
        except cls.DoesNotExist:
            return cls(user=user, **cls.defaults_from(request))

    @staticmethod
    def defaults_from(request) -> dict:
        """The language the person reads the site in (their browser's, or the one they chose in the menu), and
        the time zone their browser gave (a cookie the site's script sets), when it is a real one."""
        if request is None:
            return {}
        defaults = {}
        language = getattr(request, "LANGUAGE_CODE", "")
        if language in dict(settings.LANGUAGES):
            defaults["language"] = language
        zone = request.COOKIES.get("tz", "")
        if is_zone(zone):
            defaults["time_zone"] = zone
        return defaults


class Rename(models.Model):
    """A change of a name a user is shown by: their username (in their profile's address) or their display name.
    Every page that shows names is checked against the last one (a thread's fingerprint reads it: a rename anywhere
    is news to every open page, which renames make rare enough to afford), and moderators read the names a player
    went by before (one player posing as another is part of the game's deceit, and a reason to look)."""

    class Field(models.TextChoices):
        USERNAME = "username", _("username")
        DISPLAY_NAME = "display_name", _("display name")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="renames")
    field = models.CharField(max_length=16, choices=Field.choices)
    old = models.CharField(max_length=150, blank=True)
    new = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-at", "-id")

    def __str__(self) -> str:
        return f"{self.old} → {self.new}"


def record_rename(sender, instance, raw: bool = False, **kwargs) -> None:
    """pre_save of the user model and of Profile: a name changed by any path (the profile page, the admin, a
    command) is recorded in the same transaction as the change. A new account is nobody's news; a new profile
    with a display name is (its pages showed the username until now)."""
    if raw:  # loaded from a fixture: nothing was renamed
        return
    field = Rename.Field.USERNAME if sender is get_user_model() else Rename.Field.DISPLAY_NAME
    new = getattr(instance, field)
    if instance._state.adding and field == Rename.Field.USERNAME:
        return
    old = (
        ""
        if instance._state.adding
        else sender._default_manager.filter(pk=instance.pk).values_list(field, flat=True).first()
    )
    if (old or "") != new:
        user_id = instance.pk if field == Rename.Field.USERNAME else instance.user_id
        Rename.objects.create(user_id=user_id, field=field, old=old or "", new=new)
