"""The moderator panel: dashboard, a game's moderation page, reports, users, the audit log, and /healthz."""

from collections import defaultdict
from datetime import timedelta

from allauth.account.decorators import reauthentication_required
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, F, Q, Sum
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.access import can_read, is_moderator
from games.engine import secret_view, summary
from games.models import (
    Absence,
    Ban,
    Game,
    InboundEmail,
    Notification,
    Post,
    Profile,
    Seat,
    SweepRun,
    WebhookDelivery,
)
from games.presenters import POST_FIELDS, post_htmls
from games.services.records import STARTED
from games.views.common import load, submit
from games.views.reading import graveyard_warning
from sh_site.second_factor import refusal as second_factor_refusal

from . import services
from .forms import BanForm, GameActionForm, PostVisibilityForm, ReasonForm, ReportForm, ResolveForm, SearchForm
from .health import check
from .models import AuditEntry, Report, SignIn
from .verbs import VERBS

LATE = timedelta(minutes=5)
DROPPED_EMAILS_WINDOW = timedelta(days=7)
FAILURES_LISTED = 10
DROPPED_OUTCOMES = (InboundEmail.Outcome.FORGED, InboundEmail.Outcome.WRONG_SENDER, InboundEmail.Outcome.OVERSIZED)


def moderator_required(view):
    """The view, for moderators whose session proved a second factor (sh_site/second_factor.py)."""

    @login_required
    def wrapped(request, *args, **kwargs):
        if not is_moderator(request.user):
            raise PermissionDenied(_("This page is for moderators."))
        return second_factor_refusal(request) or view(request, *args, **kwargs)

    wrapped.__name__ = view.__name__
    return wrapped


@moderator_required
def dashboard(request):
    now = timezone.now()
    games = Game.objects.filter(status=Game.Status.RUNNING).exclude(seats__user=request.user).order_by("deadline")
    query = SearchForm(request.GET).query()
    if query:
        games = games.filter(Q(name__icontains=query) | Q(seats__name__icontains=query)).distinct()
    if request.GET.get("paused"):
        games = games.exclude(paused_at=None)
    if request.GET.get("late"):
        games = games.filter(paused_at=None, deadline__lt=now - LATE)
    upcoming = defaultdict(int)
    for game_id in Absence.objects.filter(seat__game__in=games, ends_at__gt=now, ended_early_at=None).values_list(
        "seat__game_id", flat=True
    ):
        upcoming[game_id] += 1
    reports = defaultdict(int)
    for game_id in Report.objects.filter(resolved_at=None).values_list("post__game_id", flat=True):
        reports[game_id] += 1
    rows = []
    for game in games[:200]:
        late = game.paused_at is None and game.deadline is not None and game.deadline < now - LATE
        rows.append(
            {
                "game": game,
                "state": _summary_or_none(game),
                "late": late,
                "absences": upcoming[game.pk],
                "reports": reports[game.pk],
            }
        )
    health = check(now)
    return render(
        request,
        "moderation/dashboard.html",
        {
            "rows": rows,
            "query": query,
            "health": health,
            "any_late": any(r["late"] for r in rows),
            "any_set_aside": any(r["game"].sweep_error for r in rows),
            "stopped_tasks": [
                SweepRun.Task(task).label
                for task, run in health["tasks"].items()
                if not run["ok"] and task != SweepRun.Task.DEADLINES  # said in its own words above
            ],
            "open_reports": sum(reports.values()),
            "dropped_emails": _dropped_emails(now),
            "refused_addresses": Profile.objects.exclude(email_refused="")
            .filter(email_refused__iexact=F("user__email"))
            .count(),
            **_outbox_failures(now),
        },
    )


