"""Take the README's screenshots of two-factor sign-in: the "Two-factor sign-in and passkeys" page with an
authenticator app and a passkey set up, the authenticator app's QR code page, and the sign-in page's passkey button.

    .venv/bin/python tools/security_screenshots.py

Everything is the site's own: a database of its own (SQLite in a temporary folder), the development server on
localhost (WebAuthn takes no IP address; DEBUG allows it without https there), and a player who sets both up in
Debian's Chromium (headless, through Playwright) as in the browser tests: the app's code computed from the secret the
page shows, the passkey made by Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain). Writes
PNGs to docs/screenshots/.
"""

import base64
import hmac
import struct
import time

from site_of_its_own import CHROMIUM, OUT, serving, set_up

PASSWORD = "pw-for-the-screenshots-1"
DESKTOP = {"width": 1280, "height": 600}  # the page's own height beyond it (full_page)
PASSKEY = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
           "isUserVerified": True, "automaticPresenceSimulation": True}  # fmt: skip


def totp_code(secret: str) -> str:
    """RFC 6238: HMAC-SHA1 of the 30-second counter under the base32 secret, truncated to 6 digits."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(time.time()) // 30), "sha1").digest()
    offset = digest[-1] & 0x0F
    return f"{(struct.unpack('>I', digest[offset : offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


def main() -> None:
    set_up("sh-security-shots-")
    _player("ann")
    with serving() as port:
        _shoot(f"http://localhost:{port}")


def _player(name: str) -> None:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(name, f"{name}@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


def _shoot(base: str) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**CHROMIUM)
        page = browser.new_context(base_url=base, viewport=DESKTOP).new_page()
        page.set_default_timeout(15_000)
        cdp = page.context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        cdp.send("WebAuthn.addVirtualAuthenticator", {"options": PASSKEY})
        page.goto("/accounts/login/")
        page.locator("main input[name=login]").fill("ann")
        page.locator("main input[name=password]").fill(PASSWORD)
        page.locator("main button[type=submit]:not([form])").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        page.goto("/accounts/2fa/totp/activate/")
        if "/reauthenticate/" in page.url:  # asked for the password again before a second factor is added
            page.locator("main input[name=password]").fill(PASSWORD)
            page.locator("main button[type=submit]").click()
            page.wait_for_url("**/accounts/2fa/totp/activate/")
        page.screenshot(path=OUT / "totp-setup.png", full_page=True)
        page.locator("main input[name=code]").fill(totp_code(page.locator("#authenticator_secret").input_value()))
        page.locator("main button[type=submit]").click()
        page.wait_for_url("**/accounts/2fa/recovery-codes/")
        page.goto("/accounts/2fa/webauthn/add/")
        page.locator("main input[name=name]").fill("Ann's phone")
        page.locator("main input[name=passwordless]").check()
        page.locator("#mfa_webauthn_add").click()
        page.wait_for_url(lambda url: "/accounts/2fa/webauthn/add/" not in url)
        page.goto("/accounts/2fa/")
        page.screenshot(path=OUT / "two-factor.png", full_page=True)
        page.goto("/accounts/logout/")
        page.locator("main button[type=submit]").click()
        page.wait_for_url(lambda url: "/accounts/logout/" not in url)
        page.goto("/accounts/login/")
        passkey = page.get_by_role("button", name="Sign in with a passkey")
        passkey.focus()  # the button the screenshot is about, as the keyboard reaches it
        page.screenshot(path=OUT / "passkey-sign-in.png", full_page=True)
        passkey.click()  # and it signs her in: the screenshot shows a button that works
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        assert "Profile (ann)" in page.locator("header.site").inner_text()
        browser.close()


if __name__ == "__main__":
    main()
