"""A user's forum profile: the name shown, the time zone every deadline is shown in, the language."""

from zoneinfo import available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    if value not in available_timezones():
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
    # Email preferences (issue 5): what is sent at once, and what waits for the daily digest.
    email_moves = models.BooleanField(_("email me when it is my move"), default=True)
    reminders = models.CharField(_("deadline reminders"), max_length=4, choices=Reminders.choices, default="both")
    email_warnings = models.BooleanField(_("email me missed-round warnings and exiles"), default=True)
    email_absences = models.BooleanField(_("email me absence confirmations"), default=True)
    digest_events = models.BooleanField(_("daily digest of my games' events"), default=False)
    digest_mentions = models.BooleanField(_("daily digest of my @mentions"), default=True)
    calendar_token = models.CharField(max_length=64, blank=True, help_text="the secret of the calendar feed's URL")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()

    @classmethod
    def of(cls, user) -> "Profile":
        profile, _ = cls.objects.get_or_create(user=user)
        return profile
