"""Browser pages for the end-to-end tests: one browser context per person, who signs in through the real form, or
signs up and confirms their address as a new user does."""

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from allauth.account.models import EmailAddress
from django.core import mail
from django.utils import translation
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from tests.factories import make_user

# axe-core (make test installs it with npm), and what the browser tests ask of it: no serious or critical finding.
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = """async () => {
  const results = await axe.run(document, { resultTypes: ["violations"] });
  return results.violations
    .filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | ")}`);
}"""
PASSWORD = "pw-for-the-browser-1"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}


def said(language: str, text: str, **values) -> str:
    """`text` as the site says it in `language` (its catalogue), with `values` put in; outside English it must have
    been translated, or the test would pass on an English page."""
    with translation.override(language):
        translated = translation.gettext(text)
    assert language == "en" or translated != text, f"not translated into {language}: {text}"
    return translated % values if values else translated


def signed_in(browser: Browser, base_url: str, name: str, *, language: str = "en", **context_options) -> Page:
    """A fresh context for `name` (made a verified account if needed), signed in by the sign-in form; any
    Playwright context option (viewport, java_script_enabled, locale) may be given."""
    user = make_user(name, password=PASSWORD)
    EmailAddress.objects.get_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
    context = browser.new_context(base_url=base_url, **{"viewport": {"width": 1280, "height": 900}, **context_options})
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto("/accounts/login/")
    send_sign_in_form(page, name)
    return page


def send_sign_in_form(page: Page, name: str) -> None:
    """Fill the sign-in form on `page` with `name` and the password, send it, and wait until it is taken."""
    page.locator("main input[name=login]").fill(name)
    page.locator("main input[name=password]").fill(PASSWORD)
    page.locator("main button[type=submit]:not([form])").click()  # the form's own, not the passkey's beside it
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def signing_up(browser, live_server, language: str, device: str, *fields: str) -> tuple[BrowserContext, Page]:
    """A visitor's sign-up form filled with username, email and the password twice, and sent; its context and page."""
    context = browser.new_context(base_url=live_server.url, viewport=VIEWPORTS[device])
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto("/accounts/signup/")
    for name, value in zip(("username", "email", "password1", "password2"), fields, strict=True):
        page.locator(f"#id_{name}").fill(value)
    page.locator("main button[type=submit]").click()
    return context, page


def signed_up(browser: Browser, live_server, name: str, *, language: str = "en", device: str = "desktop") -> Page:
    """A new user as they meet the site: they send the sign-up form, open the link of the email that asks them to
    confirm their address in the same browser, confirm it, and are signed in there and then
    (ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION)."""
    address = f"{name}@example.com"
    context, page = signing_up(browser, live_server, language, device, name, address, PASSWORD, PASSWORD)
    context.set_default_timeout(10_000)
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)  # the form was taken: the site waits for the link
    email = next(message for message in reversed(mail.outbox) if message.to == [address])
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", email.body)
    assert link, f"no confirmation link in the email to {address}: {email.body}"
    page.goto(urlsplit(link.group()).path)
    page.locator("main button[type=submit]").click()
    expect(page.locator("header.site")).to_contain_text(f"{said(language, 'Profile')} ({name})")
    return page


def signed_out(page: Page) -> None:
    """`page`'s person signs out by the sign-out page's button (the header's is folded under Menu on a phone)."""
    page.goto("/accounts/logout/")
    page.locator("main button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/logout/" not in url)


def asked_again_if_asked(page: Page) -> None:
    """If allauth asks for the password again before what `page` opened (reauthentication), give it."""
    page.wait_for_load_state()
    if "/reauthenticate/" in page.url:
        page.locator("main input[name=password]").fill(PASSWORD)
        page.locator("main button[type=submit]").click()
        page.wait_for_url(lambda url: "/reauthenticate/" not in url)


@dataclass
class VirtualKey:
    """A key in a page's browser: the DevTools session it lives in (it goes when that is detached) and its id."""

    session: CDPSession
    id: str

    def credentials(self) -> list[dict]:
        """What the key holds: each credential with its rpId, userHandle and isResidentCredential (a passkey)."""
        return self.session.send("WebAuthn.getCredentials", {"authenticatorId": self.id})["credentials"]


def virtual_authenticator(page: Page, **options) -> VirtualKey:
    """A key in `page`'s browser (the DevTools protocol's virtual authenticator, CTAP2), which answers WebAuthn's
    questions as if touched: a passkey with `transport="internal", hasResidentKey=True, hasUserVerification=True,
    isUserVerified=True`, a security key with `transport="usb", hasResidentKey=False`."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {"protocol": "ctap2", "automaticPresenceSimulation": True, **options}
    return VirtualKey(cdp, cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})["authenticatorId"])


def added_security_key(page: Page, name: str, *, passwordless: bool) -> None:
    """On allauth's "Add Security Key" page: `name`, a passkey or not, and Add; the browser's key answers and the
    form is sent."""
    page.locator("main input[name=name]").fill(name)
    page.locator("main input[name=passwordless]").set_checked(passwordless)
    page.locator("#mfa_webauthn_add").click()
    page.wait_for_url(lambda url: "/accounts/2fa/webauthn/add/" not in url)


def second_factor_used(page: Page, name: str) -> Page:
    """`name` (a moderator, say) has an authenticator app, and the session `page` signed in with it: as after its code
    (tests/e2e/test_second_factor.py sets one up and uses it through the pages)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import get_user_model

    from tests.factories import app_used

    key = next(cookie["value"] for cookie in page.context.cookies() if cookie["name"] == settings.SESSION_COOKIE_NAME)
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    app_used(session, get_user_model().objects.get(username=name))
    return page


def signed_in_long_ago(page: Page) -> Page:
    """The session `page` signed in with dates its sign-in back past ACCOUNT_REAUTHENTICATION_TIMEOUT: what matters
    asks for the password again, as it does an hour after signing in."""
    from importlib import import_module

    from allauth.account.authentication import AUTHENTICATION_METHODS_SESSION_KEY
    from django.conf import settings

    key = next(cookie["value"] for cookie in page.context.cookies() if cookie["name"] == settings.SESSION_COOKIE_NAME)
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    age = settings.ACCOUNT_REAUTHENTICATION_TIMEOUT + 60
    records = session.get(AUTHENTICATION_METHODS_SESSION_KEY, [])
    session[AUTHENTICATION_METHODS_SESSION_KEY] = [{**record, "at": record["at"] - age} for record in records]
    session.save()
    return page
