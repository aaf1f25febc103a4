"""The Web Push protocol, as the site speaks it to a browser's push service: the endpoint checked as webhooks'
addresses are (the browser chose it, so anyone may have), the payload encrypted to the browser's keys (RFC 8291,
aes128gcm, by http-ece), the request signed with the site's VAPID key (RFC 8292, by py-vapid) and sent with its
TTL, Topic and Urgency (RFC 8030) over a connection to a checked address.

The site's key pair: `manage.py vapid_keys` makes one; VAPID_PRIVATE_KEY holds the private half (base64url) and
the public half is derived from it. A browser subscribes with the public key: after a new key, each device is
subscribed again on its next visit, and until then nothing is pushed to it (docs/running/push.md).
"""

import base64
import json
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from functools import cache
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils.translation import gettext as _
from py_vapid import Vapid02

from .webhook_targets import BLOCKED, UNRESOLVED, CheckedHTTPS, reaches, without_url

MAX_ENDPOINT = 1000  # characters; push services' URLs are a few hundred
READ_AT_MOST = 4096  # bytes of a push service's answer read, and none kept
MAX_PAYLOAD = 3000  # bytes before encryption: the whole record must stay under RFC 8030's 4096
TOKEN_LIFETIME = 12 * 3600  # seconds a VAPID token is valid: within RFC 8292's 24 hours


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def configured() -> bool:
    """Whether the site has a VAPID key: without one, nothing is offered or pushed."""
    return bool(settings.VAPID_PRIVATE_KEY)


@cache
def _vapid(private_key: str) -> Vapid02:
    return Vapid02.from_string(private_key)


def public_key() -> str:
    """The site's public key, as the browser's `applicationServerKey` (an uncompressed P-256 point, base64url)."""
    return public_key_of(settings.VAPID_PRIVATE_KEY)


@cache
def public_key_of(private_key: str) -> str:
    key = _vapid(private_key).public_key
    return b64url(key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))


def new_private_key() -> str:
    """A new VAPID private key, as VAPID_PRIVATE_KEY holds it (the raw 32 bytes, base64url)."""
    number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return b64url(number.to_bytes(32, "big"))


def check_endpoint(url: str) -> str:
    """Why the site may not push to `url`, or "": an https URL of a reasonable length whose host resolves only to
    addresses webhooks may reach (checked again when connecting: DNS answers change)."""
    if len(url) > MAX_ENDPOINT:
        return _("This push address is too long.")
    if not url.isprintable() or any(character.isspace() for character in url):  # the resolver stops at a NUL
        return _("This push address is not a URL.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return _("This push address is not a URL.")
    if parts.scheme != "https" or not parts.hostname or parts.username or parts.password:
        return _("A push address starts with https:// and names a host.")
    reached = reaches(parts.hostname, port or 443)
    if reached == UNRESOLVED:
        return _("%(host)s does not resolve to an address.") % {"host": parts.hostname}
    if reached == BLOCKED:
        return _("%(host)s resolves to a private or local address, which the site does not push to.") % {
            "host": parts.hostname
        }
    return ""


def check_keys(p256dh: str, auth: str) -> str:
    """Why these aren't a browser's subscription keys (a P-256 point and a 16-byte secret), or ""."""
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(p256dh))
        secret = unb64url(auth)
    except (ValueError, TypeError):
        return _("The subscription's keys are not valid.")
    return "" if len(secret) == 16 else _("The subscription's keys are not valid.")


def encrypt(payload: bytes, p256dh: str, auth: str) -> bytes:
    """`payload` encrypted to the browser's keys as RFC 8291 says (aes128gcm, a fresh key and salt each time)."""
    receiver = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(p256dh))
    return http_ece.encrypt(
        payload,
        private_key=ec.generate_private_key(ec.SECP256R1()),
        dh=receiver.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint),
        auth_secret=unb64url(auth),
        version="aes128gcm",
    )


def authorization(endpoint: str) -> str:
    """The VAPID Authorization header for `endpoint`'s push service: a JWT for its origin, valid 12 hours."""
    parts = urlsplit(endpoint)
    origin = f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}"
    claims = {"aud": origin, "exp": int(time.time()) + TOKEN_LIFETIME, "sub": settings.VAPID_SUBJECT}
    return _vapid(settings.VAPID_PRIVATE_KEY).sign(claims)["Authorization"]


@dataclass(frozen=True)
class Answer:
    status: int
    retry_after: float | None  # seconds, when the push service said


def send(endpoint: str, p256dh: str, auth: str, message: dict, *, ttl: int, topic: str, urgency: str) -> Answer:
    """POST `message` (JSON) to the device's push service, encrypted and signed; the service's answer."""
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
    if len(body) > MAX_PAYLOAD:
        raise ValueError(f"a push of {len(body)} bytes is over {MAX_PAYLOAD}")
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.hostname:
        raise ValueError("a push address is https, with a host")
    headers = {
        "Authorization": authorization(endpoint),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(max(0, ttl)),
        "Topic": topic,
        "Urgency": urgency,
    }
    connection = CheckedHTTPS(parts.hostname, parts.port or 443, timeout=settings.PUSH_TIMEOUT_SECONDS)
    try:
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("POST", path, body=encrypt(body, p256dh, auth), headers=headers)
        response = connection.getresponse()
        response.read(READ_AT_MOST)  # read a little, keep nothing
        return Answer(response.status, retry_after(response.getheader("Retry-After")))
    finally:
        connection.close()


def retry_after(value: str | None) -> float | None:
    """Retry-After's seconds (RFC 9110: a number of seconds or an HTTP date); None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, OverflowError):
        return None


def redacted_error(error: BaseException, endpoint: str) -> str:
    """An error as it is stored: without the endpoint's path, which is the device's credential."""
    return without_url(f"{type(error).__name__}: {error}", endpoint)[:200]
