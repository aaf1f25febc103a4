"""The limits the load benchmarks measure the site against (`manage.py bench_pages`, `bench_moves`): bare Django
views served by the same server through the site's whole middleware. Mounted only when the setting BENCH_VIEWS is
on (the benchmark's own server), never on the site."""

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.views.decorators.http import require_POST

from games.models import Game

# 222 bytes, as the bare view the issue 30 peer comparison measured both sites against.
BARE_PAGE = (
    b'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>A bare page</title></head>\n'
    b"<body><main><h1>A bare page</h1><p>The load benchmarks' limit: the session and the user, nothing else."
    b"</p></main></body></html>\n"
)


def bare_page(request):
    """The least a page can cost: the session and the user loaded (anonymous or signed in), 222 bytes. Says who
    read it, so that the benchmark sees its signed-in readers were signed in (an expired session reads anonymous)."""
    reader = request.user.pk if request.user.is_authenticated else "anonymous"  # loads the session, then the user
    return HttpResponse(BARE_PAGE, headers={"X-Reader": reader})


@login_required
@require_POST
def write_one_row(request, game_id: int):
    """One row updated in one transaction, signed in: the least a move can cost."""
    with transaction.atomic():
        Game.objects.filter(pk=game_id).update(thread_locked=False)
    return HttpResponse(status=204)
