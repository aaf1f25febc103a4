"""A push service for the tests and `bench_push`, on loopback, speaking RFC 8030 over HTTPS as browsers' push
services do: it makes subscriptions (an endpoint and the keys a browser would hold), and for each push it receives
it checks the VAPID JWT (RFC 8292: ES256 under the key in the header, which must be the site's; `aud` its own
origin; `exp` in the future and within 24 hours; a `sub`), the headers RFC 8030 requires (TTL; aes128gcm
content), and decrypts the payload with the subscription's private key as RFC 8291 says, written here from the
RFC with `cryptography` rather than with the library the site encrypts with. It answers each push as the test
asks (201 by default).

Its certificate is its own: the tests point OpenSSL's SSL_CERT_FILE at it (`certificate`), as an operator would
for a private CA, so the site's HTTPS connection verifies it like any other.
"""

import base64
import datetime
import ipaddress
import json
import os
import ssl
import struct
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.x509.oid import NameOID

# PushManager as the browser has it, but subscribing to this push service: a browser's own subscribe() asks its
# vendor's push service, which this machine cannot reach. A context's init script, the subscription's JSON put in.
STAND_IN = """
(() => {
  const subscription = %s;
  let options = null;
  const made = () => ({ endpoint: subscription.endpoint, options: options, toJSON: () => subscription,
                        unsubscribe: () => { localStorage.removeItem("subscribed"); return Promise.resolve(true); } });
  PushManager.prototype.subscribe = function (asked) {
    options = asked;
    localStorage.setItem("subscribed", JSON.stringify(Array.from(new Uint8Array(asked.applicationServerKey))));
    return Promise.resolve(made());
  };
  PushManager.prototype.getSubscription = function () {
    const key = localStorage.getItem("subscribed");
    if (!key) return Promise.resolve(null);
    options = { applicationServerKey: new Uint8Array(JSON.parse(key)).buffer };
    return Promise.resolve(made());
  };
})();
"""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _point(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def decrypt(body: bytes, private_key: ec.EllipticCurvePrivateKey, auth_secret: bytes) -> bytes:
    """RFC 8291 section 3.4 with RFC 8188's header: the plaintext of a one-record aes128gcm message."""
    salt, record_size, id_length = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
    sender_public = body[21 : 21 + id_length]
    ciphertext = body[21 + id_length :]
    if id_length != 65 or record_size < 18 or len(ciphertext) > record_size:
        raise ValueError("not one aes128gcm record with the sender's key as its key id")
    sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_public)
    shared = private_key.exchange(ec.ECDH(), sender)
    key_info = b"WebPush: info\x00" + _point(private_key.public_key()) + sender_public
    ikm = _hkdf(auth_secret, shared, key_info, 32)
    key = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    padded = AESGCM(key).decrypt(nonce, ciphertext, None).rstrip(b"\x00")
    if not padded.endswith(b"\x02"):  # the last record's delimiter
        raise ValueError("no last-record delimiter")
    return padded[:-1]


def verify_vapid(header: str, audience: str, site_key: str) -> dict:
    """RFC 8292's `vapid t=JWT, k=KEY`: the JWT's claims, once every check passed; ValueError naming the first
    that failed."""
    scheme, _space, params = header.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"scheme {scheme!r}")
    values = dict(part.strip().split("=", 1) for part in params.split(","))
    if values.get("k") != site_key:
        raise ValueError("k is not the site's public key")
    head, claims, signature = values["t"].split(".")
    if json.loads(unb64url(head)) != {"typ": "JWT", "alg": "ES256"}:
        raise ValueError(f"header {unb64url(head)!r}")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(values["k"]))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises InvalidSignature
    decoded = json.loads(unb64url(claims))
    if decoded.get("aud") != audience:
        raise ValueError(f"aud {decoded.get('aud')!r} is not {audience!r}")
    if not time.time() < decoded.get("exp", 0) <= time.time() + 24 * 3600:
        raise ValueError(f"exp {decoded.get('exp')} is not within 24 hours")
    if not str(decoded.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError(f"sub {decoded.get('sub')!r}")
    return decoded


@dataclass
class Subscription:
    """What a browser holds for one subscription, and what it was sent."""

    number: int
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    answers: list = field(default_factory=list)  # (status, headers) to give, in order; then 201
    received: list = field(default_factory=list)  # each push: {"message", "ttl", "topic", "urgency", "at"}

    def as_browser_gives_it(self) -> dict:
        """PushSubscription.toJSON()."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(_point(self.private_key.public_key())),
                                                     "auth": b64url(self.auth)}}  # fmt: skip

    @property
    def messages(self) -> list[dict]:
        return [push["message"] for push in self.received]


class PushService:
    """The service, started on a free loopback port; `site_key` is the public VAPID key pushes must be signed
    with (the site's)."""

    def __init__(self, site_key: str):
        self.site_key, self.subscriptions, self.refused = site_key, {}, []
        self.lock = threading.Lock()
        self.directory = tempfile.TemporaryDirectory()
        self.certificate = Path(self.directory.name) / "push-service.pem"
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                service.handle(self)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*self._certificate())
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.origin = f"https://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _certificate(self) -> tuple[Path, Path]:
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "the tests' push service")])
        now = datetime.datetime.now(datetime.UTC)
        certificate = (
            x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256())
        )  # fmt: skip
        self.certificate.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        key_file = Path(self.directory.name) / "push-service.key"
        pkcs8 = serialization.PrivateFormat.PKCS8
        key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, pkcs8, serialization.NoEncryption()))
        return self.certificate, key_file

    def subscribe(self) -> Subscription:
        with self.lock:
            number = len(self.subscriptions) + 1
            subscription = Subscription(
                number, f"{self.origin}/push/{number}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
            )
            self.subscriptions[number] = subscription
        return subscription

    def handle(self, request: BaseHTTPRequestHandler) -> None:
        body = request.rfile.read(int(request.headers.get("Content-Length", 0)))
        number = request.path.removeprefix("/push/")
        subscription = self.subscriptions.get(int(number)) if number.isdigit() else None
        try:
            if subscription is None:
                raise LookupError("no such subscription")
            verify_vapid(request.headers.get("Authorization", ""), self.origin, self.site_key)
            if request.headers.get("Content-Encoding") != "aes128gcm" or not request.headers.get("TTL", "").isdigit():
                raise ValueError("RFC 8030 wants a TTL, and aes128gcm content")
            message = json.loads(decrypt(body, subscription.private_key, subscription.auth))
        except LookupError as error:
            return self._answer(request, 404, {}, error)
        except Exception as error:
            return self._answer(request, 400, {}, error)
        with self.lock:
            status, headers = subscription.answers.pop(0) if subscription.answers else (201, {})
            if status == 201:
                subscription.received.append({
                    "message": message, "ttl": int(request.headers["TTL"]), "topic": request.headers.get("Topic"),
                    "urgency": request.headers.get("Urgency"), "at": time.monotonic(),
                })  # fmt: skip
        self._answer(request, status, headers, None)

    def _answer(self, request, status: int, headers: dict, error: BaseException | None) -> None:
        if error is not None:
            self.refused.append(f"{type(error).__name__}: {error}")
        request.send_response(status)
        for name, value in headers.items():
            request.send_header(name, value)
        request.send_header("Content-Length", "0")
        request.end_headers()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.directory.cleanup()
