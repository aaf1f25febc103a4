"""Replies by email: a reply to a per-game email is posted in that game's thread, as the person the email
was sent to, under the web form's rules.

One handler behind both ways mail comes in (`manage.py receive_email` for an MTA's pipe, `manage.py lmtp_server`):
- once per person and Message-ID (or, without one, per digest of the message): a message delivered twice acts
  once, and only an authenticated message claims its Message-ID, so a forgery cannot shadow the genuine reply;
- a site that cannot judge a message (REPLY_ADDRESS unset, another SECRET_KEY than the one the site signs with:
  signing_key.py) raises CannotReceive before recording anything: the MTA keeps the message and tries again;
- a message larger than INBOUND_MAX_BYTES is dropped unread;
- automatic replies, bounces and out-of-office messages are dropped without an answer: never a mail loop;
- the reply address must hold a token this site signed (reply_tokens.py), and the From address must be the
  verified address of the person it names: a From header is easy to forge, the token is the credential. Anything
  else is dropped, and counted on the moderators' dashboard;
- what is posted is the reply alone (reply_text.py): the email quoted back, in every client's layout, the
  "wrote:" line or the quoted header block, the signature and the site's own footer are cut; an HTML-only message
  becomes text (nh3); attachments are ignored; a text that still holds an address of the site or of a person is
  refused, never posted;
- a refusal (the game is over, the thread is closed during a legislative session, the dead post in the
  graveyard, posting too fast, reply by email turned off, nothing left to post) is answered by one email, in the
  person's language, that says why and quotes back what they wrote.
"""

import email
import email.policy
import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.models import Game, InboundEmail, Post, Profile
from games.services.errors import GameError
from games.services.forum import post_message
from games.services.moves import make_move
from games.wording import done_message

from .commands import NotACommand, commands_for, read_command
from .reply_text import addresses_in, reply_text
from .reply_tokens import ReplyToken, read_token, token_in
from .signing_key import another_key

log = logging.getLogger(__name__)
Outcome = InboundEmail.Outcome

# RFC 3834 and the headers auto-responders and list software set in practice.
AUTOMATIC_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress", "X-Failed-Recipients")
NO_BREAK_SPACES = "\u00a0\u202f"  # kept in a subject: French sets one before a colon


class CannotReceive(Exception):
    """This process cannot judge any message (REPLY_ADDRESS unset, or another SECRET_KEY than the one the site
    signs with): nothing is recorded and the caller asks the MTA to keep the message and try again, so that a
    site wired wrongly never loses a reply nor drops a genuine one as forged."""


@dataclass
class Result:
    outcome: str | None  # None: a message already handled (delivered again)
    post: Post | None = None
    reason: str = ""


def handle_message(raw: bytes, recipients: list[str] = (), *, now: datetime | None = None) -> Result:
    """Handle one incoming message (RFC 5322 bytes) sent to `recipients` (the envelope's, when the MTA gives
    them; otherwise the message's own headers are read). Raises only when the site cannot judge it
    (CannotReceive) or on a fault of the site (the database away): the caller then asks the MTA to try again
    later, and nothing was recorded."""
    now = now or timezone.now()
    check_can_receive()
    if len(raw) > settings.INBOUND_MAX_BYTES:
        return _record(_message_id(None, raw), Outcome.OVERSIZED, now)
    message = email.message_from_bytes(raw, policy=email.policy.default)
    message_id = _message_id(message, raw)
    if is_automatic(message):
        return _record(message_id, Outcome.AUTOMATIC, now)
    sender = parseaddr(str(message.get("From", "")))[1]
    token = _find_token(message, recipients)
    if token is None:
        return _record(message_id, Outcome.FORGED, now)
    user = get_user_model().objects.filter(pk=token.user_id, is_active=True).first()
    if user is None or not _verified(user.pk, sender):
        return _record(message_id, Outcome.WRONG_SENDER, now, user=user, game_id=token.game_id)
    profile = Profile.for_reading(user)
    game = Game.objects.filter(pk=token.game_id).first()
    with translation.override(profile.language):
        text = reply_text(message)
        reason = _closed(profile, game)
        try:
            move = read_command(first_line(text), profile.language, _names(game)) if game is not None else None
        except NotACommand:
            move, reason = None, reason or _not_a_command(game, user, profile, token)
        if move is not None:
            reason = reason or _stale(game, token)
            return _act(message_id, user, profile, game, message, text, reason, now, move=(move, token))
        if not reason and not text:
            reason = _("Your reply had no text above the quoted email: nothing was posted.")
        reason = reason or _holds_an_address(text)
        return _act(message_id, user, profile, game, message, text, reason, now)


