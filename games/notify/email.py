"""Email out: the channel and its outbox, due notices sent as one email per person per sweep, in their language
and zone.

The bell marks each notice for email as its reader chose (now, or in the daily digest): those rows are this
outbox. A change with events wakes it at once after commit; everything else waits for its periodic run.

Rows are claimed with SELECT ... FOR UPDATE SKIP LOCKED and marked `sending` in a short transaction, so two
workers never send the same row; the SMTP conversation happens outside any transaction. A worker that dies
while sending leaves rows `sending`: they are claimed again after CLAIM_TIMEOUT (at-least-once delivery).
A temporary SMTP failure puts the rows back with a growing delay; after MAX_ATTEMPTS they are `failed`.
The mail server away (refusing connections, or gone mid-way and not taking a new one) is no failure of the
emails: the rows not sent are put back as they were, without a try used up, and the next run (every
SWEEP_INTERVAL_SECONDS) tries again, so they go out within one run of its return. An email the server drops
while it takes a new connection at once is at fault itself, and uses a try. A 5xx for an address stops all
email to it (marked on the profile).
A notice whose email cannot be built (data that does not describe, a date out of range, a game whose state
cannot be read) or that raises anything unforeseen while sent is marked `failed` with its error, for the
moderators' dashboard; the other notices of the run, and of the same email, go on.
Before sending, each notice is checked again: a "your move" or a reminder whose step has passed, or whose
deadline has moved, is skipped (a moved deadline gets reminders of its own).
"""

import contextlib
import logging
import smtplib
from collections import defaultdict
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games.dispatch import queue_now
from games.engine import waiting_for
from games.models import Game, Notification, Profile, Seat, SentEmail

from .channels import Channel
from .email_compose import Owing, build_message, emails_of
from .failures import Failures, describe
from .signing_key import record_signing_key

log = logging.getLogger(__name__)

BATCH_SIZE = 50  # people per batch: each gets all their due notices in one email
CLAIM_TIMEOUT = timedelta(minutes=10)
MAX_ATTEMPTS = 5


class Email(Channel):
    """The bell's rows marked for email are this channel's outbox: it only wakes the outbox's worker."""

    def changes(self, changes, notices: list[Notification]) -> None:
        """The notices of a move go out at once, not at the outbox's next run."""
        if any(change.events for change in changes):
            transaction.on_commit(_send_soon)


def _send_soon() -> None:
    queue_now("games.send_emails")


def send_due_emails(
    *, now: datetime | None = None, batch_size: int = BATCH_SIZE, failures: Failures | None = None
) -> int:
    """Send every due notification; returns how many emails went out."""
    now = now or timezone.now()
    failures = Failures() if failures is None else failures
    sent = 0
    while True:
        claimed = _claim(now, batch_size)
        if not claimed:
            return sent
        record_signing_key()  # the key these emails' reply addresses are signed with, for those who read replies
        count, server_away = _send(claimed, now, failures)
        sent += count
        if server_away:  # the rest waits for the next run
            return sent


def _claim(now: datetime, batch_size: int) -> list[Notification]:
    due = Q(email=Notification.Email.PENDING, email_due_at__lte=now) | Q(
        email=Notification.Email.SENDING, claimed_at__lt=now - CLAIM_TIMEOUT
    )
    with transaction.atomic():
        people = Notification.objects.filter(due).order_by("user_id").values_list("user_id", flat=True).distinct()
        rows = list(
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(due, user_id__in=list(people[:batch_size]))
            .order_by("user_id", "pk")
        )
        Notification.objects.filter(pk__in=[row.pk for row in rows]).update(
            email=Notification.Email.SENDING, claimed_at=now
        )
    return rows


