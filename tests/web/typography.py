"""Reading a page or a translation as a French reader would: where a no-break space is missing before a mark.

Shared by the catalogue tests, the page tests and the browser tests."""

import re

# French sets a no-break space (U+00A0, or the narrow U+202F) before : ; ? and !. Not a mark inside code, a URL,
# an HTML entity, a time (10:30, UTC+01:00), a template tag or an HTML tag, nor the Authorization header's name.
NOT_PROSE = re.compile(
    r"<code>.*?</code>|&#?\w+;|\b[a-z]+://\S*|\d(:\d\d)+|\{[{%].*?[%}]\}|Authorization:|<[^>]*>", re.S
)
UNSPACED = re.compile(r"(?<![\u00a0\u202f])[:;?!]")


def french_spacing_faults(text: str) -> list[str]:
    """Each mark of `text` that French wants after a no-break space but has none (or an ASCII space), in context."""
    prose = NOT_PROSE.sub(" ", text)
    return [prose[max(0, mark.start() - 15) : mark.end() + 5] for mark in UNSPACED.finditer(prose)]


def visible_text(html: str) -> str:
    """What a reader sees of a page's body: no script, style or text being typed, no tags, spaces collapsed."""
    body = html.split("<body", 1)[-1]
    body = re.sub(r"<(script|style|textarea)\b.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"[ \t\r\n\f\v]+", " ", re.sub(r"<[^>]+>", " ", body))  # \s would fold U+00A0 too
