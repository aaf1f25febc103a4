"""What of a reply by email is posted: the writer's words alone, in the layout of each common mail client.

tests/notify/emails/ holds one reply per client layout (Outlook desktop and web, Gmail, Apple Mail, Thunderbird;
HTML-only and text with HTML; in the site's four languages), each quoting the site's email with a header block
or an attribution line, and the player's address in the quote. Every file there is tested: a new layout is added
by adding its file. `{{REPLY_TO}}` is the reply address.
"""

import email
import re
from email import policy
from pathlib import Path

import pytest
from django.core import mail

from games.models import InboundEmail
from games.notify.replies import handle_message
from games.notify.reply_text import (
    ADDRESS,
    BLOCK_TAG,
    BLOCKQUOTE,
    LONGEST_TAG,
    QUOTE_TAG,
    _quote_start,
    addresses_in,
    html_to_text,
    strip_reply,
)
from tests.factories import make_user, posts, reply_to, running_game, your_move_email

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reply_players")]
EMAILS = Path(__file__).parent / "emails"
ENGLISH = "Bob has been too quiet. I will wait for his answer before I nominate. Ann"
FRENCH = "Je ne fais pas confiance à Bob. Ann"
SPANISH = "Bob miente, voto nein la próxima vez. Ann"
POLISH = "Bob kłamie. Ann"
# A fixture's name says its client, its language (English unless named) and its parts: gmail_french_multipart.eml.
SAID = {"french": FRENCH, "spanish": SPANISH, "polish": POLISH}
LAYOUTS = sorted(path.name for path in EMAILS.glob("*.eml"))
CLIENTS = ["outlook_desktop", "outlook_web", "gmail", "apple_mail", "thunderbird"]
PLAYERS_ADDRESS = "ann@example.com"  # in every fixture's quote


@pytest.fixture
def site_address(settings):
    settings.DEFAULT_FROM_EMAIL = "Secret Hitler by post <moderator@example.org>"


def words(text: str) -> str:
    return " ".join(text.split())


def from_client(name: str, reply_address: str) -> bytes:
    return (EMAILS / name).read_bytes().replace(b"{{REPLY_TO}}", reply_address.encode())


def all_text(raw: bytes) -> str:
    """Every text part of a message, decoded: where its quote's addresses can be looked for."""
    message = email.message_from_bytes(raw, policy=policy.default)
    return "".join(part.get_content() for part in message.walk() if part.get_content_maintype() == "text")


def said_in(name: str) -> str:
    """What the player typed above the quote in the fixture `name`, by the language its name gives."""
    return next((said for language, said in SAID.items() if f"_{language}_" in name), ENGLISH)


def test_the_fixtures_cover_each_common_client_in_each_site_language():
    covered = {(client, said_in(name)) for name in LAYOUTS for client in CLIENTS if name.startswith(client)}
    assert covered == {(client, said) for client in CLIENTS for said in (ENGLISH, *SAID.values())}


@pytest.mark.usefixtures("site_address")
@pytest.mark.parametrize("name", LAYOUTS, ids=[name.removesuffix(".eml") for name in LAYOUTS])
def test_each_clients_quoted_history_is_cut_and_only_the_players_words_are_posted(name):
    game = running_game()
    raw = from_client(name, your_move_email(game).extra_headers["Reply-To"])
    assert handle_message(raw).outcome == InboundEmail.Outcome.POSTED
    [posted] = posts(game)
    assert words(posted) == said_in(name)
    assert PLAYERS_ADDRESS in all_text(raw) and "@" not in posted


@pytest.mark.parametrize("name", [name for name in LAYOUTS if "multipart" in name])
def test_the_html_alternative_of_each_layout_gives_the_same_words(name):
    message = email.message_from_bytes(from_client(name, "reply@example.org"), policy=policy.default)
    html = message.get_body(preferencelist=("html",)).get_content()
    assert words(strip_reply(html_to_text(html))) == said_in(name)


