"""What a visitor (not signed in) is shown alike: the header's links of every page, the same for every visitor
of a language, kept as a fragment (games/fragments.py); and a whole page where nothing else in it is the visitor's
own (the lobby, a game's thread). Each is kept as the parts between the spots where the template put this
request's own values (the forms' CSRF token, the address, the live tag), and joined with the request's. What a
player wrote is kept as it is, never searched: no word of it can become another reader's token or address. A
signed-in reader's header is their own (their name, their unread count): the template renders it."""

import json
import re
import secrets
from collections.abc import Callable, Hashable, Iterable, Mapping
from types import MappingProxyType

from django.contrib import messages
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from games import fragments

# The request's own values in the header's links: the CSRF token, and the address the language form sends back to
# (in no key, so that no address a visitor makes up, ?x=1, ?x=2, ..., adds a fragment to the cache).
OWN = ("csrf_token", "here")


class _Links:
    """The visitor's links, rendered only if the page shows them (a context processor runs for every page)."""

    def __init__(self, request, *, marks: Mapping[str, str] | None = None):
        self.request, self.marks = request, marks  # inside a page being kept: the page's marks, not the values

    def __html__(self) -> str:
        request, language = self.request, translation.get_language()
        base = {"user": request.user, "request": request, "LANGUAGE_CODE": language}

        def make() -> str:
            return _split(lambda marks: render_to_string("_site_links.html", base | marks), OWN)

        kept = fragments.render("visitor-links", language, make, here=True)  # all they show: the language
        return mark_safe(_joined(kept, _own(request) if self.marks is None else self.marks))

    __str__ = __html__


def visitor_links(request) -> dict:
    """Context processor: `visitor_links`, the header's links of a visitor's page; none for a signed-in reader."""
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated or fragments.is_bypassed():
        return {}
    return {"visitor_links": _Links(request)}


def visitor_page(
    request, kind: str, parts: Hashable, template: str, context: Callable[[], dict],
    filled: Mapping[str, str] = MappingProxyType({}),
) -> HttpResponse | None:  # fmt: skip
    """The page `template` for a visitor, kept whole as the fragment `kind` keyed by `parts` (everything it shows
    but the language and zone, which every fragment's key holds, and the address) and rendered from `context()` when
    not kept; `filled`: the context's values that are this request's own (the live tag), put in where the template
    puts them. None for a signed-in reader, a visitor with messages waiting (shown to them, once), or with the
    fragment cache bypassed (fragments.bypassed)."""
    if request.user.is_authenticated or fragments.is_bypassed() or len(messages.get_messages(request)):
        return None

    def render(marks: dict[str, str]) -> str:
        kept = marks | {"visitor_links": _Links(request, marks=marks)}
        return render_to_string(template, context() | kept, request)

    kept = fragments.render(kind, parts, lambda: _split(render, (*OWN, *filled)))
    values = _own(request) | {name: conditional_escape(value) for name, value in filled.items()}
    return HttpResponse(_joined(kept, values))


def _own(request) -> dict[str, str]:
    """This request's values of the header's links, as the template writes them."""
    return {"csrf_token": get_token(request), "here": conditional_escape(request.get_full_path())}


def _split(render: Callable[[dict[str, str]], str], names: Iterable[str]) -> str:
    """What `render(marks)` makes, kept as JSON: its text in parts, and between each two the name of the value the
    template put there. Each value is rendered as a mark of random letters drawn for this render alone, after
    everything the page shows was written, and never shown to anyone: it is found where the template put it and
    nowhere else."""
    names_of = {secrets.token_hex(16): name for name in names}
    pieces = re.split(f"({'|'.join(names_of)})", render({name: mark for mark, name in names_of.items()}))
    return json.dumps([names_of[piece] if odd else piece for odd, piece in _alternating(pieces)])


def _joined(kept: str, values: Mapping[str, str]) -> str:
    """The parts `_split` kept, with `values` (escaped as the template escapes them) where the template put them."""
    return "".join(values[piece] if odd else piece for odd, piece in _alternating(json.loads(kept)))


def _alternating(pieces: list[str]) -> Iterable[tuple[bool, str]]:
    return ((index % 2 == 1, piece) for index, piece in enumerate(pieces))