def first_line(text: str) -> str:
    """The reply's first line that is not quoted: where a command is read."""
    return next((line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith(">")), "")


def _names(game: Game) -> list[str]:
    return list(game.seats.filter(active=True, number__isnull=False).values_list("name", flat=True))


def _closed(profile: Profile, game: Game | None) -> str:
    """Why nothing from this reply can be done at all, or ""."""
    if not profile.reply_by_email:
        return _("Reply by email is turned off in your profile: nothing was posted.")
    if game is None:
        return _("That game no longer exists: nothing was posted.")
    if game.status != Game.Status.RUNNING:
        return _("%(game)s is over: replies by email are closed. Post on the site.") % {"game": game.name}
    return ""


def _holds_an_address(text: str) -> str:
    """The last guard of a public thread: what is posted never shows the address of the site or of a person,
    whatever layout of quoted history got past reply_text."""
    found = addresses_in(text)
    if not found:
        return ""
    return _(
        "Your reply holds an email address (%(address)s), most likely from the email it quotes: nothing was "
        "posted, so that no address is shown in the game's thread. Write your reply above the quoted email, or "
        "leave the address out."
    ) % {"address": found[0]}


def _stale(game: Game, token) -> str:
    if game.step_number != token.step_number:
        return _(
            "The game has moved on since this email was sent: nothing was done. Your panel shows what is owed now."
        )
    return ""


def _not_a_command(game: Game, user, profile: Profile, token) -> str:
    """A first line that starts with a command word but is none: never posted (it may be a secret ballot)."""
    reason = _(
        "Your reply's first line starts with a command but is not one: nothing was done and, since it may say how "
        "you vote, nothing was posted."
    )
    if _stale(game, token):
        return reason
    seat = game.seats.filter(user=user, active=True, number__isnull=False).first()
    if seat is None:
        return reason
    lines = [f"    {c.text}" + (f"   ({c.english})" if c.english != c.text else "") for c in _commands(game, seat)]
    if lines:
        reason += "\n\n" + _("The commands of this step, one alone on the first line:") + "\n" + "\n".join(lines)
    return reason


def _commands(game: Game, seat) -> list:
    return commands_for(game.load_state(), seat.number, translation.get_language() or "en")


def _act(message_id, user, profile, game, message, text, reason, now, *, move=None) -> Result:
    """Post the reply or make its move, once per message, or refuse and say why (one email either way for a
    move: its confirmation or its refusal)."""
    try:
        with transaction.atomic():
            record = InboundEmail.objects.create(
                message_id=message_id, received_at=now, outcome=Outcome.REFUSED, user=user, game=game
            )
            if not reason:
                try:
                    with transaction.atomic():
                        if move is None:
                            record.post = post_message(game.pk, user, text, now=now)
                            record.outcome = Outcome.POSTED
                        else:
                            made = make_move(game.pk, user, move[0], move[1].step_number, now=now)
                            record.outcome = Outcome.MOVED
                except GameError as error:
                    reason = str(error)
                record.save(update_fields=["post", "outcome"])
    except IntegrityError:
        return Result(None)  # the same message, delivered again: it acted the first time
    if reason:
        _answer(user, profile, game, message, text, reason, refused=True)
        return Result(Outcome.REFUSED, reason=reason)
    if move is not None:
        done = _("Done: %(what)s") % {"what": done_message(move[0], made)}
        _answer(user, profile, game, message, "", done, refused=False)
        return Result(Outcome.MOVED)
    return Result(Outcome.POSTED, post=record.post)


