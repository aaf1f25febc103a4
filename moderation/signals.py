"""Sign-in addresses, for flagging one person holding two seats of a game, and the owner told of a sign-in from a
browser the account never used; a session that added a second factor counted as having proved it; the audit log
told when the games show a running game's secrets outside the moderation page; and the moderators told when the
site dropped someone waiting for a seat because they had seen the game's secrets."""

import logging
import re

from allauth.account.adapter import get_adapter
from allauth.mfa.signals import authenticator_added
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.core.mail import send_mail
from django.dispatch import receiver
from django.urls import reverse

from games.models import Game
from games.signals import newcomer_dropped, secrets_shown
from sh_site.second_factor import record_added_factor

from .groups import MODERATORS
from .models import AuditEntry, SignIn
from .services import audit

log = logging.getLogger(__name__)


USER_AGENT_LENGTH = SignIn._meta.get_field("user_agent").max_length


def browser_kind(user_agent: str) -> str:
    """A browser's description without its version numbers: a browser that updates itself (every month or so) is
    still the one the account used."""
    return re.sub(r"[0-9][0-9._]*", "", user_agent)


@receiver(user_logged_in)
def record_sign_in(sender, request, user, **kwargs) -> None:
    """The sign-in on record; and, when the account signed in before but never with this browser, an email to its
    owner (allauth's security notices: when, from where, with what; in their language)."""
    if request is None or not request.META.get("REMOTE_ADDR"):  # force_login's bare request: no sign-in from anywhere
        return
    ip = get_adapter(request).get_client_ip(request)  # behind a proxy, X-Forwarded-For (TRUSTED_PROXY_COUNT)
    browser = request.META.get("HTTP_USER_AGENT", "")[:USER_AGENT_LENGTH]
    known = SignIn.objects.filter(user=user).exclude(user_agent="")  # sign-ins recorded before browsers were: unknown
    seen = {browser_kind(agent) for agent in known.values_list("user_agent", flat=True).distinct()}
    new_browser = bool(seen) and browser_kind(browser) not in seen
    SignIn.objects.create(user=user, ip=ip, user_agent=browser)
    if new_browser:
        try:
            sessions = f"{settings.SITE_URL}{reverse('usersessions_list')}"
            get_adapter(request).send_notification_mail(
                "account/email/signed_in_new_browser", user, {"sessions_url": sessions}
            )
        except (OSError, ValueError):  # the sign-in stands; the sign-in list keeps the news
            log.warning("could not email user %s of a sign-in from a new browser", user.pk, exc_info=True)


@receiver(authenticator_added)
def count_added_factor(sender, request, user, authenticator, **kwargs) -> None:
    record_added_factor(request, user, authenticator)


@receiver(secrets_shown)
def audit_secrets_shown(sender, game: Game, user, reason: str, **kwargs) -> None:
    """Secrets shown outside the moderation page (the admin) are on the audit log too."""
    audit(user, "view_secrets", reason, game=game)


@receiver(newcomer_dropped)
def tell_moderators_of_a_dropped_newcomer(sender, game_id: int, name: str, user_id: int | None, **kwargs) -> None:
    """An entry in the audit log, and an email to the moderators who do not play in the game."""
    game = Game.objects.get(pk=game_id)
    reason = f"{name} had seen this game's secrets before taking a seat: they no longer wait for one."
    AuditEntry.objects.create(
        actor=None,
        actor_name="site",
        action="drop_newcomer",
        reason=reason,
        game=game,
        game_name=game.name,
        target=get_user_model().objects.filter(pk=user_id).first(),  # by account: the name may be another's now
        target_name=name,
    )
    recipients = (
        get_user_model()
        .objects.filter(groups__name=MODERATORS, is_active=True)
        .exclude(email="")
        .exclude(seats__game=game)
        .values_list("email", flat=True)
    )
    try:
        send_mail(f"[Secret Hitler by post] {game.name}: {name} dropped", reason, None, list(recipients))
    except (OSError, ValueError):  # the game has moved on; the audit log and the dashboard keep the news
        log.warning("could not email the moderators that %s was dropped from game %s", name, game_id, exc_info=True)
