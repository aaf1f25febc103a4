"""The language menu names each language in itself, whatever the page's language: a reader who cannot read the
page still finds their own."""

import re

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "fr", "es", "pl"])
def test_each_language_is_offered_in_its_own_name(client, language):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    menu = page[page.index('id="language-choice"') : page.index("</select>")]
    offered = re.findall(r'<option value="(\w+)" lang="(\w+)"[^>]*>([^<]+)</option>', menu)
    assert [(code, name) for code, same, name in offered if code == same] == [
        ("en", "English"), ("fr", "Français"), ("es", "Español"), ("pl", "Polski"),
    ]  # fmt: skip
