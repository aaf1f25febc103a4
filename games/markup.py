"""Posts: Markdown rendered to HTML and sanitised once, when saved. No raw HTML, no scripts, no styles."""

import re

import markdown
import nh3
from django.urls import reverse
from django.utils.translation import gettext as _

ALLOWED_TAGS = {
    "a", "blockquote", "br", "code", "del", "em", "h3", "h4", "hr", "li", "ol", "p", "pre", "strong", "ul",
}  # fmt: skip
MENTION = re.compile(r"(?<![\w@/])@([\w.+-]{1,150})")


def render(text: str, *, mentionable: set[str] = frozenset()) -> str:
    """Safe HTML for a post. @name becomes a link to the profile of a player named in `mentionable`."""
    source = text.replace("&", "&amp;").replace("<", "&lt;")  # raw HTML is shown as text, never interpreted

    def link(match: re.Match) -> str:
        name = known_name(match.group(1), mentionable)
        if name is None:
            return match.group(0)
        rest = match.group(1)[len(name) :]
        return f"[@{name}]({reverse('games:user_profile', args=[name])}){rest}"

    html = markdown.markdown(MENTION.sub(link, source), extensions=["fenced_code", "nl2br", "sane_lists"])
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={"a": {"href"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )


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
