"""Second factors in Chromium, as people use them: a passkey made on the profile's "Two-factor sign-in and passkeys"
page then signing in alone; a moderator sent to set up a security key before the moderation pages, and asked for it
at the next sign-in; an authenticator app whose codes the test computes from the secret the page shows (RFC 6238);
and every one of those pages passes axe-core in English and French, on a desktop and a phone.

The keys are Chromium's own virtual authenticators (the DevTools protocol's WebAuthn domain): the browser runs
allauth's WebAuthn script against the site's real WebAuthn server, and only the hardware is stood in for."""

import base64
import hmac
import struct
import time

import pytest
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from tests.conftest import _missing
from tests.e2e.pages import (
    AXE,
    PASSWORD,
    SERIOUS,
    VIEWPORTS,
    added_security_key,
    asked_again_if_asked,
    signed_in,
    signed_in_long_ago,
    signed_out,
    virtual_authenticator,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSKEY = {"transport": "internal", "hasResidentKey": True, "hasUserVerification": True, "isUserVerified": True}
SECURITY_KEY = {"transport": "usb", "hasResidentKey": False, "hasUserVerification": False}


def totp_code(secret: str, counter: int | None = None) -> str:
    """RFC 6238's code for `secret` (base32, as the page shows it): HMAC-SHA1 of the 30-second counter, truncated
    dynamically (RFC 4226) to 6 digits."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    counter = int(time.time()) // 30 if counter is None else counter
    digest = hmac.new(key, struct.pack(">Q", counter), "sha1").digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{number % 1_000_000:06d}"


def test_the_rfc_6238_code_is_the_one_of_the_rfc_s_own_example():
    # RFC 6238, appendix B: the ASCII secret "12345678901234567890", SHA-1, at 59 s: 94287082 (8 digits; 6 here).
    secret = base64.b32encode(b"12345678901234567890").decode()
    assert totp_code(secret, 59 // 30) == "287082"


def fresh_code(secret: str, used: int) -> tuple[str, int]:
    """A code of a 30-second window after `used` (allauth takes each code once), and its window."""
    while (counter := int(time.time()) // 30) <= used:
        time.sleep(0.5)
    return totp_code(secret, counter), counter


def test_a_passkey_made_on_the_profile_signs_its_player_in_alone(browser, live_server):
    page = signed_in(browser, live_server.url, "ann")
    device = virtual_authenticator(page, **PASSKEY)
    page.goto("/profile/")
    page.get_by_role("link", name="Two-factor sign-in and passkeys").click()
    expect(page).to_have_url(f"{live_server.url}/accounts/2fa/")
    page.locator("main a[href='/accounts/2fa/webauthn/add/']").click()
    asked_again_if_asked(page)
    added_security_key(page, "ann's laptop", passwordless=True)
    expect(page.locator("main")).to_contain_text("Recovery Codes")  # the first factor comes with recovery codes
    key = Authenticator.objects.get(user__username="ann", type=Authenticator.Type.WEBAUTHN)
    assert key.wrap().is_passwordless is True
    assert [held["isResidentCredential"] for held in device.credentials()] == [True]  # kept on the key: a passkey
    page.goto("/accounts/2fa/webauthn/")
    row = page.locator("main table tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("ann's laptop")
    expect(row).to_contain_text("Passkey")
    expect(row).to_contain_text("Not used.")
    signed_out(page)
    expect(page.locator("header.site")).not_to_contain_text("Profile (ann)")
    page.goto("/accounts/login/")
    page.get_by_role("button", name="Sign in with a passkey").click()  # no name, no password
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    expect(page.locator("header.site")).to_contain_text("Profile (ann)")
    page.goto("/accounts/2fa/webauthn/")
    expect(page.locator("main table tbody tr")).to_contain_text("Last used")
    key.refresh_from_db()
    assert key.last_used_at is not None
    page.context.close()


def test_a_moderator_sets_up_a_security_key_and_is_asked_for_it_at_the_next_sign_in(browser, live_server):
    page = signed_in(browser, live_server.url, "zoe")
    Group.objects.get(name="moderators").user_set.add(get_user_model().objects.get(username="zoe"))
    device = virtual_authenticator(page, **SECURITY_KEY)
    page.goto("/moderation/")
    expect(page).to_have_url(f"{live_server.url}/accounts/2fa/?next=%2Fmoderation%2F")
    expect(page.locator("ul.messages")).to_contain_text("Moderators and staff need a second factor")
    page.locator("main a[href='/accounts/2fa/webauthn/add/']").click()
    asked_again_if_asked(page)
    added_security_key(page, "zoe's key", passwordless=False)
    key = Authenticator.objects.get(user__username="zoe", type=Authenticator.Type.WEBAUTHN)
    assert key.wrap().is_passwordless is False
    assert [held["isResidentCredential"] for held in device.credentials()] == [False]  # the site keeps its handle
    page.goto("/moderation/")  # adding the key counts as using it in this session
    expect(page).to_have_url(f"{live_server.url}/moderation/")
    signed_out(page)
    page.goto("/moderation/")
    page.wait_for_url("**/accounts/login/**")
    page.locator("main input[name=login]").fill("zoe")
    page.locator("main input[name=password]").fill(PASSWORD)
    page.locator("main button[type=submit]:not([form])").click()
    page.wait_for_url("**/accounts/2fa/authenticate/**")  # the password alone is not enough: the key is asked for
    page.locator("#mfa_webauthn_authenticate").click()  # "Use a security key": the key answers
    page.wait_for_url(f"{live_server.url}/moderation/")
    expect(page.locator("main h1")).to_be_visible()
    key.refresh_from_db()
    assert key.last_used_at is not None
    page.context.close()


def test_an_authenticator_app_s_codes_sign_its_player_in_after_the_password(browser, live_server):
    page = signed_in(browser, live_server.url, "bob")
    page.goto("/accounts/2fa/")
    page.locator("main a[href='/accounts/2fa/totp/activate/']").click()
    asked_again_if_asked(page)
    expect(page.locator("main img")).to_be_visible()  # the QR code
    secret = page.locator("#authenticator_secret").input_value()
    code, used = fresh_code(secret, 0)
    page.locator("main input[name=code]").fill(code)
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/accounts/2fa/recovery-codes/")
    shown = page.locator("#recovery_codes").input_value().split()
    kept = Authenticator.objects.get(user__username="bob", type=Authenticator.Type.RECOVERY_CODES)
    assert len(shown) == 10 and shown == kept.wrap().get_unused_codes()
    signed_out(page)
    page.goto("/accounts/login/")
    page.locator("main input[name=login]").fill("bob")
    page.locator("main input[name=password]").fill(PASSWORD)
    page.locator("main button[type=submit]:not([form])").click()
    page.wait_for_url("**/accounts/2fa/authenticate/")
    expect(page.locator("header.site")).not_to_contain_text("Profile (bob)")  # not yet: the code is asked
    code, used = fresh_code(secret, used)
    page.locator("main input[name=code]").fill(code)
    page.locator("main button[type=submit]:not([form])").first.click()
    page.wait_for_url(lambda url: "/accounts/2fa/authenticate/" not in url)
    expect(page.locator("header.site")).to_contain_text("Profile (bob)")
    page.context.close()


def test_a_wrong_authenticator_code_is_refused_and_the_player_stays_signed_out(browser, live_server):
    page = signed_in(browser, live_server.url, "cat")
    page.goto("/accounts/2fa/totp/activate/")
    asked_again_if_asked(page)
    secret = page.locator("#authenticator_secret").input_value()
    page.locator("main input[name=code]").fill(fresh_code(secret, 0)[0])
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/accounts/2fa/recovery-codes/")
    signed_out(page)
    page.goto("/accounts/login/")
    page.locator("main input[name=login]").fill("cat")
    page.locator("main input[name=password]").fill(PASSWORD)
    page.locator("main button[type=submit]:not([form])").click()
    page.wait_for_url("**/accounts/2fa/authenticate/")
    wrong = f"{(int(totp_code(secret)) + 1) % 1_000_000:06d}"
    page.locator("main input[name=code]").fill(wrong)
    page.locator("main button[type=submit]:not([form])").first.click()
    expect(page.locator("main .errorlist")).to_be_visible()
    page.goto("/profile/")  # still half-way: asked for the code again, not signed in
    expect(page).to_have_url(f"{live_server.url}/accounts/2fa/authenticate/")
    expect(page.locator("header.site")).not_to_contain_text("Profile (cat)")
    page.context.close()


@pytest.fixture
def axe_source() -> str:
    if not AXE.exists():
        _missing(f"needs axe-core at {AXE}: make test installs it with npm (package-lock.json)")
    return AXE.read_text()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_no_serious_or_critical_accessibility_violation_on_the_second_factor_pages(
    browser, live_server, axe_source, language, device
):
    """Each page as a player meets it: the 2FA page, asked again for the password, the app's QR page, the recovery
    codes, adding a key and the keys' list, the sessions, asked again for a code or a key, and the code asked at
    sign-in."""
    page = signed_in(browser, live_server.url, "dan", language=language, viewport=VIEWPORTS[device])
    page.context.add_init_script(script=axe_source)  # through the browser, not the page: the CSP stays on
    device = virtual_authenticator(page, **SECURITY_KEY)
    found = {}

    def check(what: str) -> None:
        page.wait_for_load_state()
        violations = page.evaluate(SERIOUS)
        if violations:
            found[f"{page.url} ({what})"] = violations

    for url in ("/accounts/2fa/", "/accounts/sessions/"):
        page.goto(url)
        check(url)
    signed_in_long_ago(page)  # else a recent sign-in counts as being asked
    page.goto("/accounts/2fa/totp/activate/")
    expect(page).to_have_url(f"{live_server.url}/accounts/reauthenticate/?next=%2Faccounts%2F2fa%2Ftotp%2Factivate%2F")
    check("asked again for the password")
    asked_again_if_asked(page)
    check("the authenticator app's QR code")
    secret = page.locator("#authenticator_secret").input_value()
    page.locator("main input[name=code]").fill(fresh_code(secret, 0)[0])
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/accounts/2fa/recovery-codes/")
    check("the recovery codes")
    page.goto("/accounts/2fa/webauthn/add/")
    check("adding a key")
    added_security_key(page, "dan's key", passwordless=False)
    assert len(device.credentials()) == 1
    for url in ("/accounts/2fa/", "/accounts/2fa/webauthn/", "/accounts/2fa/reauthenticate/",
                "/accounts/2fa/webauthn/reauthenticate/"):  # fmt: skip
        page.goto(url)
        check(url)
    signed_out(page)
    page.goto("/accounts/login/")
    page.locator("main input[name=login]").fill("dan")
    page.locator("main input[name=password]").fill(PASSWORD)
    page.locator("main button[type=submit]:not([form])").click()
    page.wait_for_url("**/accounts/2fa/authenticate/")
    check("the code asked at sign-in")
    page.context.close()
    assert found == {}, "\n".join(f"{where}: {v}" for where, vs in found.items() for v in vs)