def _record(message_id: str, outcome: str, now: datetime, *, user=None, game_id=None) -> Result:
    """A message dropped without an answer, counted (once) for the moderators."""
    game = Game.objects.filter(pk=game_id).first() if game_id else None
    try:
        with transaction.atomic():
            InboundEmail.objects.create(message_id=message_id, received_at=now, outcome=outcome, user=user, game=game)
    except IntegrityError:
        return Result(None)
    log.info("inbound email %s dropped: %s", message_id, outcome)
    return Result(outcome)


def _message_id(message: EmailMessage | None, raw: bytes) -> str:
    found = str(message.get("Message-ID", "")).strip() if message is not None else ""
    if found and len(found) <= 255 and found.isprintable():
        return found
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def is_automatic(message: EmailMessage) -> bool:
    """An automatic reply, a bounce or an out-of-office message (RFC 3834 and what mail systems set)."""
    if str(message.get("Auto-Submitted", "no")).strip().lower() not in ("", "no"):
        return True
    if str(message.get("Precedence", "")).strip().lower() in AUTOMATIC_PRECEDENCE:
        return True
    if any(message.get(header) is not None for header in AUTOMATIC_HEADERS):
        return True
    return_path = message.get("Return-Path")
    if return_path is not None and str(return_path).strip() in ("", "<>"):
        return True
    return str(message.get_content_type()) == "multipart/report"  # a delivery status notification


def check_can_receive() -> None:
    """Raise CannotReceive when this process could not read any reply's token; called before a message is read.
    Once it passes, a token that does not verify is a forgery, whoever it names and whatever its sender."""
    template = settings.REPLY_ADDRESS
    if not template or "{token}" not in template:
        raise CannotReceive("REPLY_ADDRESS is not set (or has no {token}): no reply's token can be read here")
    if another_key():
        raise CannotReceive(
            "this process runs with another key than the site's: the fingerprint the site recorded for the key it "
            "signs reply addresses with is neither this SECRET_KEY's nor one of SECRET_KEY_FALLBACKS'"
        )


def _find_token(message: EmailMessage, recipients) -> ReplyToken | None:
    candidates = list(recipients)
    for header in ("Delivered-To", "X-Original-To", "To", "Cc"):
        candidates += [address for _name, address in getaddresses([str(v) for v in message.get_all(header, [])])]
    for address in candidates:
        text = token_in(address)
        token = read_token(text) if text else None
        if token is not None:
            return token
    return None


def _verified(user_id: int, sender: str) -> bool:
    """`sender` is a verified address of the user."""
    if not sender or not sender.isprintable() or len(sender) > 254:
        return False
    return EmailAddress.objects.filter(user_id=user_id, email__iexact=sender, verified=True).exists()


def _answer(user, profile: Profile, game: Game | None, message: EmailMessage, text: str, reason: str, *, refused: bool):
    """One email that says what became of a reply: why nothing was done, quoting what they wrote so that nothing
    is lost, or the move made. Marked automatic (RFC 3834) so that an auto-responder does not answer it."""
    subject = str(message.get("Subject", ""))
    subject = "".join(c for c in subject if c.isprintable() or c in NO_BREAK_SPACES).strip() or _("Your reply")
    context = {
        "name": str(profile),
        "reason": reason,
        "text": (text or reply_text(message) or "") if refused else "",
        "game_url": settings.SITE_URL.rstrip("/") + game.get_absolute_url() if game is not None else "",
    }
    template = _("Not done: %(subject)s") if refused else _("Done: %(subject)s")
    answer = mail.EmailMessage(
        subject=template % {"subject": subject[:120]},
        body=render_to_string("email/reply_answer.txt", context),
        to=[user.email],
        headers={"Auto-Submitted": "auto-replied", "In-Reply-To": str(message.get("Message-ID", ""))},
    )
    try:
        answer.send()
    except Exception:  # what was done is recorded; a mail server away must not make the MTA deliver it again
        log.warning("the answer to a reply could not be sent to %s", user.email, exc_info=True)
