"""Where webhooks may post: the address check, when a subscription is saved and again when
connecting (DNS rebinding).

Every address a webhook's host name resolves to must be public (no loopback, link-local, private, unique-local,
shared, multicast or reserved address) unless it is listed in WEBHOOK_ALLOWED_ADDRESSES, and the connection goes
to the address checked. An IPv6 address that carries an IPv4 address (IPv4-mapped, 6to4, Teredo, NAT64,
IPv4-compatible) is judged by the IPv4 address it carries: the network delivers it there.
"""

import http.client
import ipaddress
import os
import socket
import ssl
from functools import cache
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from .failures import Described, describe

NAT64 = ipaddress.ip_network("64:ff9b::/96")
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT: not private to Python, not public either
# RFC 6052 section 2.2 (and RFC 8215 for the local-use prefix): the prefix lengths a translator may use under
# each prefix. The address does not say which one its translator uses, so every one is read.
NAT64_PREFIX_LENGTHS = {NAT64: (96,), NAT64_LOCAL: (48, 56, 64, 96)}


class BlockedAddress(Exception):
    """The URL's name resolves to an address webhooks may not reach."""


def redacted(url: str) -> str:
    """`url` as anyone but its owner may see it (a log line, a stored error, the moderators' dashboard): its
    scheme and host. Chat services put the credential in the path (Discord, Slack) or the query, and a URL's
    user info is a password."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        return "…"
    if not host:
        return "…"
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}{f':{port}' if port else ''}/…"


def without_url(text: str, url: str) -> str:
    """`text` (an error's) with every part of `url` but its scheme and host cut: http.client names the path in
    some errors (InvalidURL, as repr: control characters escaped)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    pieces = {url}
    if parts is not None:
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        pieces |= {target, parts.path, parts.query, parts.fragment, parts.username or "", parts.password or ""}
    for piece in sorted(pieces, key=len, reverse=True):  # the whole before its parts
        if len(piece) > 1:
            text = text.replace(piece, redacted(url)).replace(repr(piece)[1:-1], redacted(url))
    return text


def delivery_error(error: BaseException, url: str) -> Described:
    """`error` as a delivery's failure is logged, stored and shown: its text without `url` but for the host."""
    return Described(without_url(describe(error), url)).with_traceback(error.__traceback__)


def check_url(url: str) -> str:
    """Why webhooks may not post to `url` now, or "" (checked again at every delivery: DNS answers change)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return _("A webhook URL starts with https:// (or http://) and names a host.")
    try:
        port = parts.port or 443
    except ValueError:  # out of range: no address has it
        return _("%(host)s does not resolve to an address.") % {"host": parts.hostname}
    reached = reaches(parts.hostname, port)
    if reached == UNRESOLVED:
        return _("%(host)s does not resolve to an address.") % {"host": parts.hostname}
    if reached == BLOCKED:
        return _("%(host)s resolves to a private or local address, which webhooks may not reach.") % {
            "host": parts.hostname
        }
    return ""


PUBLIC, UNRESOLVED, BLOCKED = "public", "unresolved", "blocked"


def reaches(host: str, port: int) -> str:
    """What `host` resolves to now: only addresses the site may reach (PUBLIC), none (UNRESOLVED), or at least one
    it may not (BLOCKED)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError):
        return UNRESOLVED
    if not infos:
        return UNRESOLVED
    return PUBLIC if all(allowed(info[4][0]) for info in infos) else BLOCKED


def allowed(address: str) -> bool:
    """Whether webhooks may reach `address`: listed in WEBHOOK_ALLOWED_ADDRESSES, or public. An IPv6 address
    that carries an IPv4 address is judged by what it carries, so `http://[2002:7f00:1::1]/` is 127.0.0.1."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if str(ip) in settings.WEBHOOK_ALLOWED_ADDRESSES:
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        carried = embedded_ipv4(ip)
        if carried:
            return all(_public(v4) for v4 in carried)
    return _public(ip)


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address `ip` may carry (RFC 4291, 3056, 4380, 6052, 8215); none for a plain IPv6 address."""
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)  # the server and the client (the client's bits are inverted: Python undoes it)
    for prefix, lengths in NAT64_PREFIX_LENGTHS.items():
        if ip in prefix:
            return [rfc6052_ipv4(ip, length) for length in lengths]
    if ip in IPV4_COMPATIBLE and int(ip) > 1:  # :: and ::1 are themselves, not 0.0.0.x
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    return []


def rfc6052_ipv4(ip: ipaddress.IPv6Address, prefix_length: int) -> ipaddress.IPv4Address:
    """The IPv4 address that RFC 6052's layout for `prefix_length` (32, 40, 48, 56, 64 or 96) puts in `ip`: right
    after the prefix, except that bits 64-71 (the "u" octet) never hold any of it, so below /64 the address is
    split around them (/56: one octet before, three after)."""
    value = int(ip)
    if prefix_length == 96:
        return ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if prefix_length not in (32, 40, 48, 56, 64):
        raise ValueError(f"RFC 6052 has no /{prefix_length} layout")
    without_u = ((value >> 64) << 56) | (value & (2**56 - 1))  # bits 0-63 then 72-127: 120 bits
    return ipaddress.IPv4Address((without_u >> (120 - prefix_length - 32)) & 0xFFFFFFFF)


def _public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or (isinstance(ip, ipaddress.IPv4Address) and ip in SHARED)
    )


def checked_socket(host: str, port: int, timeout: float) -> socket.socket:
    """A socket connected to an address of `host` that every one of its addresses passes (checked now, when
    connecting: a name that changes its answers after being saved reaches nothing it may not)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    if not infos:
        raise BlockedAddress(f"{host} has no address")
    for _family, _type, _proto, _name, address in infos:
        if not allowed(address[0]):
            raise BlockedAddress(f"{host} resolves to {address[0]}, which webhooks may not reach")
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.settimeout(timeout)
    try:
        sock.connect(address)
    except OSError:
        sock.close()
        raise
    return sock


class CheckedHTTP(http.client.HTTPConnection):
    """An HTTP connection that only ever reaches a checked address."""

    def connect(self) -> None:
        self.sock = checked_socket(self.host, self.port, self.timeout)


class CheckedHTTPS(http.client.HTTPSConnection):
    """An HTTPS connection that only ever reaches a checked address (the certificate checked for the name)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, context=tls_context(), **kwargs)

    def connect(self) -> None:
        self.sock = self._context.wrap_socket(
            checked_socket(self.host, self.port, self.timeout), server_hostname=self.host
        )


def tls_context() -> ssl.SSLContext:
    """The process's verifying TLS context: loading the system's certificates costs more than a whole push or
    webhook, so it is done once, and again only if where OpenSSL reads them from changes."""
    return _tls_context(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@cache
def _tls_context(cafile: str | None, capath: str | None) -> ssl.SSLContext:
    return ssl.create_default_context()