@pytest.mark.parametrize(
    "text, kept",
    [
        ("Yes.\n\nLe lun. 2 mars 2026 à 12:00, Secret Hitler a écrit :\n> Your move", "Yes."),
        ("Tak.\n\nW dniu 2.03.2026 o 12:00, Secret Hitler pisze:\n> x", "Tak."),
        ("Sí.\n\n-----Original Message-----\nFrom: site\nYour move", "Sí."),
        ("Hi\n> quoted at the end\n>\n", "Hi"),
        ("> a quote I answer\nmy answer\n\n--\nsig", "> a quote I answer\nmy answer"),
        ("Top text\n\nReply above this line to post in the game's thread.\nHello ann", "Top text"),
        ("Oui.\nDe : site\nEnvoyé : lundi\nÀ : ann", "Oui."),
        ("Sí.\nDe: site\n\nEnviado el: lunes\nPara: ann", "Sí."),
        ("Tak.\nOd: site\nWysłano: poniedziałek\nDo: ann", "Tak."),
        ("Tak.\nOd: site\nWysłane: poniedziałek\nDo: ann", "Tak."),
        ("Tak.\n\npon., 2 mar 2026 o 12:00 Secret Hitler napisał(a):\n> x", "Tak."),
        ("Sí.\n\nEl lun, 2 mar 2026 a las 12:00, Secret Hitler\n(<x@y.org>) escribió:\n> x", "Sí."),
        ("Hello all\n\nOn Monday bob said he was liberal.", "Hello all\n\nOn Monday bob said he was liberal."),
        ("From: my own notes, bob lied twice.", "From: my own notes, bob lied twice."),
    ],
)
def test_quoted_history_signatures_and_the_footer_are_cut(text, kept):
    assert strip_reply(text) == kept


def test_a_reply_that_still_holds_a_players_address_is_refused_and_the_sender_told_why():
    game = running_game()
    make_user("bob")
    message = your_move_email(game)
    mail.outbox.clear()
    result = handle_message(reply_to(message, "Write to bob at BOB@example.com, he lies."))
    assert result.outcome == InboundEmail.Outcome.REFUSED and posts(game) == []
    [answer] = mail.outbox
    assert answer.to == ["ann@example.com"] and "bob@example.com" in answer.body and "no address" in answer.body


@pytest.mark.usefixtures("site_address")
def test_a_reply_that_still_holds_the_sites_address_is_refused():
    game = running_game()
    raw = reply_to(your_move_email(game), "Seen at moderator@example.org.", message_id="<site@x>")
    assert handle_message(raw).outcome == InboundEmail.Outcome.REFUSED and posts(game) == []


def test_an_address_of_no_one_here_is_posted():
    game = running_game()
    raw = reply_to(your_move_email(game), "The rules: rules@boardgames.example.net.")
    assert handle_message(raw).outcome == InboundEmail.Outcome.POSTED
    assert posts(game) == ["The rules: rules@boardgames.example.net."]


# A hostile message of the allowed size, each built against one pattern: what is read of it.
HOSTILE = {
    "unclosed-divs": ("<div " * 200_000, ""),
    "markers-in-one-tag": ("<div class=x " + "gmail_quote " * 80_000, ""),
    "unclosed-blockquotes": ("<blockquote " * 80_000, ""),
    "at-signs": ("a@" * 400_000, "a@" * 400_000),
}
# The patterns searched for through a whole message (the others read one line, or three joined): each match is at
# most this long, so that a search tries a bounded number of characters at each place, and takes time in
# proportion to the message. A pattern unbounded there (`[^>]*`) tries the rest of the message at each place.
THROUGH_A_MESSAGE = {"BLOCKQUOTE": BLOCKQUOTE, "BLOCK_TAG": BLOCK_TAG, "QUOTE_TAG": QUOTE_TAG, "ADDRESS": ADDRESS}
LONGEST_MATCH = 2 * LONGEST_TAG


class CountedMessage(str):
    """A message that counts the characters read when a quote marker's opening tag is looked for behind it."""

    read = 0

    def rfind(self, sub, start, end):
        self.read += end - start
        return super().rfind(sub, start, end)

    def __getitem__(self, key):
        if isinstance(key, slice):
            self.read += len(range(*key.indices(len(self))))
        return super().__getitem__(key)


@pytest.mark.parametrize("hostile, kept", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_reply_built_to_make_the_cutting_slow_is_read(hostile, kept):
    text = strip_reply(html_to_text(hostile))
    assert text == kept and addresses_in(text) == []


@pytest.mark.parametrize("pattern", THROUGH_A_MESSAGE.values(), ids=THROUGH_A_MESSAGE.keys())
def test_the_patterns_searched_through_a_whole_message_match_a_bounded_length(pattern):
    _shortest, longest = re._parser.parse(pattern.pattern, pattern.flags).getwidth()  # as `re` compiles it
    assert longest <= LONGEST_MATCH


@pytest.mark.parametrize("marker", ["gmail_quote ", "<p>gmail_quote "], ids=["no-tag", "closed-tags"])
def test_a_quote_markers_tag_is_looked_for_a_bounded_way_back_whatever_comes_before(marker):
    markers = 5_000
    message = CountedMessage(marker * markers)
    assert _quote_start(message) is None
    assert message.read <= markers * 2 * LONGEST_TAG  # back to the message's start, it reads 150 million
