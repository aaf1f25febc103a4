"""What makes the site an app on a player's device: its manifest, its service worker (served from the root, so
that its scope is the whole site), its offline page; and the question the service worker asks before it shows a
"your move" (`holds`)."""

from pathlib import Path

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.notify.push import still_owed

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"


@never_cache
@require_GET
def holds(request) -> JsonResponse:
    """Whether a "your move" push still holds: the device shows the push's token (signed by the site, for its
    reader) before it shows one that may have waited in the push service. A forged or old token holds nothing."""
    return JsonResponse({"holds": still_owed(request.GET.get("token", "")[:2000])})


@require_GET
def manifest(request) -> JsonResponse:
    """The web app manifest: the site installs as an app of its own, opening on the lobby."""
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {"src": static("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
    ]
    body = {
        "id": "/",
        "name": settings.SITE_NAME,
        "short_name": _("Secret Hitler"),
        "description": _("Secret Hitler played by post: a moderator that deals, counts and keeps the deadlines."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("games:home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f7f3ea",  # the pages' paper and the header's ink (static/css/site.css)
        "theme_color": "#1d1b18",
        "icons": icons,
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
def service_worker(request) -> HttpResponse:
    """The service worker, from the site's root so that its scope is the whole site; always checked for a newer
    one (browsers also check at least daily)."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


def offline(request):
    """What the installed site shows without a network: the pages opened last, read-only (the service worker
    keeps them, and lists them here)."""
    return render(request, "games/offline.html")
