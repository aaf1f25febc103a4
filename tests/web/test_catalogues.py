"""What the French, Spanish and Polish catalogues say, read as a whole: one verb for enacting a policy in each
language, French punctuation spacing, Polish that addresses every player alike, and every message the views show
marked for translation and translated."""

import ast
import re
from pathlib import Path

import polib
import pytest

from tests.web.typography import french_spacing_faults

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["fr", "es", "pl"]


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def translations(entry: polib.POEntry) -> list[str]:
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


# Enacting a policy: the verb the panel, the board and the announcements use, and the one it must not drift to.
ENACT = {"fr": ("promulg", r"\badopt"), "es": ("promulg", r"\b(aprob|aprueb)"), "pl": ("uchwal", r"wchodzi w życie")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_verb_for_enacting_a_policy(language):
    """The French panel said "Promulguer" but asked "Adopter une loi fasciste ?": a player reads one verb from the
    board to the confirmation, the rules page and the email commands."""
    verb, rival = ENACT[language]
    enacting = [entry for entry in catalogue(language) if re.search(r"\benact", entry.msgid, re.I)]
    assert len(enacting) > 30
    drifted = {
        entry.msgid: text
        for entry in enacting
        for text in translations(entry)
        if verb not in text.lower() or re.search(rival, text, re.I)
    }
    assert drifted == {}


# A policy: the noun of the board's tracks, and the one it must not drift to.
POLICY = {"fr": ("loi", r"\bpolitiques?\b"), "es": ("ley", r"\bpolíticas?\b"), "pl": ("ustaw", r"\bpolityk")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_noun_for_a_policy(language):
    """The Spanish panel offered to "Promulgar una política fascista" and asked "¿Promulgar una ley fascista?"."""
    noun, rival = POLICY[language]
    policies = [
        entry
        for entry in catalogue(language)
        if re.search(r"\bpolic(y|ies)\b", re.sub(r"%\(\w+\)s", "", entry.msgid), re.I)
    ]
    assert len(policies) > 40
    drifted = {
        entry.msgid: text
        for entry in policies
        for text in translations(entry)
        if noun not in text.lower() or re.search(rival, text, re.I)
    }
    assert drifted == {}


def test_the_french_spacing_check_finds_what_it_must():
    assert french_spacing_faults("Tour 1: reçu") and french_spacing_faults("Tour 1 : reçu")
    assert french_spacing_faults("Prêt ?") and french_spacing_faults("un ; deux") and french_spacing_faults("Oui!")
    assert french_spacing_faults("Tour 1\u00a0: reçu, prêt\u00a0? oui\u202f!") == []
    assert french_spacing_faults("à 10:30, voir https://example.com/a?b=c&amp;d <code>a: b</code>") == []


def test_french_sets_a_no_break_space_before_colons_semicolons_and_marks():
    faults = {
        entry.msgid: french_spacing_faults(text)
        for entry in catalogue("fr")
        for text in translations(entry)
        if french_spacing_faults(text)
    }
    assert faults == {}


# A past tense or a conditional in the second (or first) person singular carries a gender in Polish:
# "Uchwaliłeś" speaks to a man, "Uchwaliłaś" to a woman. So do "jesteś winien" and "abyś mógł".
GENDERED = re.compile(
    r"\b\w+ł(?:eś|aś|em|am|byś|abyś)\b|byś\s+\w+ła?\b|\bjesteś\s+(?:winien|winna|gotów|gotowa|pewien|pewna)\b",
    re.I,
)


def test_the_gender_check_finds_what_it_must():
    found = "Uchwaliłeś Odrzuciłaś Wróciłem abyś mógł jesteś winien dobrałabyś"
    assert len(GENDERED.findall(found)) == 6
    assert GENDERED.findall("Uchwalono ustawę. Gracz, który był winien ruch. Twój głos: Ja. Jesteś w grze!") == []


def test_polish_addresses_every_player_alike():
    """Polish spoke to every player in the masculine ("Uchwaliłeś"): impersonal, noun and present forms fit all."""
    gendered = {
        entry.msgid: GENDERED.findall(text)
        for entry in catalogue("pl")
        for text in translations(entry)
        if GENDERED.search(text)
    }
    assert gendered == {}


# The flash messages the views show (messages.success(...), and the `done` text of a service call).
VIEWS = [*sorted((ROOT / "games" / "views").glob("*.py")), ROOT / "moderation" / "views.py"]
GETTEXT = {"_", "gettext", "gettext_lazy", "pgettext", "ngettext"}
FLASH = {"debug", "info", "success", "warning", "error"}


def flashed(node: ast.expr) -> list[ast.expr]:
    """The expressions a message can be: both sides of `a if c else b`, the text before `% {...}`."""
    if isinstance(node, ast.IfExp):
        return flashed(node.body) + flashed(node.orelse)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return flashed(node.left)
    return [node]


def is_flash(node: ast.AST) -> bool:
    """`messages.success(request, text)` and its kin."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FLASH):
        return False
    return isinstance(node.func.value, ast.Name) and node.func.value.id == "messages" and len(node.args) > 1


def message_arguments(tree: ast.AST) -> list[ast.expr]:
    found = []
    for node in ast.walk(tree):
        if is_flash(node):
            found.append(node.args[1])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {"attempt", "submit"}:
            found += node.args[3:4] + [keyword.value for keyword in node.keywords if keyword.arg == "done"]
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "done" for t in node.targets):
            found.append(node.value)
    return [part for argument in found for part in flashed(argument)]


def view_messages() -> tuple[set[str], list[str]]:
    """The msgids the views flash, and each flashed text that is not a translation (a literal, an f-string)."""
    msgids, unmarked = set(), []
    for path in VIEWS:
        for node in message_arguments(ast.parse(path.read_text())):
            name = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else ""
            if name in GETTEXT:
                msgids.add(node.args[-1].value if name != "ngettext" else node.args[0].value)
            elif isinstance(node, ast.Constant | ast.JoinedStr):
                unmarked.append(f"{path.name}:{node.lineno}")
    return msgids, unmarked


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_a_view_shows_is_translated(language):
    """Saving the profile in French answered "Your profile is saved." in English: each text a view flashes is
    marked for translation (a refusal, `str(error)`, is translated where the service raises it) and translated."""
    msgids, unmarked = view_messages()
    assert unmarked == []
    assert len(msgids) > 15
    translated = {entry.msgid for entry in catalogue(language).translated_entries()}
    assert sorted(msgids - translated) == []
