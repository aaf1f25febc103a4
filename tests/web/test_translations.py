"""English, French, Spanish and Polish shipped complete, compiled catalogues committed (no GNU gettext needed to
run; the check that every msgid of the source is translated runs makemessages, hence xgettext)."""

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.utils import translation

from tests.conftest import _missing

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


TEMPLATES = ROOT / "templates"
_LITERAL = r"u'(?:[^'\\]|\\.)*'"
_CALLS = re.compile(
    rf"\b(gettext|pgettext|ngettext|npgettext)\(({_LITERAL})(?:, ({_LITERAL}))?(?:, ({_LITERAL}))?(?:, \w+)?\)"
)


def template_strings() -> set[tuple[str | None, str]]:
    """Every (context, msgid) the site's templates translate, found the way makemessages finds them."""
    import ast

    from django.utils.translation.template import templatize

    found = set()
    for path in sorted(TEMPLATES.rglob("*.html")) + sorted(TEMPLATES.rglob("*.txt")):
        for call, *literals in _CALLS.findall(templatize(path.read_text(), origin=str(path))):
            strings = [ast.literal_eval(literal) for literal in literals if literal]
            context = strings.pop(0) if call.startswith(("pgettext", "npgettext")) else None
            found.add((context, strings[0]))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_template_string_is_translated(language):
    po = catalogue(language)
    translated = {(entry.msgctxt, entry.msgid) for entry in po.translated_entries()}
    strings = template_strings()
    assert len(strings) > 300
    assert sorted(strings - translated, key=str) == []


ENGLISH = re.compile(
    r"\b(the|and|your|you|Round|Deadline|Waiting|Reply|hours|Visibility|timeout|Missing|left|Lobby|Players|"
    r"Sign|Join|with|this|game|Liberal|Fascist|policy|Profile)\b"
)


def visible_text(html: str) -> str:
    body = html.split("<body", 1)[1]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"<[^>]+>", " ", body)


def test_no_english_word_on_a_french_page(db, settings):
    from django.contrib.auth.models import Group

    from games.notify.webpush import new_private_key

    settings.VAPID_PRIVATE_KEY = new_private_key()  # the devices page as a site that pushes shows it

    from games.services.transfer import import_script
    from tests.factories import governments, make_user, script, strongly_signed_in

    game = import_script(script(actions=governments(("ann", "bob"))[:6]), name="Partie de test")
    player = Client(HTTP_ACCEPT_LANGUAGE="fr")
    player.force_login(make_user("bob"))  # the chancellor: a panel with cards to enact
    zoe = make_user("zoe")
    zoe.groups.add(Group.objects.get(name="moderators"))
    moderator = strongly_signed_in(Client(HTTP_ACCEPT_LANGUAGE="fr"), zoe)
    pages = {
        player: [
            "/",
            f"/games/{game.pk}/",
            f"/games/{game.pk}/rules/",
            "/games/new/",
            "/profile/",
            "/notifications/",
            "/profile/devices/",
            "/offline/",
            "/users/bob/",
        ],
        moderator: ["/moderation/", f"/moderation/games/{game.pk}/", "/moderation/reports/", "/moderation/audit/"],
    }
    for client, urls in pages.items():
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            text = visible_text(response.content.decode())
            assert ENGLISH.findall(text) == [], (url, ENGLISH.findall(text))
    # The moderation page above was its warning (issue 29): past it, the page itself.
    response = moderator.post(f"/moderation/games/{game.pk}/see/", follow=True)
    assert "secrets-warning" not in response.content.decode() and response.status_code == 200
    assert ENGLISH.findall(visible_text(response.content.decode())) == []


@pytest.mark.slow
def test_no_rule_code_in_what_players_read():
    """Rule ids ("R18", "T1", "E4") are for the specification and the rules page, which prints them beside its
    sections; no message, label or page text the site translates carries one."""
    coded = [entry.msgid for entry in catalogue("fr") if re.search(r"\b[RTE]\d{1,2}\b", entry.msgid)]
    assert coded == []


# What ships: the apps and the templates. Measuring code (devtools/), tests and tools are not read by players.
NOT_SHIPPED = {"devtools", "docs", "locale", "node_modules", "tests", "tools", "var"}


def source_strings(tmp_path: Path, monkeypatch) -> set[tuple[str | None, str]]:
    """Every (context, msgid) that `makemessages` finds in the shipped source, extracted from a copy so that the
    committed catalogues are never rewritten: makemessages writes beside the nearest `locale` folder."""
    from django.core.management import call_command
    from django.test import override_settings

    def skipped(folder: str, names: list[str]) -> set[str]:
        top = Path(folder) == ROOT
        return {name for name in names if name.startswith(".") or (top and name in NOT_SHIPPED)}

    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=skipped)
    (source / "locale").mkdir()
    monkeypatch.chdir(source)  # makemessages reads the current folder
    with override_settings(LOCALE_PATHS=[]):  # else the committed locale folder would get the strings
        call_command("makemessages", locale=["fr"], verbosity=0)
    extracted = polib.pofile(str(source / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    return {(entry.msgctxt, entry.msgid) for entry in extracted}


@pytest.mark.slow
def test_every_string_in_the_source_is_translated(tmp_path, monkeypatch):
    """A refusal or label added to the code but not to the catalogues reaches a French, Spanish or Polish player
    in English: every msgid makemessages finds has a translation (not fuzzy) in each language."""
    if not shutil.which("xgettext"):
        _missing("needs GNU gettext's xgettext (Debian's gettext package), which makemessages runs")
    strings = source_strings(tmp_path, monkeypatch)
    assert len(strings) > 800
    missing = {}
    for language in LANGUAGES:
        translated = {(entry.msgctxt, entry.msgid) for entry in catalogue(language).translated_entries()}
        missing[language] = sorted((msgid for _, msgid in strings - translated), key=str)
    assert missing == {language: [] for language in LANGUAGES}
