"""What a reply by email says: the words its writer typed, without the email it quotes back.

Mail clients quote in many layouts, and a quoted header block ("From: ... Sent: ... To: ann <ann@...>") posted in
a public thread shows a player's address. So the quoted history is cut in every layout the common clients write
(Outlook desktop and web, Gmail, Apple Mail, Thunderbird), in the header words of the site's languages (and the
common others): first in the HTML, by the container each client wraps it in, then in the text, by its
attribution line ("On ... wrote:"), its separator ("-----Original Message-----") or its header block. What is
left must hold no address of the site or of a person (`addresses_in`), or it is refused, not posted.
"""

import html
import re
from email.message import EmailMessage
from email.utils import parseaddr
from functools import reduce
from operator import or_

import nh3
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import translation

from .email_compose import reply_marker

# The verb that ends the line a mail client writes above the text it quotes, in the site's languages and more.
_WROTE_VERB = r"(wrote|a écrit|escribió|pisze|napisał\(a\)|napisała?|schrieb|schreef)"
WROTE = re.compile(
    rf"^\s*(On|Le|El|W dniu|Am|Op)\b.+\b{_WROTE_VERB}\s*:?\s*$"  # Gmail, Outlook, Apple Mail, Thunderbird
    rf"|^\s*(\w{{2,4}}\.?,\s*)?\d.+\b{_WROTE_VERB}\s*:\s*$"  # Gmail in Polish: "pon., 2 mar 2026 ... napisał(a):"
    r"|^\s*Wiadomość napisana przez\b.+:\s*$",  # Apple Mail in Polish
    re.IGNORECASE,
)
FORWARDED = re.compile(
    r"^\s*(-{2,}\s*(Original Message|Forwarded message|Message d'origine|Message transféré|Mensaje original"
    r"|Mensaje reenviado|Wiadomość oryginalna|Przekazana wiadomość|Ursprüngliche Nachricht)\s*-{2,}|_{10,})\s*$",
    re.IGNORECASE,
)
# A quoted header's name, Outlook's and Apple Mail's words in en, fr, es, pl (and de, nl): "De :" takes a space.
# Outlook in Polish writes "Wysłane:" (desktop) or "Wysłano:" (on the web), Spanish "Enviado el:" or "Enviado:".
_HEADER_NAME = (
    r"From|Sent|Date|To|Cc|Bcc|Subject|Reply-To|De|Envoyé|À|Objet|Répondre à|Enviado el|Enviado|Fecha|Para|Asunto"
    r"|Responder a|Od|Wysłane|Wysłano|Data|Do|DW|UDW|Temat|Von|Gesendet|An|Betreff|Van|Verzonden|Aan|Onderwerp"
)
HEADER_LINE = re.compile(rf"^\s*\**({_HEADER_NAME})\**\s*:\s*\S", re.IGNORECASE)
FROM_LINE = re.compile(r"^\s*\**(From|De|Od|Von|Van)\**\s*:\s*\S", re.IGNORECASE)
# The element each client wraps the quoted history in (cut with all that follows it), known by a word in its
# opening tag: Outlook desktop and web (divRplyFwdMsg, appendonsend, the top border Word draws above the quoted
# header), new Outlook and Outlook for Mac, Gmail, Thunderbird, Yahoo.
QUOTE_MARKER = re.compile(
    r"divRplyFwdMsg|appendonsend|mail-editor-reference-message-container|stopSpelling|gmail_quote|gmail_attr"
    r"|moz-cite-prefix|yahoo_quoted|OutlookMessageHeader|border-top\s*:\s*solid\s+#(E1E1E1|B5C4DF)",
    re.IGNORECASE,
)
QUOTE_TAG = re.compile(r"<(div|hr)\b", re.IGNORECASE)
LONGEST_TAG = 2000  # how far back from a marker its opening tag is looked for: the work stays linear
BLOCK = "\ue000"  # a private-use character: the edge of a block element, while HTML is made text
BLOCKQUOTE = re.compile(r"<(/?)blockquote\b[^>]{0,2000}>", re.IGNORECASE)  # bounded: linear in the worst case
BLOCK_TAG = re.compile(r"</?(p|div|li|h[1-6]|tr)\b[^>]{0,2000}>", re.IGNORECASE)
# Bounded like RFC 5321's lengths, so that a long run of letters is scanned in linear time.
ADDRESS = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}")
MOST_ADDRESSES = 50  # looked up in one query; a text with more is refused for holding too many


def reply_text(message: EmailMessage) -> str:
    """What the person wrote: the plain text (or the HTML made text), without what it quotes or signs off with."""
    body = message.get_body(preferencelist=("plain", "html"))
    if body is None:
        return ""
    try:
        content = body.get_content()
    except (LookupError, UnicodeDecodeError, AssertionError):  # an unknown charset or a broken part
        return ""
    if body.get_content_type() == "text/html":
        content = html_to_text(content)
    return strip_reply(content.replace("\x00", ""))  # NUL is no text (and PostgreSQL refuses it)


