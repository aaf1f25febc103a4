"""The limits the load benchmarks measure the site against (`manage.py bench_moves`): bare Django views served by
the same server with the same middleware, for a signed-in user. Mounted only when the setting BENCH_VIEWS is on
(the benchmark's own server), never on the site."""

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from games.models import Game


@login_required
def static_page(request):
    """A template with nothing to look up, rendered for a signed-in user: the least a page can cost."""
    return render(request, "bench/static.html")


@login_required
@require_POST
def write_one_row(request, game_id: int):
    """One row updated in one transaction: the least a move can cost."""
    with transaction.atomic():
        Game.objects.filter(pk=game_id).update(thread_locked=False)
    return HttpResponse(status=204)
