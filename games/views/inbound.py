"""Inbound webhooks of hosted mail services, through django-anymail: Mailgun, Postmark and Amazon SES.

Each service posts a received reply to its URL under /inbound/; anymail checks the request (the shared secret of
basic authentication, ANYMAIL_WEBHOOK_SECRET, for all three, and Mailgun's own HMAC signature with
MAILGUN_WEBHOOK_SIGNING_KEY) and hands the message to the same handler as the LMTP server and the MTA's pipe
(games.notify.replies). A fault of the site answers 500, so that the service delivers it again later; the
Message-ID makes a second delivery act once. Without ANYMAIL_WEBHOOK_SECRET the URLs answer 404.
"""

import logging

from anymail.exceptions import AnymailError
from anymail.signals import inbound
from anymail.webhooks.amazon_ses import AmazonSESInboundWebhookView
from anymail.webhooks.mailgun import MailgunInboundWebhookView
from anymail.webhooks.postmark import PostmarkInboundWebhookView
from django.conf import settings
from django.dispatch import receiver
from django.http import Http404, HttpResponseBadRequest
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games.notify.replies import handle_message

log = logging.getLogger(__name__)
SERVICES = {
    "mailgun": (MailgunInboundWebhookView, "MAILGUN_WEBHOOK_SIGNING_KEY"),
    "postmark": (PostmarkInboundWebhookView, None),
    "amazon_ses": (AmazonSESInboundWebhookView, None),
}


class SiteFault(Exception):
    """The site could not handle a message it read (the database away): answered 500, the service retries."""


@csrf_exempt  # the service authenticates itself: basic auth, and Mailgun's signature
def inbound_webhook(request, service: str):
    view, key = SERVICES.get(service, (None, None))
    configured = getattr(settings, "ANYMAIL", {})
    if view is None or not configured.get("WEBHOOK_SECRET") or (key and not configured.get(key)):
        raise Http404(_("This address receives nothing here."))
    try:
        return view.as_view()(request)
    except SiteFault:
        raise
    except (AnymailError, ValueError, KeyError, TypeError, AttributeError, IndexError) as error:
        # A body that is not the service's payload (anymail checks the secret first where it can): a clear
        # answer, nothing done, and no retry of what can never be read.
        log.info("an inbound webhook request could not be read: %r", error)
        return HttpResponseBadRequest(_("This request is not a message this site can read."))


@receiver(inbound, dispatch_uid="games.inbound_email")
def _received(sender, event, esp_name, **kwargs) -> None:
    message = event.message
    recipients = [message.envelope_recipient] if getattr(message, "envelope_recipient", None) else []
    try:
        handle_message(message.as_bytes(), recipients)
    except Exception as error:
        raise SiteFault() from error
