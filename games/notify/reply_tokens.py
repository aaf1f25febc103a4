"""The reply address of a per-game email: a token naming the recipient, the game and the step, signed.

The token is the credential of a reply (a From header is easy to forge): it is a keyed hash (HMAC-SHA256,
truncated to 80 bits) over the user id, the game id and the step number, with the site's SECRET_KEY; tokens made
with a key listed in SECRET_KEY_FALLBACKS are still read, so the key can be rotated as Django's own signatures
are. It is written in base32, lower case and without padding, so that it survives mail systems that fold the
case of addresses, and with its prefix fits the 64 characters of an address's local part:
`reply+<42 characters>@domain`.
"""

import base64
import hmac
import struct
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import salted_hmac

SALT = "games.reply-by-email"
_LAYOUT = struct.Struct(">6s6sI")  # user id, game id (48 bits each), step number
_MAC_BYTES = 10
TOKEN_LENGTH = 42  # base32 of 26 bytes, unpadded


@dataclass(frozen=True)
class ReplyToken:
    user_id: int
    game_id: int
    step_number: int


def make_token(user_id: int, game_id: int, step_number: int) -> str:
    payload = _LAYOUT.pack(user_id.to_bytes(6, "big"), game_id.to_bytes(6, "big"), step_number)
    return base64.b32encode(payload + _mac(payload, settings.SECRET_KEY)).decode().rstrip("=").lower()


def read_token(text: str) -> ReplyToken | None:
    """The token's contents, or None when it is not one this site signed with its key or a fallback key."""
    raw = _decoded(text)
    if raw is None:
        return None
    payload, mac = raw[: _LAYOUT.size], raw[_LAYOUT.size :]
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    if not any(hmac.compare_digest(mac, _mac(payload, key)) for key in keys):
        return None
    return _contents(payload)


def _decoded(text: str) -> bytes | None:
    if len(text) != TOKEN_LENGTH:
        return None
    try:
        return base64.b32decode(text.upper() + "=" * (-len(text) % 8))
    except ValueError:
        return None


def _contents(payload: bytes) -> ReplyToken:
    user, game, step = _LAYOUT.unpack(payload)
    return ReplyToken(int.from_bytes(user, "big"), int.from_bytes(game, "big"), step)


def reply_address(token: str) -> str:
    """The address a reply goes to (REPLY_ADDRESS, with {token} in its local part); empty when not configured."""
    template = settings.REPLY_ADDRESS
    return template.replace("{token}", token) if template else ""


def token_in(address: str) -> str | None:
    """The token of a reply address written as REPLY_ADDRESS says, whatever the case of its letters."""
    template = settings.REPLY_ADDRESS
    if not template or "{token}" not in template:
        return None
    before, after = template.lower().split("{token}")
    address = address.strip().strip("<>").lower()
    if not (address.startswith(before) and address.endswith(after)) or len(address) < len(before) + len(after):
        return None
    return address[len(before) : len(address) - len(after)]


def _mac(payload: bytes, key: str) -> bytes:
    return salted_hmac(SALT, payload, secret=key, algorithm="sha256").digest()[:_MAC_BYTES]
