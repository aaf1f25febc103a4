"""Posts rendered against every example of the CommonMark spec (commonmark/README.md says where they come from).

An example renders as the spec says, compared tag by tag, attribute by attribute and text by text, unless it
meets one of the differences the site makes by design, and then it differs exactly in that way:
- raw HTML is shown as its text, never interpreted;
- an image is a link to it (its text the alt text, or the address), or just its alt text within a link;
- a link to anything but http, https, mailto or the site itself is plain text;
- bare web and mail addresses are links, as on forums.
Always, whatever the design: the headings of a post start at h3, a single newline is a line break (so line
breaks are not compared), links get rel="nofollow ...", and code blocks lose their language's class."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from games.markup import HEADING_TAGS, LINK_SCHEMES, render

EXAMPLES = json.loads((Path(__file__).parent / "commonmark" / "spec-0.31.2.json").read_text(encoding="utf-8"))
RAW_HTML = re.compile(r"<(?:/?[A-Za-z][A-Za-z0-9-]*(?=[\s/>])|!--|\?|![A-Z]|!\[CDATA\[)")
# what the spec's examples make (no table, no strikethrough), its headings lowered to a post's
SPEC_TAGS = {
    "a",
    "blockquote",
    "br",
    "code",
    "em",
    "hr",
    "li",
    "ol",
    "p",
    "pre",
    "strong",
    "ul",
    "h3",
    "h4",
    "h5",
    "h6",
}


class Parsed(HTMLParser):
    """The HTML as a list of events: ("<", tag, attributes), (">", tag) and ("text", text), with text between
    blocks (whitespace) dropped, references resolved and adjacent texts joined."""

    def __init__(self, html: str, headings: dict[str, str]) -> None:
        super().__init__(convert_charrefs=True)
        self.events, self.headings, self.in_pre = [], headings, 0
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.in_pre += tag == "pre"
        if tag != "br":
            kept = sorted((k, v) for k, v in attrs if k != "rel" and not (tag == "code" and k == "class"))
            self.events.append(("<", self.headings.get(tag, tag), tuple(kept)))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        self.in_pre -= tag == "pre"
        if tag != "br":
            self.events.append((">", self.headings.get(tag, tag)))

    def handle_data(self, data):
        if self.events and self.events[-1][0] == "text":
            self.events[-1] = ("text", self.events[-1][1] + data)
        elif data.strip() or self.in_pre:
            self.events.append(("text", data))

    def text(self) -> str:
        return "".join(event[1] for event in self.events if event[0] == "text")

    def links(self) -> list[tuple[str, str]]:
        """(href, text) of each link, its text being all the text within it (an image's alt text, or address)."""
        found, href, inner = [], None, ""
        for event in self.events:
            if event[:2] == ("<", "a"):
                href, inner = dict(event[2]).get("href"), ""
            elif event == (">", "a") and href is not None:
                found.append((href, inner))
                href = None
            elif event[0] == "text":
                inner += event[1]
            elif event[:2] == ("<", "img"):
                inner += dict(event[2]).get("alt") or dict(event[2])["src"]
        return found


def spec_parsed(example) -> Parsed:
    return Parsed(example["html"], HEADING_TAGS)


def raw_html(example) -> list[str]:
    """The raw HTML the spec lets through: each tag's opening ("<a", "<!--") found both in the text and, as it
    is, in the spec's HTML."""
    return [match.group() for match in RAW_HTML.finditer(example["markdown"]) if match.group() in example["html"]]


def images(spec: Parsed) -> list[tuple[dict, bool]]:
    """The attributes of each image the spec shows, and whether it is within a link."""
    found, in_link = [], 0
    for event in spec.events:
        in_link += {("<", "a"): 1, (">", "a"): -1}.get(event[:2], 0)
        if event[:2] == ("<", "img"):
            found.append((dict(event[2]), bool(in_link)))
    return found


def other_schemes(spec: Parsed) -> list[tuple[str, str]]:
    return [(href, text) for href, text in spec.links() if urlsplit(href).scheme.lower() not in LINK_SCHEMES | {""}]


def differences_by_design(example, ours: Parsed) -> list[str]:
    """Each designed difference that the example meets, asserted to be as designed."""
    spec, met = spec_parsed(example), []
    as_links = []  # the links that images became
    raw = raw_html(example)
    if raw:
        met.append("raw HTML")
        assert all(opening in ours.text() for opening in raw), "raw HTML is shown as text"
    if "![" in example["markdown"] and (shown := images(spec)):  # not an <img> tag, shown as text above
        met.append("image")
        assert not any(event[:2] == ("<", "img") for event in ours.events), "no image is shown"
        for image, in_link in shown:
            text = image.get("alt") or image["src"]
            if in_link:
                assert text in ours.text()
            else:
                assert (image["src"], text) in ours.links(), "an image is a link to it"
                as_links.append((image["src"], text))
    if refused := other_schemes(spec):
        met.append("scheme")
        for href, text in refused:
            assert href not in {link for link, _ in ours.links()}, "no link to another scheme"
            assert text in ours.text(), "the address stays as text"
    # A tag the spec reads takes precedence over a link around it (examples 524, 536); read as text, it does not.
    unhidden = [link for link in ours.links() if any(opening in link[1] for opening in raw)]
    if added := [link for link in ours.links() if link not in spec.links() + as_links + unhidden]:
        met.append("bare link")
        for href, text in added:
            assert text in example["markdown"] and href in {text, f"mailto:{text}"}, "a bare address is linked"
    return met


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: f"{example['example']}-{example['section']}")
def test_a_post_renders_each_commonmark_example_as_the_spec_or_as_designed(example):
    html = render(example["markdown"])
    ours = Parsed(html, {})
    assert {event[1] for event in ours.events if event[0] == "<"} <= SPEC_TAGS, "only a post's tags, nothing raw"
    if not differences_by_design(example, ours):
        assert ours.events == spec_parsed(example).events