def _send(rows: list[Notification], now: datetime, failures: Failures) -> tuple[int, bool]:
    """Send what is still true of these claimed rows: (emails sent, whether the mail server was away)."""
    messages, skipped = _compose_all(rows, failures)
    sent_rows, records = [], []
    connection = mail.get_connection()
    server_away = False
    try:
        connection.open()
    except (smtplib.SMTPException, OSError):
        log.warning("the mail server does not answer; %s emails wait for the next run", len(messages), exc_info=True)
        server_away = True
    try:
        for index, (message, notices, profile) in enumerate(messages):
            if server_away:
                break
            outcome, reason = _deliver(message, connection)
            if outcome == SENT:
                sent_rows += notices
                records.append(_record(message, notices, now))
            elif outcome == REFUSED:
                _refused(profile, notices, reason, now)
            elif outcome == FAILED:
                _fail([(notice, reason) for notice in notices], failures)
            elif outcome == AWAY and not _reconnected(connection):
                log.warning("the mail server went away; %s emails wait for the next run", len(messages) - index)
                server_away = True
            else:  # a temporary failure; or the server dropped this email alone (it answers again): a try of its
                _retry(notices, now)
    finally:
        try:
            connection.close()
        except (smtplib.SMTPException, OSError):  # the emails were accepted before the goodbye failed
            log.warning("closing the connection to the mail server failed", exc_info=True)
    Notification.objects.filter(pk__in=[n.pk for n in sent_rows]).update(email=Notification.Email.SENT, sent_at=now)
    Notification.objects.filter(pk__in=[n.pk for n in skipped]).update(email=Notification.Email.SKIPPED)
    if server_away:  # what this run claimed and did not settle goes back to the outbox as it was
        unsettled = Notification.objects.filter(pk__in=[row.pk for row in rows], email=Notification.Email.SENDING)
        unsettled.filter(claimed_at=now).update(email=Notification.Email.PENDING, claimed_at=None)
    SentEmail.objects.bulk_create(records)
    return len(records), server_away


SENT, RETRY, REFUSED, AWAY, FAILED = "sent", "retry", "refused", "away", "failed"


def _compose_all(rows: list[Notification], failures: Failures) -> tuple[list[tuple], list[Notification]]:
    """The emails of these rows, each with its notices and reader, and the rows no longer worth sending. A row
    whose email cannot be built is marked failed here, alone."""
    games = Game.objects.in_bulk({row.game_id for row in rows if row.game_id})
    users = get_user_model().objects.filter(pk__in={r.user_id for r in rows}).select_related("profile")
    profiles = {user.pk: _profile(user) for user in users}
    owing = _owing(games)
    by_user, skipped, failed = defaultdict(list), [], []
    for row in rows:
        try:
            (by_user[row.user_id] if _still_true(row, games, owing) else skipped).append(row)
        except Exception as error:
            failed.append((row, error))
    messages = []
    for user_id, notices in by_user.items():
        profile = profiles.get(user_id)
        if profile is None or not profile.user.email or not profile.user.is_active:
            skipped += notices
        elif profile.email_refused and profile.email_refused.lower() == profile.user.email.lower():
            skipped += notices  # refused for good: nothing more to this address until it changes
        else:
            for group in emails_of(notices):
                messages += _compose(profile, group, games, owing, failed)
    _fail(failed, failures)
    return messages, skipped


def _compose(profile: Profile, group: list[Notification], games: dict, owing: Owing, failed: list) -> list[tuple]:
    """One email for the group; should it fail to build, each notice alone, so that only the notice at fault
    fails and the others still go out."""
    try:
        return [(build_message(profile, group, games, owing), group, profile)]
    except Exception as error:
        if len(group) == 1:
            failed.append((group[0], error))
            return []
        return [email for notice in group for email in _compose(profile, [notice], games, owing, failed)]


def _fail(failed: list[tuple[Notification, BaseException | str]], failures: Failures) -> None:
    """Each of these notices failed for good: marked so, with its error, logged, and never claimed again."""
    for notice, error in failed:
        text = failures.add(f"the email of notification {notice.pk}", error)
        Notification.objects.filter(pk=notice.pk).update(
            email=Notification.Email.FAILED, error=text, attempts=F("attempts") + 1
        )


def _reconnected(connection) -> bool:
    """After the server dropped the connection mid-way: whether it takes a new one. If it does, the email it
    dropped is at fault (too big for it, say) and uses a try, so that it cannot hold up the others for ever."""
    with contextlib.suppress(smtplib.SMTPException, OSError):
        connection.close()
    try:
        connection.open()
        return True
    except (smtplib.SMTPException, OSError):
        return False


