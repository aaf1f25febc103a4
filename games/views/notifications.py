"""The bell (in-site notifications), one-click unsubscribe, and the private calendar feed of deadlines."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.models import Notification, Profile
from games.notify.calendar import calendar_for, new_calendar_token
from games.notify.messages import describe_in_list
from games.notify.unsubscribe import PREFERENCES, read_unsubscribe_token, unsubscribe


@login_required
def notification_list(request):
    notices = list(Notification.objects.filter(user=request.user).select_related("game")[:100])
    items = [{"notice": n, "text": describe_in_list(n, n.game), "url": _link(n)} for n in notices]
    Notification.objects.filter(user=request.user, read_at=None).update(read_at=timezone.now())
    return render(request, "games/notifications.html", {"items": items})


def _link(notice: Notification) -> str:
    """Where a notice leads: a game's end to its secret history (R27), a seat taken over to the thread's first
    unread post, changed settings to the game's rules and settings, anything else of a game to its page."""
    if notice.game is None:
        return ""
    if notice.kind == Notification.Kind.GAME_OVER:
        return notice.game.address("secret_history")
    if notice.kind == Notification.Kind.SEATED:
        return notice.game.address("first_unread")
    if notice.kind == Notification.Kind.SETTINGS:
        return notice.game.address("rules")
    return notice.game.get_absolute_url()


@csrf_exempt  # mail clients' one-click POST carries no CSRF token; the signed token authenticates it
def unsubscribe_view(request, token: str):
    """GET only asks (mail scanners follow links); POST unsubscribes (RFC 8058 one-click too)."""
    found = read_unsubscribe_token(token)
    if found is None:
        raise Http404(_("This unsubscribe link is not valid."))
    user_id, categories = found
    label = get_text_list([PREFERENCES[category][2]() for category in categories], _("and"))
    if request.method == "POST":
        unsubscribe(user_id, categories)
        return render(request, "games/unsubscribed.html", {"label": label, "done": True})
    return render(request, "games/unsubscribed.html", {"label": label, "done": False, "token": token})


def calendar_feed(request, token: str):
    profile = Profile.objects.filter(calendar_token=token).exclude(calendar_token="").select_related("user").first()
    if profile is None:
        raise Http404(_("This calendar link is not valid (it may have been replaced)."))
    return HttpResponse(calendar_for(profile), content_type="text/calendar; charset=utf-8")


@login_required
@require_POST
def renew_calendar(request):
    renewed = Profile.objects.filter(user=request.user).exclude(calendar_token="").exists()
    new_calendar_token(request.user, request)
    if renewed:
        messages.success(request, _("Your calendar has a new secret address; the old one no longer works."))
    else:
        messages.success(request, _("Your calendar has its secret address: add it to your calendar app."))
    return redirect("games:edit_profile")


def unread_count(request) -> dict:
    """Context processor: the number on the bell."""
    if not request.user.is_authenticated:
        return {}
    return {"unread_notifications": Notification.objects.filter(user=request.user, read_at=None).count()}
