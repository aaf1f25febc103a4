"""`manage.py lmtp_server [--host 127.0.0.1] [--port 8025]`: receive replies by LMTP (RFC 2033), from an MTA.

Postfix (main.cf), for the domain of REPLY_ADDRESS:
    relay_domains = reply.example.org
    transport_maps = inline:{ reply.example.org=lmtp:inet:127.0.0.1:8025 }

Each recipient of a message gets its own answer, as LMTP asks: 250 when the message was handled or
deliberately dropped, 552 when it is larger than INBOUND_MAX_BYTES (dropped unread: the MTA tells
the sender), 451 (try again later) when the site could not judge or handle it (REPLY_ADDRESS unset, another
SECRET_KEY than the one the site signs with, the database away); the MTA keeps the message until then. What
makes every message 451 is said on standard error at start, and logged with each message. A message delivered
twice acts once (its Message-ID is kept).
"""

import asyncio
import logging

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connections

from games.notify.replies import CannotReceive, Outcome, Result, check_can_receive, handle_message

log = logging.getLogger(__name__)
TRY_AGAIN = "451 4.3.0 Requested action aborted: try again later"


class InboundHandler:
    """aiosmtpd's handler: each message goes to the one handler behind every way mail comes in."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        try:
            result = await sync_to_async(_handle, thread_sensitive=True)(envelope.content, list(envelope.rcpt_tos))
        except CannotReceive as error:
            log.warning("an incoming email was not judged: %s; the MTA will try again", error)
            status = TRY_AGAIN
        except Exception:
            log.exception("an incoming email could not be handled; the MTA will try again")
            status = TRY_AGAIN
        else:  # too large: dropped unread, and the MTA tells the sender
            status = "552 5.3.4 Message too big" if result.outcome == Outcome.OVERSIZED else "250 2.0.0 OK"
        return "\r\n".join([status] * max(1, len(envelope.rcpt_tos)))  # LMTP: one answer per recipient


def _handle(content: bytes, recipients: list[str]) -> Result:
    """In a thread of its own; a connection per message (replies are few), so that a database restarted
    meanwhile costs nothing but the message the MTA retries."""
    try:
        return handle_message(content, recipients)
    finally:
        connections.close_all()


def lmtp_controller(host: str, port: int) -> Controller:
    """The LMTP server, started and stopped by the caller (the command, or a test)."""

    class LMTPController(Controller):
        def factory(self):
            return LMTP(self.handler, data_size_limit=settings.INBOUND_MAX_BYTES + 65_536)

    return LMTPController(InboundHandler(), hostname=host, port=port, ready_timeout=10)


class Command(BaseCommand):
    help = "Receive replies to game emails by LMTP and post them in the games' threads."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8025)

    def handle(self, *args, host, port, **options):
        self._check_at_start()
        controller = lmtp_controller(host, port)
        controller.start()
        self.stdout.write(f"LMTP server on {host}:{port}")
        try:
            asyncio.run(_forever())
        except KeyboardInterrupt:
            pass
        finally:
            controller.stop()

    def _check_at_start(self) -> None:
        """Say at once why every message will be answered 451, rather than when the first one comes; each
        message is checked again, so the server receives as soon as it is put right."""
        try:
            check_can_receive()
        except Exception as error:
            self.stderr.write(f"lmtp_server: {error}. Every message is answered 451 (try again later) meanwhile.")
        finally:
            connections.close_all()


async def _forever() -> None:
    while True:
        await asyncio.sleep(3600)