def _outbox_failures(now) -> dict:
    """What the outboxes and the periodic jobs could not do: emails and webhook deliveries failed for good in the
    last week (their count and the latest, with their errors), and the jobs whose last run failed on some rows."""
    since = now - DROPPED_EMAILS_WINDOW
    emails = Notification.objects.filter(email=Notification.Email.FAILED, created_at__gte=since).exclude(error="")
    deliveries = WebhookDelivery.objects.filter(status=WebhookDelivery.Status.FAILED, created_at__gte=since)
    return {
        "failed_emails": emails.count(),
        "latest_failed_emails": emails.select_related("user").order_by("-pk")[:FAILURES_LISTED],
        "failed_deliveries": deliveries.count(),
        "latest_failed_deliveries": deliveries.order_by("-pk")[:FAILURES_LISTED],
        "failing_tasks": SweepRun.objects.filter(failed__gt=0).order_by("task"),
    }


def _dropped_emails(now) -> list[tuple[str, int]]:
    """Replies by email dropped in the last week, by why (a forged reply address, a sender who is not the
    person it names, ...): a rising count is someone trying."""
    counts = (
        InboundEmail.objects.filter(received_at__gte=now - DROPPED_EMAILS_WINDOW, outcome__in=DROPPED_OUTCOMES)
        .values_list("outcome")
        .annotate(count=Count("pk"))
        .order_by("outcome")
    )
    return [(InboundEmail.Outcome(outcome).label, count) for outcome, count in counts]


def _summary_or_none(game: Game) -> dict | None:
    """The dashboard lists every game, even one whose stored state is broken (the sweep sets it aside)."""
    try:
        return summary(game.load_state())
    except Exception:
        return None


