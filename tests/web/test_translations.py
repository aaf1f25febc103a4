"""English, French, Spanish and Polish shipped complete, compiled catalogues committed (no GNU gettext needed)."""

import re
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["fr", "es", "pl"]
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_translated_with_its_placeholders(language):
    po = catalogue(language)
    assert po.untranslated_entries() == []
    assert po.fuzzy_entries() == []
    for entry in po:
        expected = set(PLACEHOLDER.findall(entry.msgid)) | set(PLACEHOLDER.findall(entry.msgid_plural or ""))
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) <= expected, entry.msgid
            assert set(PLACEHOLDER.findall(form)) >= set(PLACEHOLDER.findall(entry.msgid)) - {"%(count)s"}, entry.msgid


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_matches_its_source(language):
    po = catalogue(language)
    mo = polib.mofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.mo"))
    compiled = {(entry.msgctxt, entry.msgid): (entry.msgstr, entry.msgstr_plural) for entry in mo}
    for entry in po.translated_entries():
        assert compiled[(entry.msgctxt, entry.msgid)] == (entry.msgstr, entry.msgstr_plural), entry.msgid


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_speak_the_chosen_language(db, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get("/")
    assert page.headers["Content-Language"] == language
    with translation.override(language):
        assert translation.gettext("Open for sign-ups") != "Open for sign-ups"
        assert translation.gettext("Open for sign-ups") in page.content.decode()


def test_french_labels_take_a_no_break_space_before_the_colon(db):
    from tests.factories import make_user, running_game

    game = running_game()
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(make_user("ann"))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Votre rôle\u00a0:" in page
    assert not re.search(r"\w: ", re.sub(r"<[^>]+>", " ", page.split("<main", 1)[1])), "a colon with no space before"
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(make_user("ann"))
    assert "Your role:" in english.get(f"/games/{game.pk}/").content.decode()
