"""The audit log in the reader's language: each action's name, and the reasons the site itself writes."""

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

ACTIONS = {
    "pause": _("paused the game"),
    "resume": _("resumed the game"),
    "extend": _("extended the deadline"),
    "end_now": _("ended the deadline now"),
    "excuse": _("excused a player"),
    "exile": _("exiled a player"),
    "replace": _("replaced a player"),
    "cancel": _("cancelled the game"),
    "lock_thread": _("locked the thread"),
    "unlock_thread": _("unlocked the thread"),
    "hide_post": _("hid a post"),
    "restore_post": _("restored a post"),
    "end_absence": _("ended an absence"),
    "resolve_report": _("resolved a report"),
    "ban": _("banned a user"),
    "lift_ban": _("lifted a ban"),
    "reset_second_factor": _("reset a lost second factor"),
    "view_secrets": _("saw the game's secrets"),
    "drop_newcomer": _("dropped someone waiting for a seat who had seen the secrets"),
}
# Entries the site writes itself: their stored reason is for the log's readers in English; shown translated.
SITE_REASONS = {"view_secrets", "drop_newcomer"}


@register.filter
def audit_action(entry) -> str:
    return ACTIONS.get(entry.action, entry.action)


@register.filter
def audit_reason(entry) -> str:
    return "" if entry.action in SITE_REASONS else entry.reason
