"""`manage.py receive_email [--recipient ADDRESS]`: one email on standard input, from an MTA's pipe transport.

An MTA calls it through `deploy/receive_email.py`, which reads the site's environment file first (Postfix's pipe
starts its command with an empty environment) and turns a site that cannot start into exit 75 too. Postfix
(master.cf), for the domain of REPLY_ADDRESS: see docs/running/mail.md.

Exit status: 0 when the message was handled or deliberately dropped (a forged token, an automatic reply, ...);
75 (EX_TEMPFAIL: the MTA keeps the message and tries again), with the reason on standard error, when the site
cannot judge it (REPLY_ADDRESS unset, another SECRET_KEY than the one the site signs with: checked before the
message is read) or on any unexpected error, the database being away among them. Nothing is lost, and a message
delivered twice acts once.
"""

import logging
import sys

from django.core.management.base import BaseCommand

from games.notify.replies import CannotReceive, check_can_receive, handle_message

EX_TEMPFAIL = 75
log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Handle one email (a reply to a game's email) read on standard input; exit 75 to be retried."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--recipient", action="append", default=[], help="the envelope recipient (repeatable)")

    def handle(self, *args, recipient, **options):
        try:
            check_can_receive()  # before the message is read: a process that can judge none reads none
            result = handle_message(sys.stdin.buffer.read(), recipient)
        except CannotReceive as error:
            self._try_again_later(str(error))
        except Exception as error:
            log.exception("an incoming email could not be handled; the MTA will try again")
            self._try_again_later(f"the site could not handle it: {error!r}")
        self.stdout.write(result.outcome or "duplicate")

    def _try_again_later(self, reason: str) -> None:
        self.stderr.write(f"receive_email: {reason}. Nothing was recorded; the MTA keeps the message and tries again.")
        sys.exit(EX_TEMPFAIL)