def html_to_text(markup: str) -> str:
    """HTML to plain text, safely: the quoted history cut, line breaks kept, every tag removed by nh3, entities
    decoded."""
    markup = _without_blockquotes(markup[: _quote_start(markup)])
    markup = BLOCK_TAG.sub(BLOCK, re.sub(r"(?i)<br\s*/?>", "\n", markup))
    text = html.unescape(nh3.clean(markup, tags=set()))
    return re.sub(rf"{BLOCK}(\s*{BLOCK})*", "\n", text)  # where blocks meet, one line break


def _quote_start(markup: str) -> int | None:
    """Where the first element a client wraps its quoted history in opens, or None."""
    for marker in QUOTE_MARKER.finditer(markup):
        start = markup.rfind("<", max(0, marker.start() - LONGEST_TAG), marker.start())
        if start >= 0 and ">" not in markup[start : marker.start()] and QUOTE_TAG.match(markup, start):
            return start
    return None


def _without_blockquotes(markup: str) -> str:
    """Each outermost <blockquote> (nested ones inside it too) made one quote line, so that an answer written
    between quotes is kept; an unclosed one takes all that follows."""
    kept, depth, start = [], 0, 0
    for tag in BLOCKQUOTE.finditer(markup):
        closing = bool(tag.group(1))
        if not closing and depth == 0:
            kept.append(markup[start : tag.start()])
        depth = max(0, depth - 1) if closing else depth + 1
        if closing and depth == 0:
            kept.append("\n> \n")
            start = tag.end()
    if depth == 0:
        kept.append(markup[start:])
    else:
        kept.append("\n> \n")
    return "".join(kept)


def strip_reply(text: str) -> str:
    """Cut the email quoted back and everything after it, the "wrote:" line, the signature and the site's footer."""
    lines = text.replace("\r\n", "\n").split("\n")
    kept = lines[: _end_of_reply(lines)]
    while kept and (not kept[-1].strip() or kept[-1].lstrip().startswith(">")):  # the quote at the bottom
        kept.pop()
    return "\n".join(kept).strip()


def _end_of_reply(lines: list[str]) -> int:
    markers = _reply_markers()
    for number, line in enumerate(lines):
        if line.rstrip() == "--":  # the signature separator, "-- " (RFC 3676), its space often lost on the way
            return number
        if FORWARDED.match(line) or any(marker in line for marker in markers):
            return number
        if _attribution(lines, number) or _header_block(lines, number):
            return number
    return len(lines)


def _attribution(lines: list[str], number: int) -> bool:
    """An "On ... wrote:" line, also as Gmail wraps it over two or three lines when the sender's name is long."""
    joined = ""
    for line in lines[number : number + 3]:
        if not line.strip():
            return False
        joined = f"{joined} {line.strip()}".strip()
        if WROTE.match(joined):
            return True
    return False


def _header_block(lines: list[str], number: int) -> bool:
    """A quoted header block: a From line followed by another header line (blank lines between them allowed, as
    HTML made text leaves them), or a From line alone after a blank line (Outlook's plain text)."""
    if not FROM_LINE.match(lines[number]):
        return False
    after_blank = number > 0 and not lines[number - 1].strip()
    following = next((line for line in lines[number + 1 :] if line.strip()), "")
    return after_blank or bool(HEADER_LINE.match(following))


def _reply_markers() -> list[str]:
    markers = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            markers.add(reply_marker())
    return sorted(markers)


def addresses_in(text: str) -> list[str]:
    """The email addresses of the site (its senders, any address at the reply domain) or of a person in `text`:
    what must never be posted in a thread."""
    found = sorted({address.strip(".").lower() for address in ADDRESS.findall(text)})
    if len(found) > MOST_ADDRESSES:
        return found
    site = {parseaddr(getattr(settings, name, "") or "")[1].lower() for name in ("DEFAULT_FROM_EMAIL", "SERVER_EMAIL")}
    reply_domain = settings.REPLY_ADDRESS.rpartition("@")[2].lower()
    return [a for a in found if a in site or (reply_domain and a.endswith("@" + reply_domain))] + _of_people(
        [a for a in found if a not in site]
    )


def _of_people(addresses: list[str]) -> list[str]:
    """Those of `addresses` that are a person's (any account's, verified or not), whatever their case."""
    if not addresses:
        return []
    emails = EmailAddress.objects.filter(reduce(or_, (Q(email__iexact=a) for a in addresses)))
    users = get_user_model().objects.filter(reduce(or_, (Q(email__iexact=a) for a in addresses)))
    known = {a.lower() for a in [*emails.values_list("email", flat=True), *users.values_list("email", flat=True)]}
    return [a for a in addresses if a in known]
