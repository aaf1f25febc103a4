"""The header every page carries: for a visitor (not signed in), its links are the same for every visitor of a
language and address, so they are kept as a fragment (games/fragments.py), the token of its forms put in for
each request. A signed-in reader's are their own (their name, their unread count): the template renders them."""

from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from games import fragments

TOKEN = "csrf-token-of-this-request"  # where the request's CSRF token goes in the kept links (letters and dashes)


class _Links:
    """The visitor's links, rendered only if the page shows them (a context processor runs for every page)."""

    def __init__(self, request):
        self.request = request

    def __html__(self) -> str:
        request = self.request
        path = request.get_full_path()
        context = {"user": request.user, "request": request, "csrf_token": TOKEN,
                   "LANGUAGE_CODE": translation.get_language()}  # fmt: skip
        html = fragments.render("visitor-links", path, lambda: render_to_string("_site_links.html", context))
        return mark_safe(html.replace(TOKEN, get_token(request)))

    __str__ = __html__


def visitor_links(request) -> dict:
    """Context processor: `visitor_links`, the header's links of a visitor's page; none for a signed-in reader."""
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return {}
    return {"visitor_links": _Links(request)}
