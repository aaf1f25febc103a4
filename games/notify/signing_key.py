"""The key the site signs its reply addresses with, known to every process by its fingerprint.

A process that reads replies (`receive_email`, `lmtp_server`, the inbound webhooks) compares its own keys with
the site's before it reads any message: started with another SECRET_KEY, it would take every genuine reply for a
forgery, so it asks for each message to be delivered again later instead, until the keys agree. Once they do, a
token that fails its signature can only be a forgery, and is dropped at once like any other.

The fingerprint is an HMAC of a fixed label with the key, never the key itself. Only the processes that sign
record it: `migrate` when it ends (each release runs it before the new code serves) and the outbox before each
batch of emails, so that a key changed without a migrate is recorded with the first email it signs. A process
that only reads never writes it: started with a wrong key, it would make that key the site's.
"""

from django.conf import settings
from django.db.models import Manager
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from games.models import SigningKey

ROW = 1  # the one row (the table's constraint)
LABEL = "games.notify.signing_key"


def fingerprint(key: str) -> str:
    return salted_hmac(LABEL, "the key reply addresses are signed with", secret=key, algorithm="sha256").hexdigest()


def record_signing_key(rows: Manager | None = None) -> bool:
    """Record this process's SECRET_KEY as the one the site signs with; whether the record changed. `rows`: the
    model's manager, the migration state's one during `migrate`."""
    rows = SigningKey.objects if rows is None else rows
    mine = fingerprint(settings.SECRET_KEY)
    if rows.filter(pk=ROW, fingerprint=mine).exists():
        return False
    rows.update_or_create(pk=ROW, defaults={"fingerprint": mine, "recorded_at": timezone.now()})
    return True


def another_key() -> bool:
    """The site signs with a key this process cannot read tokens with (neither its SECRET_KEY nor one of its
    SECRET_KEY_FALLBACKS, so a key being rotated reads both). With nothing recorded yet, this process's own
    keys are taken as the site's: holding every message until something is recorded would hold spam to the reply
    domain too, and bounce it to forged senders days later."""
    recorded = SigningKey.objects.filter(pk=ROW).values_list("fingerprint", flat=True).first()
    if recorded is None:
        return False
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return not any(constant_time_compare(recorded, fingerprint(key)) for key in keys)
