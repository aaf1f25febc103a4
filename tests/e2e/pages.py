"""Browser pages for the end-to-end tests: one browser context per person, signed in through the real form."""

from allauth.account.models import EmailAddress
from django.utils import translation
from playwright.sync_api import Browser, Page

from tests.factories import make_user

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
    page.locator("main input[name=login]").fill(name)
    page.locator("main input[name=password]").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page
