"""Posts: CommonMark (with tables, strikethrough and bare links) rendered to HTML and sanitised once, when saved.

Raw HTML is shown as text, never interpreted; images are shown as links to them; a link is made only to http,
https and mailto addresses or to a page of the site, anything else stays plain text."""

import re
from collections.abc import Iterator
from functools import cache
from urllib.parse import urlsplit

import nh3
from django.urls import reverse
from django.utils.translation import gettext as _
from linkify_it import LinkifyIt
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

LINK_SCHEMES = {"http", "https", "mailto"}
# A post sits under the page's own h1 and h2, so its headings start at h3: "# Claims" never outranks the game's
# name or the thread's title, and a page's outline stays the site's.
HEADING_TAGS = {f"h{level}": f"h{min(level + 2, 6)}" for level in range(1, 7)}
POST_TAGS = {
    "a", "blockquote", "br", "code", "del", "em", "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre", "s",
    "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
SANITIZER = nh3.Cleaner(
    tags=POST_TAGS,
    attributes={"a": {"href"}, "ol": {"start"}, "td": {"style"}, "th": {"style"}},
    allowed_classes={"a": {"image"}},
    filter_style_properties={"text-align"},
    url_schemes=LINK_SCHEMES,
    link_rel="nofollow noopener noreferrer",
)
MENTION = re.compile(r"(?<![\w@/])@([\w.+-]{1,150})")


def render(text: str, *, mentionable: set[str] = frozenset()) -> str:
    """Safe HTML for a post. @name becomes a link to the profile of a player named in `mentionable`."""
    # no newline after the last block, as the API has always given a post's HTML
    return SANITIZER.clean(parser().render(text, {"mentionable": mentionable})).rstrip("\n")


@cache
def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "breaks": True, "linkify": True})
    md.enable(["table", "strikethrough", "linkify"])
    md.linkify = BareLinks()
    md.validateLink = allowed_link
    md.core.ruler.push("mentions", _link_mentions)
    md.core.ruler.push("post_headings", _lower_headings)
    md.add_render_rule("image", _image_as_link)
    return md


class BareLinks(LinkifyIt):
    """Bare addresses made links as on forums: http(s)://..., www.... and mail addresses, but not "file.py" or
    "notes.md", which look like a name under a country's domain."""

    def match(self, text: str) -> list | None:
        found = [link for link in super().match(text) or () if link.schema or link.raw.lower().startswith("www.")]
        return found or None


def allowed_link(url: str) -> bool:
    """A link to the web, to a mail address or within the site: javascript:, data:, file: and the rest are not."""
    try:
        scheme = urlsplit(url.strip()).scheme.lower()
    except ValueError:  # a malformed address (an unclosed IPv6 bracket) is no address to follow
        return False
    return not scheme or scheme in LINK_SCHEMES


def _image_as_link(renderer, tokens: list[Token], index: int, options, env) -> str:
    # Images are not shown in a thread (tracking pixels, shock images, pages that jump): a link to one is.
    image = tokens[index]
    url = image.attrGet("src") or ""
    text = escapeHtml(renderer.renderInlineAsText(image.children or [], options, env) or url)
    opened = sum({"link_open": 1, "link_close": -1}.get(token.type, 0) for token in tokens[:index])
    return text if opened else f'<a class="image" href="{escapeHtml(url)}">{text}</a>'  # a link holds no link


def _lower_headings(state: StateCore) -> None:
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = HEADING_TAGS[token.tag]


def _link_mentions(state: StateCore) -> None:
    names = state.env.get("mentionable") or frozenset()
    if not names:
        return
    for block in state.tokens:
        if block.type == "inline" and block.children:
            block.children = list(_with_mentions(block.children, names))


def _with_mentions(tokens: list[Token], names: set[str]) -> Iterator[Token]:
    """The inline tokens with each @name of a text (not of a link's text, not of code) made a link."""
    in_link = 0
    for token in tokens:
        in_link += {"link_open": 1, "link_close": -1}.get(token.type, 0)
        if token.type != "text" or in_link:
            yield token
            continue
        start = 0
        for match in MENTION.finditer(token.content):
            name = known_name(match.group(1), names)
            if name is None:
                continue
            yield _text(token.content[start : match.start()])
            yield Token("link_open", "a", 1, attrs={"href": reverse("games:user_profile", args=[name])})
            yield _text(f"@{name}")
            yield Token("link_close", "a", -1)
            start = match.start() + 1 + len(name)
        yield _text(token.content[start:])


def _text(content: str) -> Token:
    return Token("text", "", 0, content=content)


def mentions(text: str, mentionable: set[str]) -> set[str]:
    found = (known_name(candidate, mentionable) for candidate in MENTION.findall(text))
    return {name for name in found if name is not None}


def known_name(candidate: str, mentionable: set[str]) -> str | None:
    """The longest name in `mentionable` that `candidate` is, once punctuation that may end a sentence is
    taken off its end one character at a time: "@boris7." names boris7, unless "boris7." is a name itself."""
    while candidate:
        if candidate in mentionable:
            return candidate
        if candidate[-1] not in ".+-":
            return None
        candidate = candidate[:-1]
    return None


def quote(text: str, *, author: str = "", link: str = "") -> str:
    """A post's text as a Markdown quotation, for "reply with quote": "boris7 [wrote](link to the post):"."""
    quoted = "\n".join(f"> {line}" for line in text.splitlines()) + "\n\n"
    if not author:
        return quoted
    wrote = _("%(author)s wrote:") % {"author": f"**{author}**"}
    if link:
        wrote = f"[{wrote}]({link})"
    return f"{wrote}\n{quoted}"
