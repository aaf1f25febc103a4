"""One-click unsubscribing (RFC 8058): the signed token of an email's links, and the preferences it turns off.
The in-site list of notifications keeps everything; only the emails stop."""

from django.contrib.auth import get_user_model
from django.core import signing
from django.utils.translation import gettext as _

from games.models import Profile

UNSUBSCRIBE_SALT = "games.unsubscribe"
# category -> (the profile field that turns it off, its value when off, its name in emails)
PREFERENCES = {
    "moves": ("email_moves", False, lambda: _("game-start, seat, your-move, game-end and rematch emails")),
    "reminders": ("reminders", "none", lambda: _("deadline reminders")),
    "warnings": ("email_warnings", False, lambda: _("missed-round warnings")),
    "absences": ("email_absences", False, lambda: _("absence confirmations")),
    "events": ("digest_events", False, lambda: _("the daily digest of game events")),
    "mentions": ("digest_mentions", False, lambda: _("the daily digest of mentions")),
}


def unsubscribe_token(user_id: int, categories: list[str]) -> str:
    """The one-click link's token: the categories of one email, all turned off by it (RFC 8058)."""
    return signing.dumps({"u": user_id, "c": sorted(categories)}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, list[str]] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    categories = data.get("c")
    categories = [categories] if isinstance(categories, str) else categories  # links sent before: one category
    if not isinstance(categories, list) or not categories or any(c not in PREFERENCES for c in categories):
        return None
    return data["u"], categories


def unsubscribe(user_id: int, categories: list[str]) -> None:
    """One-click unsubscribe from the categories of one email (the in-site list keeps them)."""
    if not get_user_model().objects.filter(pk=user_id).exists():
        return  # the account is gone: nothing is sent to it anyway
    Profile.objects.get_or_create(user_id=user_id)
    Profile.objects.filter(user_id=user_id).update(**{PREFERENCES[c][0]: PREFERENCES[c][1] for c in categories})
