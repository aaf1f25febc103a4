"""What an email of the outbox says: a person's due notices grouped into emails (one per step that can be
answered, one digest), each in the person's language and time zone, with its reply address and commands, its
subject cut to fit, and its unsubscribe links."""

import re
from collections import defaultdict
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core import mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import GameState
from games.models import Game, Notification, Profile

from .commands import Command, commands_for
from .messages import describe_notification
from .reply_tokens import make_token, reply_address
from .unsubscribe import PREFERENCES, unsubscribe_token

CATEGORIES = {
    Notification.Kind.YOUR_MOVE: "moves",
    Notification.Kind.REMINDER: "reminders",
    Notification.Kind.WARNING: "warnings",
    Notification.Kind.EXILED: "warnings",
    Notification.Kind.ABSENCE: "absences",
    Notification.Kind.EVENT: "events",
    Notification.Kind.MENTION: "mentions",
    Notification.Kind.WEBHOOK: "warnings",
    Notification.Kind.GAME_OVER: "moves",
    Notification.Kind.STARTED: "moves",
    Notification.Kind.SEATED: "moves",
    Notification.Kind.PROPOSAL: "moves",
    Notification.Kind.REMOVED: "moves",
    Notification.Kind.SETTINGS: "moves",
    Notification.Kind.REMATCH: "moves",
}
ANSWERABLE = (Notification.Kind.YOUR_MOVE, Notification.Kind.REMINDER)
# A game's start, or a seat taken over, goes in the email of the step under way, first: its reader hears of it and of
# their move at once.
LEADS = (Notification.Kind.STARTED, Notification.Kind.SEATED)
OF_A_STEP = (*ANSWERABLE, *LEADS)
SUBJECT_LIMIT = 150
FOLDED_SPACE = re.compile(r"[^\S\u00a0\u202f]+")  # any white space but the no-break ones


@dataclass
class Owing:
    """Who owes a move now in the games of a batch: their seat by (game id, user id), and each game's state
    (the outbox finds them; an email offers its reader the commands of their seat)."""

    seats: dict[tuple[int, int], int]
    states: dict[int, GameState]
    unreadable: dict[int, Exception]  # games whose state cannot be read: their notices fail with this error

    def __contains__(self, key: tuple[int, int]) -> bool:
        return key in self.seats


def emails_of(notices: list[Notification]) -> list[list[Notification]]:
    """A person's due notices as emails: one per game and step for what can be answered (a "your move" notice
    and its reminders) with the game's start or a seat taken over, which comes first; one digest for everything
    else, a seat taken over with no move to go with included."""
    steps: dict[tuple, list[Notification]] = defaultdict(list)
    digest = []
    for notice in notices:
        if notice.kind in OF_A_STEP and notice.game_id is not None:
            steps[(notice.game_id, notice.data.get("step_number"))].append(notice)
        else:
            digest.append(notice)
    emails = []
    for step in steps.values():
        if all(notice.kind == Notification.Kind.SEATED for notice in step):
            digest += step
        else:
            emails.append(sorted(step, key=lambda notice: notice.kind not in LEADS))
    return [*emails, *([digest] if digest else [])]


def build_message(
    profile: Profile, notices: list[Notification], games: dict[int, Game], owing: Owing
) -> mail.EmailMultiAlternatives:
    """One email, in the person's language and time zone: a game's step (it may be answered by replying: a
    reply that is one of the step's commands makes the move, any other is posted in the game's thread) or a
    digest of everything else (answered on the site)."""
    with translation.override(profile.language), timezone.override(ZoneInfo(profile.time_zone)):
        items = [
            {
                "text": describe_notification(notice, games.get(notice.game_id)),
                "url": _absolute(_link(notice, games.get(notice.game_id))),
            }
            for notice in notices
        ]
        categories = sorted({CATEGORIES[n.kind] for n in notices})
        one_click = _absolute(reverse("games:unsubscribe", args=[unsubscribe_token(profile.user_id, categories)]))
        answerable = next((notice for notice in notices if notice.kind in ANSWERABLE), None)
        game = games.get(answerable.game_id) if answerable is not None else None
        reply_to = _reply_address(profile, answerable, game) if game is not None else ""
        context = {
            "name": str(profile),
            "items": items,
            "unsubscribe": {
                PREFERENCES[c][2](): _absolute(
                    reverse("games:unsubscribe", args=[unsubscribe_token(profile.user_id, [c])])
                )
                for c in categories
            },
            "preferences": _absolute(reverse("games:edit_profile")),
            "reply_marker": reply_marker() if reply_to else "",
            "commands": _commands(profile, game, owing) if reply_to else [],
            "game_url": _absolute(game.get_absolute_url()) if game is not None else "",
        }
        if len(items) == 1 or answerable is not None:
            subject = items[0]["text"]  # a step's email: what leads it, or else its "your move" (made first)
        else:
            subject = ngettext("%(count)s update in your games", "%(count)s updates in your games", len(items)) % {
                "count": len(items)
            }
        headers = {"List-Unsubscribe": f"<{one_click}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
        if reply_to:
            headers["Reply-To"] = reply_to
        message = mail.EmailMultiAlternatives(
            subject=fit_subject(subject),
            body=render_to_string("email/notifications.txt", context),
            to=[profile.user.email],
            headers=headers,
        )
        message.attach_alternative(render_to_string("email/notifications.html", context), "text/html")
    return message


def _commands(profile: Profile, game: Game, owing: Owing) -> list[Command]:
    """The commands the reader may reply with for the step under way (what their own panel offers them)."""
    seat = owing.seats.get((game.pk, profile.user_id))
    if seat is None or game.pk not in owing.states:
        return []
    return commands_for(owing.states[game.pk], seat, profile.language)


def reply_marker() -> str:
    """The line a reply is written above: what is below it (the email quoted back) is not posted."""
    return _("Reply above this line to post in the game's thread.")


def _reply_address(profile: Profile, notice: Notification, game: Game) -> str:
    """The address a reply to this step's email goes to, when replies are on (the site's and the person's)."""
    if not profile.reply_by_email or game.status != Game.Status.RUNNING:
        return ""
    return reply_address(make_token(profile.user_id, game.pk, notice.data.get("step_number") or 0))


def fit_subject(text: str, limit: int = SUBJECT_LIMIT) -> str:
    """A subject of at most `limit` characters on one line: cut after a whole word, with "…", when it must be cut.

    Line breaks and other white space fold into one space (a header holds no newline: no header injection), but
    the no-break space stays: French sets one before a colon, in the subject as in the body."""
    text = FOLDED_SPACE.sub(" ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut and not text[limit - 1].isspace():
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.\u00a0") + "…"


def _link(notice: Notification, game: Game | None) -> str:
    if game is None:
        return reverse("games:notifications")
    if notice.kind == Notification.Kind.MENTION:
        return f"{game.get_absolute_url()}#post-{notice.data['post']}"
    if notice.kind == Notification.Kind.GAME_OVER:
        return game.address("secret_history")
    if notice.kind == Notification.Kind.STARTED and notice.data["waiting"]:
        return game.get_absolute_url()  # no panel until they take a seat
    if notice.kind == Notification.Kind.REMOVED:
        return game.get_absolute_url()  # no panel: they are no longer in the game
    if notice.kind == Notification.Kind.SETTINGS:
        return game.address("rules")
    if notice.kind == Notification.Kind.SEATED:
        return game.address("first_unread")  # a newcomer reads the thread up from its first post
    if notice.kind == Notification.Kind.REMATCH:
        return game.get_absolute_url()  # the lobby, where joining is the reader's own click
    return f"{game.get_absolute_url()}#panel"


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path