def _deliver(message: mail.EmailMultiAlternatives, connection) -> tuple[str, str]:
    """Sent, to be retried, refused for good (the recipient's server answered 5xx), failed for good (anything
    unforeseen), or the server away: with the reason."""
    try:
        message.connection = connection
        message.send()
    except smtplib.SMTPRecipientsRefused as refusal:
        codes = [code for code, _text in refusal.recipients.values()]
        reason = "; ".join(
            f"{code} {text.decode(errors='replace')[:150]}" for code, text in refusal.recipients.values()
        )
        if codes and all(500 <= code < 600 for code in codes):
            log.warning("the mail server refused %s for good: %s", message.to, reason)
            return REFUSED, reason
        log.warning("sending to %s failed (%s); it will be retried", message.to, reason)
        return RETRY, reason
    except (smtplib.SMTPServerDisconnected, ConnectionError):  # the server, not this email: not a try of its own
        return AWAY, ""
    except (smtplib.SMTPException, OSError, ValueError):  # ValueError: a header Django refuses to send
        log.warning("sending to %s failed; it will be retried", message.to, exc_info=True)
        return RETRY, ""
    except Exception as error:  # unforeseen: this email's fault, not the server's; never tried again
        log.exception("sending to %s failed for good", message.to)
        return FAILED, describe(error)
    return SENT, ""


def _refused(profile: Profile, notices: list[Notification], reason: str, now: datetime) -> None:
    """A permanent refusal: these notices are not retried, and nothing more goes to the address until it changes."""
    Notification.objects.filter(pk__in=[n.pk for n in notices]).update(
        email=Notification.Email.FAILED, attempts=F("attempts") + 1
    )
    Profile.objects.get_or_create(user_id=profile.user_id)
    Profile.objects.filter(user_id=profile.user_id).update(
        email_refused=profile.user.email,
        email_refused_at=now,
        email_refused_reason="".join(c for c in reason if c.isprintable())[:200],  # the server's words, as they came
    )


def _record(message: mail.EmailMultiAlternatives, notices: list[Notification], now: datetime) -> SentEmail:
    return SentEmail(
        user_id=notices[0].user_id,
        to=message.to[0],
        subject=message.subject,
        kinds=",".join(sorted({n.kind for n in notices})),
        notifications=len(notices),
        sent_at=now,
    )


def _profile(user) -> Profile:
    try:
        return user.profile
    except Profile.DoesNotExist:
        return Profile(user=user)  # the defaults


def _owing(games: dict[int, Game]) -> Owing:
    """Everyone who owes a move now in these games: two queries, whatever their number."""
    names, states, unreadable = {}, {}, {}
    for game in games.values():
        if game.status == Game.Status.RUNNING and game.paused_at is None:
            try:
                state = game.load_state()
                names[game.pk] = {state.seats[seat].name for seat in waiting_for(state)}
            except Exception as error:  # the notices of this game fail alone (and the sweep sets it aside)
                unreadable[game.pk] = error
            else:
                states[game.pk] = state
    seats = Seat.objects.filter(game_id__in=names, active=True, user__isnull=False).values_list(
        "game_id", "user_id", "name", "number"
    )
    return Owing(
        {(game_id, user_id): number for game_id, user_id, name, number in seats if name in names[game_id]},
        states,
        unreadable,
    )


def _still_true(row: Notification, games: dict[int, Game], owing: Owing) -> bool:
    """A move notice or reminder is sent only while its step is current and its reader still owes it."""
    if row.kind not in (Notification.Kind.YOUR_MOVE, Notification.Kind.REMINDER):
        return True
    if row.game_id in owing.unreadable:
        raise owing.unreadable[row.game_id]
    game = games.get(row.game_id)
    if game is None or game.step_number != row.data.get("step_number"):
        return False
    if row.kind == Notification.Kind.REMINDER and (
        game.deadline is None or game.deadline.isoformat() != row.data["deadline"]
    ):
        return False
    return (game.pk, row.user_id) in owing


def _retry(notices: list[Notification], now: datetime) -> None:
    for notice in notices:
        notice.attempts += 1
        if notice.attempts >= MAX_ATTEMPTS:
            notice.email = Notification.Email.FAILED
        else:
            notice.email = Notification.Email.PENDING
            notice.email_due_at = now + timedelta(minutes=5 * 2**notice.attempts)
    Notification.objects.bulk_update(notices, ["attempts", "email", "email_due_at"])