@moderator_required
def game_page(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    if not services.can_moderate(request.user, game):
        raise PermissionDenied(_("You play in this game: another moderator must handle it."))
    if services.must_warn(request.user, game):  # nothing secret on this page: the game's name and the warning
        return render(request, "moderation/game_warning.html", {"game": game})
    state = game.load_state() if game.state else None
    seats = list(game.seats.select_related("user").order_by("number", "joined_at"))
    context = {
        "game": game,
        "state": summary(state) if state else None,
        "secret": secret_view(state) if state else None,
        "seats": seats,
        "absences": Absence.objects.filter(seat__game=game).select_related("seat").order_by("-starts_at"),
        "reports": Report.objects.filter(post__game=game).select_related("post", "reporter"),
        "audit": AuditEntry.objects.filter(game=game)[:50],
        "shared_ips": shared_addresses([seat.user for seat in seats if seat.user]),
        # Excuse, exile and replace name a living player (E8): the dead and the exiled are not offered.
        "players": [seat.name for seat in state.seats if seat.alive] if state else [],
        "out_of_play": {seat.name: str(seat.status) for seat in state.seats if not seat.alive} if state else {},
        "now": timezone.now(),
    }
    return render(request, "moderation/game.html", context)


@moderator_required
@require_POST
@reauthentication_required  # the first look at a running game's secrets: asked again
def see_secrets(request, game_id: int):
    """The warning confirmed: on the record once, then the game's moderation page."""
    services.see_secrets(request.user, game_id)
    return HttpResponseRedirect(reverse("moderation:game", args=[game_id]))


@moderator_required
@require_POST
def game_action(request, game_id: int):
    services.access_game(request.user, game_id)  # a moderator in the game: 403, whatever the form holds

    def act(data: dict) -> bool:
        options = {key: data[key] for key in VERBS[data["action"]].options}
        return services.game_action(request.user, game_id, data["action"], data["reason"], step=data["step"], **options)

    back = reverse("moderation:game", args=[game_id])
    return submit(request, GameActionForm(request.POST), act, back, _("Done, and recorded in the audit log."))


@moderator_required
@require_POST
def absence_end(request, absence_id: int):
    absence = get_object_or_404(Absence.objects.select_related("seat"), pk=absence_id)
    back = reverse("moderation:game", args=[absence.seat.game_id])

    def end(data: dict) -> bool:
        return services.end_absence(request.user, absence.pk, data["reason"])

    return submit(request, ReasonForm(request.POST), end, back)


@moderator_required
@require_POST
def post_visibility(request, post_id: int):
    post = get_object_or_404(Post, pk=post_id)
    form = PostVisibilityForm(request.POST)
    back = (form.is_valid() and form.cleaned_data["next"]) or reverse("moderation:reports")

    def change(data: dict) -> bool:
        return services.set_post_hidden(request.user, post.pk, data["hide"] == "yes", data["reason"])

    return submit(request, form, change, back)


@moderator_required
def reports(request):
    queue = Report.objects.select_related("post__game", "post__author", "reporter").exclude(
        post__game__seats__user=request.user
    )
    _record_graveyards_read(request.user, queue)
    return render(
        request,
        "moderation/reports.html",
        {"open": queue.filter(resolved_at=None), "resolved": queue.exclude(resolved_at=None)[:50]},
    )


def _record_graveyards_read(moderator, queue) -> None:
    """Reported graveyard posts of running games are secrets: whoever reads them here is on the record, as on a
    game's page, and may not take a seat in those games."""
    games = set(
        queue.filter(post__thread=Post.Thread.GRAVEYARD, post__game__status=Game.Status.RUNNING).values_list(
            "post__game", flat=True
        )
    )
    games -= set(AuditEntry.objects.filter(game__in=games, actor=moderator).values_list("game", flat=True))
    for game in Game.objects.filter(pk__in=games):
        services.audit(moderator, "view_secrets", "read the game's graveyard in the reports", game=game)


@moderator_required
@require_POST
def report_resolve(request, report_id: int):
    report = get_object_or_404(Report, pk=report_id)

    def resolve(data: dict) -> bool:
        return services.resolve_report(request.user, report.pk, data["resolution"])

    return submit(request, ResolveForm(request.POST), resolve, reverse("moderation:reports"))


@login_required
@require_http_methods(["GET", "POST"])
def report_post(request, post_id: int, game_id: int | None = None):
    """A report sent; on GET, the post and the form alone: what a thread's "Report" leads to without JavaScript
    (with it, the thread's one form is moved under the post). `game_id`: the game whose link key the address held."""
    post = Post.objects.filter(pk=post_id).values(*POST_FIELDS, "game_id", "thread").first()
    if post is None or game_id not in (None, post["game_id"]):
        raise Http404(_("There is no such post."))
    game, _state, viewer = load(request, post["game_id"])
    if not can_read(game, viewer, post["thread"]):
        raise Http404(_("There is no such post."))  # as for an id that does not exist
    back = f"{game.address('graveyard' if post['thread'] == Post.Thread.GRAVEYARD else 'thread')}#post-{post_id}"
    if request.method == "GET":
        if warning := graveyard_warning(request, game, viewer, post["thread"]):
            return warning  # who reads it may not take a seat: on the record before it is shown, as post_history
        context = {"post_html": post_htmls(game, [post])[0], "back": back}
        return render(request, "moderation/report.html", context)

    def report(data: dict) -> None:
        services.report_post(request.user, post_id, data["reason"])

    return submit(request, ReportForm(request.POST), report, back, _("Thank you: a moderator will look at this post."))


@moderator_required
def users(request):
    query = SearchForm(request.GET).query()
    started = Q(seats__game__status__in=STARTED, seats__number__isnull=False)
    people = (
        get_user_model()
        .objects.order_by("username")
        .annotate(
            games=Count("seats__game", filter=started, distinct=True),
            rounds_missed=Sum("seats__rounds_missed", filter=started, default=0),
            exiles=Count("seats", filter=started & Q(seats__exiled_at__isnull=False)),
        )
        .prefetch_related("bans")
        .annotate(second_factors=Count("authenticator", distinct=True))
    )
    if query:
        people = people.filter(Q(username__icontains=query) | Q(email__icontains=query))
    page = Paginator(people, 50).get_page(request.GET.get("page"))
    shared = shared_with_co_players(list(page.object_list))
    rows = [
        {"user": user, "bans": list(user.bans.all()), "shared": shared.get(user.pk, [])} for user in page.object_list
    ]
    return render(request, "moderation/users.html", {"rows": rows, "page": page, "query": query})


@moderator_required
@require_POST
def ban(request, user_id: int):
    user = get_object_or_404(get_user_model(), pk=user_id)
    back = f"{reverse('moderation:users')}?{urlencode({'q': user.get_username()})}"

    def punish(data: dict) -> bool:
        return services.ban(request.user, user, data["days"], data["reason"])

    return submit(request, BanForm(request.POST), punish, back)


@moderator_required
@require_POST
@reauthentication_required  # an account's second factor removed: asked again first
def reset_second_factor(request, user_id: int):
    user = get_object_or_404(get_user_model(), pk=user_id)
    back = f"{reverse('moderation:users')}?{urlencode({'q': user.get_username()})}"

    def reset(data: dict) -> bool:
        return services.reset_second_factor(request.user, user, data["reason"])

    done = _("Their second factors are removed and their sessions signed out: they sign in with their password.")
    return submit(request, ReasonForm(request.POST), reset, back, done)


@moderator_required
@require_POST
def lift_ban(request, ban_id: int):
    entry = get_object_or_404(Ban, pk=ban_id)
    back = f"{reverse('moderation:users')}?{urlencode({'q': entry.user.get_username()})}"

    def lift(data: dict) -> bool:
        return services.lift_ban(request.user, entry.pk, data["reason"])

    return submit(request, ReasonForm(request.POST), lift, back)


@moderator_required
def audit_log(request):
    query = SearchForm(request.GET).query()
    entries = AuditEntry.objects.exclude(game__seats__user=request.user)  # not the games the viewer plays in
    if query:
        entries = entries.filter(
            Q(actor_name__icontains=query)
            | Q(action__icontains=query)
            | Q(reason__icontains=query)
            | Q(game_name__icontains=query)
            | Q(target_name__icontains=query)
        )
    return render(
        request,
        "moderation/audit.html",
        {"page": Paginator(entries, 50).get_page(request.GET.get("page")), "query": query},
    )


@require_GET
def healthz(request):
    """For monitoring: 200 when the database and the broker answer and every periodic task ran in the last 10
    minutes, with each one's last run. A GET changes nothing and sends nothing: the "sweep stopped" email comes
    from `manage.py check_health`, on a timer (deploy/systemd/sh-check-health.timer)."""
    report = check()
    return JsonResponse(report, status=200 if report["ok"] else 503)


def shared_addresses(users: list) -> dict[str, list[str]]:
    """Sign-in addresses shared by two or more of these users (one person, two seats?)."""
    names = defaultdict(set)
    for ip, username in SignIn.objects.filter(user__in=users).values_list("ip", "user__username"):
        names[ip].add(username)
    return {ip: sorted(found) for ip, found in names.items() if len(found) > 1}


def shared_with_co_players(people: list) -> dict[int, list[str]]:
    """For each of these users, the players of their games who signed in from one of their addresses."""
    ids = [person.pk for person in people]
    games_of = defaultdict(set)
    for user_id, game_id in Seat.objects.filter(user_id__in=ids).values_list("user_id", "game_id"):
        games_of[user_id].add(game_id)
    players_of = defaultdict(set)
    all_games = set().union(*games_of.values()) if games_of else set()
    for game_id, user_id in Seat.objects.filter(game_id__in=all_games, user__isnull=False).values_list(
        "game_id", "user_id"
    ):
        players_of[game_id].add(user_id)
    addresses = defaultdict(set)
    for user_id, ip in SignIn.objects.filter(user_id__in=ids).values_list("user_id", "ip"):
        addresses[user_id].add(ip)
    users_at = defaultdict(set)
    all_ips = set().union(*addresses.values()) if addresses else set()
    for ip, user_id, name in SignIn.objects.filter(ip__in=all_ips).values_list("ip", "user_id", "user__username"):
        users_at[ip].add((user_id, name))
    shared = {}
    for user_id in ids:
        co_players = (
            set().union(*(players_of[g] for g in games_of[user_id])) - {user_id} if games_of[user_id] else set()
        )
        found = {name for ip in addresses[user_id] for other, name in users_at[ip] if other in co_players}
        if found:
            shared[user_id] = sorted(found)
    return shared
