"""The read mark, written only by a POST: a page that shows a thread never writes.

The mark says two things. In any thread, the newest post its reader has seen: the "New posts" line and the
"first unread" link start from it; the page's script sends it once the page is shown, and a post moves it too
(a reader without JavaScript). In a running game's graveyard it is also the record that its reader has seen the
game's secrets and may never take a seat in it: so it is written before the first secret is shown, by a POST
that confirms a warning, and the pages that would show a graveyard post ask for that confirmation first.
"""

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Max
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.access import Viewer, can_read
from games.models import Game, Post
from games.services.forum import mark_read
from games.services.knowledge import knows_secrets

from .common import load


def must_confirm(game: Game, viewer: Viewer, thread: str) -> bool:
    """Would showing this thread's posts tell the viewer a running game's secrets before the site has recorded
    it? Only a running game's graveyard does, and only to someone without a seat, who might yet take one (a dead
    player holds theirs); whoever is on the record already is not asked again."""
    return (
        thread == Post.Thread.GRAVEYARD
        and game.status == Game.Status.RUNNING
        and viewer.user is not None
        and viewer.seat is None
        and not knows_secrets(game, viewer.user)
    )


def graveyard_warning(request, game: Game, viewer: Viewer, thread: str) -> HttpResponse | None:
    """The warning page instead of a page that would show a graveyard post unrecorded (must_confirm); None when
    the page may be shown. Confirmed, the warning comes back to the page asked for."""
    if not must_confirm(game, viewer, thread):
        return None
    context = {"game": game, "thread": thread, "action": game.address("read"), "back": request.get_full_path()}
    return render(request, "games/graveyard_warning.html", context)


@login_required
@require_POST
def read(request, game_id: int):
    """The reader has seen the thread up to `up_to` (never past its newest post; now if not given, as the
    graveyard's warning confirmed): their read mark moves there, never back. Answers 204, or goes back to `next`,
    an address of this site (the warning's)."""
    game, _state, viewer = load(request, game_id)
    thread = Post.Thread.GRAVEYARD if request.POST.get("thread") == Post.Thread.GRAVEYARD else Post.Thread.MAIN
    if not can_read(game, viewer, thread):
        raise PermissionDenied(_("The living cannot read the graveyard."))
    asked = _moment(request.POST.get("up_to", ""))
    newest = Post.objects.filter(game=game, thread=thread).aggregate(newest=Max("created_at"))["newest"]
    mark_read(request.user, game, thread, min(asked, newest) if asked and newest else timezone.now())
    back = request.POST.get("next", "")
    if back.startswith("/") and url_has_allowed_host_and_scheme(
        back, {request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(back)
    return HttpResponse(status=204)


def _moment(text: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None
