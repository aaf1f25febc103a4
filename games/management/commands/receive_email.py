"""`manage.py receive_email [--recipient ADDRESS]`: one email on standard input, from an MTA's pipe transport.

Postfix (master.cf), for the domain of REPLY_ADDRESS:
    sh-reply unix - n n - - pipe
      flags=Rq user=www-data argv=/srv/sh/.venv/bin/python /srv/sh/manage.py receive_email --recipient ${recipient}

Exit status: 0 when the message was handled or deliberately dropped (a forged token, an automatic reply, ...);
75 (EX_TEMPFAIL: the MTA keeps the message and tries again) on any unexpected error, the database being away
among them. Nothing is lost, and a message delivered twice acts once (its Message-ID is kept).
"""

import logging
import sys

from django.core.management.base import BaseCommand

from games.services.inbound import handle_message

EX_TEMPFAIL = 75
log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Handle one email (a reply to a game's email) read on standard input; exit 75 to be retried."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--recipient", action="append", default=[], help="the envelope recipient (repeatable)")

    def handle(self, *args, recipient, **options):
        raw = sys.stdin.buffer.read()
        try:
            result = handle_message(raw, recipient)
        except Exception:
            log.exception("an incoming email could not be handled; the MTA will try again")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(result.outcome or "duplicate")
