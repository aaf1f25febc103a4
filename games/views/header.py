"""What a visitor (not signed in) is shown alike: the header's links of every page, the same for every visitor
of a language and address, kept as a fragment (games/fragments.py); and a whole page where nothing else in it is
the visitor's own (the lobby). Each is kept with a placeholder where the forms' CSRF token goes, replaced by the
request's. A signed-in reader's header is their own (their name, their unread count): the template renders it."""

from collections.abc import Callable, Hashable, Mapping
from types import MappingProxyType

from django.contrib import messages
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from games import fragments

TOKEN = "csrf-token-of-this-request"  # where the request's CSRF token goes in the kept links (letters and dashes)
HERE = "address-of-this-request"  # where its address goes (the language form's `next`): not in any key, so that
# no address a visitor makes up (?x=1, ?x=2, ...) adds a fragment to the cache


class _Links:
    """The visitor's links, rendered only if the page shows them (a context processor runs for every page)."""

    def __init__(self, request, *, placeholders: bool = False):
        self.request, self.placeholders = request, placeholders  # inside a kept page: filled with the page

    def __html__(self) -> str:
        request = self.request
        context = {"user": request.user, "request": request, "csrf_token": TOKEN, "here": HERE,
                   "LANGUAGE_CODE": translation.get_language()}  # fmt: skip
        language = context["LANGUAGE_CODE"]  # all they show (every fragment's key holds it, and the zone, already)
        html = fragments.render(
            "visitor-links", language, lambda: render_to_string("_site_links.html", context), here=True
        )
        return mark_safe(html if self.placeholders else _fill(html, request))

    __str__ = __html__


def visitor_links(request) -> dict:
    """Context processor: `visitor_links`, the header's links of a visitor's page; none for a signed-in reader."""
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return {}
    return {"visitor_links": _Links(request)}


def visitor_page(
    request, kind: str, parts: Hashable, template: str, context: Callable[[], dict],
    filled: Mapping[str, str] = MappingProxyType({}),
) -> HttpResponse | None:  # fmt: skip
    """The page `template` for a visitor, kept whole as the fragment `kind` keyed by `parts` (everything it shows
    but the language and zone, which every fragment's key holds, and the address) and rendered from `context()` when not
    kept; `filled`: the context's values that are this request's own (the live tag), kept as placeholders and put
    in. None for a signed-in reader, or a visitor with messages waiting (shown to them, once)."""
    if request.user.is_authenticated or len(messages.get_messages(request)):
        return None
    holes = {name: f"{name}-of-this-request" for name in filled}

    def make() -> str:
        kept = {"csrf_token": TOKEN, "here": HERE, "visitor_links": _Links(request, placeholders=True)}
        return render_to_string(template, context() | holes | kept, request)

    html = _fill(fragments.render(kind, parts, make), request)
    for name, value in filled.items():
        html = html.replace(holes[name], conditional_escape(value))
    return HttpResponse(html)


def _fill(html: str, request) -> str:
    """Kept HTML with this request's address and CSRF token put in."""
    return html.replace(HERE, conditional_escape(request.get_full_path())).replace(TOKEN, get_token(request))
