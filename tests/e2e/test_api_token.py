"""A new API token in Chromium (issue 29): shown once, in a monospace field with a copy button that copies it to the
clipboard and says so; without JavaScript the field is still there to select, and no button that cannot work."""

import pytest
from playwright.sync_api import expect

from games.models import ApiToken
from tests.e2e.pages import DESKTOP, PHONE, signed_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"copy": "Copy", "copied": "Copied", "once": "it will not be shown again"},
    "fr": {"copy": "Copier", "copied": "Copié", "once": "il ne sera plus montré"},
}


def make_token(page, name: str = "my bot") -> None:
    page.goto("/profile/tokens/")
    page.locator("#id_name").fill(name)
    page.locator("main form.card button[type=submit]").click()


@pytest.mark.parametrize(
    ("language", "viewport"), [("en", DESKTOP), ("fr", PHONE)], ids=["english-desktop", "french-phone"]
)
def test_the_copy_button_puts_the_token_on_the_clipboard_and_says_copied(browser, live_server, language, viewport):
    page = signed_in(browser, live_server.url, "ann", language=language, viewport=viewport)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    make_token(page)
    field, button, words = page.locator("#new-token"), page.locator("#copy-token"), WORDS[language]
    secret = field.input_value()
    assert ApiToken.objects.get(user__username="ann").digest == ApiToken.digest_of(secret)
    assert "monospace" in field.evaluate("f => getComputedStyle(f).fontFamily")
    expect(page.locator("main")).to_contain_text(words["once"])
    expect(button).to_have_text(words["copy"])
    assert button.bounding_box()["x"] + button.bounding_box()["width"] <= viewport["width"]  # on the screen
    button.click()
    expect(button).to_have_text(words["copied"])
    assert page.evaluate("navigator.clipboard.readText()") == secret
    page.goto("/profile/tokens/")  # shown once: the page opened again shows no token
    expect(page.locator("#new-token")).to_have_count(0)
    page.context.close()


def test_without_javascript_the_token_is_selectable_and_no_button_shows(browser, live_server):
    page = signed_in(browser, live_server.url, "ann", java_script_enabled=False, viewport=PHONE)
    make_token(page)
    field = page.locator("#new-token")
    expect(field).to_be_visible()
    expect(field).to_be_enabled()  # read-only, not disabled: it can be focused and its text selected
    expect(field).not_to_be_editable()
    expect(page.locator("#copy-token")).to_be_hidden()
    assert field.input_value().startswith(ApiToken.objects.get(user__username="ann").prefix)
    page.context.close()
