"""The game's threads: the public game thread with the moderator's announcements inline, the graveyard,
posting, editing with a visible history, and the full secret history once the game is over."""

import json
import re
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import fragments, live
from games.access import can_read, is_moderator, is_over, posting_refusal
from games.engine.constants import MIN_PLAYERS, SeatStatus
from games.engine.settings import HouseRules
from games.forms import EditPostForm, NotesForm, PostForm
from games.markup import quote
from games.models import Absence, Claim, Game, GameEvent, Note, Post, ThreadRead
from games.presenters import (
    POST_FIELDS,
    announcement_fragments,
    announcements,
    board_fragment,
    game_settings,
    government_history,
    post_htmls,
    private_panel,
    revealed_secrets,
    status_box,
)
from games.services import GameError, forum, participation_records
from games.services.forum import edit_post, mark_read, post_message
from games.services.lobby import exile_refusal
from games.services.notes import check_notes, notes_of, save_notes
from games.services.proposals import open_proposal
from games.services.ratings import conservative_by_user, rating_refusal
from games.services.rematch import may_ask_rematch
from games.services.transfer import export_script

from . import reading
from .common import came_by_key, first_error, load, reach

PAGE_SIZE = 25


def thread(request, game_id: int, graveyard: bool = False):
    """The thread's page. A page left open asks again every few seconds (live.js) with the ETag it has: when
    nothing it shows has changed the answer is a 304, for one query beyond the sign-in's."""
    name = Post.Thread.GRAVEYARD if graveyard else Post.Thread.MAIN
    seen = live.fingerprint(game_id, name, request.user.pk)
    if seen is None:
        raise Http404(_("There is no such game."))
    if seen.visibility != Game.Visibility.PUBLIC and not came_by_key(request, game_id):
        reach(request, game_id)  # at an unlisted game's number, a stranger finds no such game
    tags = {kind: live.etag(request, seen, live=kind == "live") for kind in ("live", "page")}
    tag = tags["live" if live.is_live(request) else "page"]
    # A message waiting to be shown is never answered "unchanged"; nor is the graveyard, before the reader's
    # right to read it is checked (the game thread is public: its 304 costs no more than the fingerprint).
    held = live.unchanged(request, tag) and not len(messages.get_messages(request))
    if held and not graveyard:
        return _revalidate(HttpResponseNotModified(headers={"ETag": tag}))
    game, state, viewer = load(request, game_id)
    if can_read(game, viewer, name) and (warning := reading.graveyard_warning(request, game, viewer, name)):
        return warning  # nothing of the graveyard shown before its reading is on the record
    if held and can_read(game, viewer, name):
        return _revalidate(HttpResponseNotModified(headers={"ETag": tag}))
    posts = Post.objects.filter(game=game, thread=name)
    quote_of = request.GET.get("quote", "")
    quoting = posts.filter(pk=int(quote_of), hidden_at=None).first() if re.fullmatch(r"[0-9]{1,18}", quote_of) else None
    form = PostForm(
        initial={
            "thread": name,
            "quote_of": quoting.pk if quoting else None,
            "body": _quotation(game, quoting, request.GET.get("page")) if quoting else "",
        }
    )
    page = request.GET.get("page")
    response = _thread_page(request, game, state, viewer, name, form, page, etag=tags["live"], seen=seen)
    response["ETag"] = tag
    return _revalidate(response)


def _revalidate(response):
    """Browsers and caches keep the page for this viewer only and ask again before reusing it."""
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ["Cookie", "Accept-Language", live.LIVE_HEADER])
    return response


def _quotation(game, post: Post, page: str | None) -> str:
    author = post.author.get_username() if post.author else _("a deleted user")
    thread = "games:graveyard" if post.thread == Post.Thread.GRAVEYARD else "games:thread"
    page_part = f"?page={page}" if page and re.fullmatch(r"[0-9]{1,9}", page) else ""
    # An unlisted game's quotation links within its page: the text is kept, posted to webhooks and outlives a
    # renewed link key, which it must not carry.
    address = "" if game.link_key else reverse(thread, args=[game.pk])
    return quote(post.body, author=author, link=f"{address}{page_part}#post-{post.pk}")


def _thread_page(
    request, game, state, viewer, name: str, form: PostForm, page_number, status: int = 200, preview: str = "",
    etag: str = "", notes: str | None = None, seen: live.Fingerprint | None = None,
):  # fmt: skip
    """The thread's page; `notes`: the viewer's notes as they sent them, kept in the box when refused; `seen`: the
    page's fingerprint when it was read (live.fingerprint): the parts every reader shares are then kept."""

    def context() -> dict:
        return _thread_context(request, game, state, viewer, name, form, page_number, etag, preview, notes, seen)

    if viewer.user is None and seen is not None and name == Post.Thread.MAIN and status == 200:
        shown = _visitors_page(request, game, name, page_number, seen, context)
        return render(request, "games/thread.html", shown | {"etag": etag})
    return render(request, "games/thread.html", context(), status=status)


def _visitors_page(request, game, name: str, page_number, seen: live.Fingerprint, context: Callable[[], dict]) -> dict:
    """What a visitor's page of the game thread shows: its body the same for every visitor of a language and zone
    (it holds no control of a reader's own and no form), kept as a part that shows what every other part shows
    (live.PARTS), at this page, minute and address; around it, rendered for this request by thread.html, the
    page's own values (the live tag, added by the caller) and the site's frame (the CSRF token of its language
    form)."""
    number = _page_number(page_number, live.posts(seen))
    minute = timezone.now().replace(second=0, microsecond=0)
    key = (live.shown(seen, "visitor-body"), game.pk, name, number, minute, request.path)
    made = lambda: render_to_string("games/_thread_body.html", context(), request)  # noqa: E731
    body = fragments.render("visitor-body", key, made)
    return {"game": game, "thread": name, "body": body, "live_every": settings.LIVE_POLL_SECONDS, "read_mark": ""}


def _page_number(asked, posts: int) -> int:
    """The page Paginator.get_page gives for `asked` in a thread of `posts` posts: "last" or past the end, the last
    page; not a number, the first."""
    last = max(1, -(-posts // PAGE_SIZE))
    if asked == "last":
        return last
    try:
        number = int(asked)
    except (TypeError, ValueError):
        return 1
    return number if 1 <= number <= last else last


def _thread_context(
    request, game, state, viewer, name: str, form: PostForm, page_number, etag: str, preview: str = "",
    notes: str | None = None, seen: live.Fingerprint | None = None,
) -> dict:  # fmt: skip
    """What the thread's page shows (templates/games/_thread_body.html), for this viewer."""
    if not can_read(game, viewer, name):
        raise PermissionDenied(_("The living cannot read the graveyard."))
    paginator = Paginator(Post.objects.filter(game=game, thread=name), PAGE_SIZE)
    if seen is not None:
        paginator.count = live.posts(seen)  # read with the fingerprint already: no second COUNT of a long thread
    page = paginator.get_page(paginator.num_pages if page_number == "last" else page_number)
    # The page's posts, with the last of the page before (its time starts the page's announcements), in one query.
    first = (page.number - 1) * PAGE_SIZE
    rows = live.page_posts(game.pk, name, max(0, first - 1), first + PAGE_SIZE)
    page.object_list = [dict(zip(POST_FIELDS, row, strict=True)) for row in rows]
    before = page.object_list.pop(0)["created_at"] if first and page.object_list else None
    # The log as plain rows, never as model objects, read once if the shared parts or the panel need it.
    log = GameEvent.objects.filter(game=game).order_by("index").values_list("type", "data", "created_at", named=True)
    events = cache(lambda: list(log))
    minute = timezone.now().replace(second=0, microsecond=0)  # the countdown counts from it, as the lobby's
    shared = _shared_parts(game, state, name, page, before, events, minute, seen)
    posts = {post["pk"]: post for post in page.object_list}
    entries = [_entry(pk, html, posts) for pk, html in shared["entries"]]
    refusal = posting_refusal(game, viewer, name, state)
    panel = private_panel(game, state, viewer.seat.number, events()) if (state and viewer.is_player) else None
    # The page writes nothing: its script moves the read mark to `last` once it is shown (views.reading).
    last = page.object_list[-1]["created_at"] if page.object_list else None
    # News swapped into an open page is not read until its reader looks: its "New posts" line stays where it was.
    if live.is_live(request):
        read_before = live.read_before(request)
    else:
        read_before = live.read_mark(seen) if seen is not None else forum.read_mark(request.user, game, name)
    first_new = _first_new(page.object_list, read_before, request.user.pk)
    signups = _signups(game) if game.status == game.Status.OPEN else []
    return {
        "game": game,
        "viewer": viewer,
        "thread": name,
        "page": page,
        "entries": _written_entries(entries, game, request.user, page, not refusal, first_new),
        "shared": shared,
        "form": form,
        "reply_fields": _reply_fields(form),
        "refusal": refusal,
        "status": status_box(game, state) if panel else None,  # what the panel says of the round
        "panel": panel,
        "graveyard_readable": can_read(game, viewer, Post.Thread.GRAVEYARD),
        "secret_link": _secret_link(request, game, viewer),
        "signups": signups,
        "lobby_controls": _lobby_controls(game, viewer, signups),
        "join_refusal": _join_refusal(game, request.user, viewer),
        "may_rematch": game.rematch_id is None and may_ask_rematch(game, viewer.user),
        "preview": preview,
        "absences": _own_absences(viewer, seen),
        "proposal": _table_proposal(game, state, viewer, seen) if panel and panel["running"] else None,
        "now": timezone.now(),
        # Only the author's own notes, only on their own page (never a moderator's page, an email or the API of others).
        "notes": _own_notes(game, viewer, notes, seen),
        "etag": etag,  # what the page's script sends back when it asks for news
        "live_request": live.is_live(request),
        "live_every": settings.LIVE_POLL_SECONDS,
        # the mark the page's script sends back: on a first visit, this one, so that what comes later is "new"
        "read_mark": (read_before or last or minute).isoformat() if request.user.is_authenticated else "",
        # what the script, once the page is shown, says its reader has seen (views.reading.read): its last post
        "seen_up_to": last.isoformat() if request.user.is_authenticated and last else "",
        "read_action": game.address("read") if request.user.is_authenticated else "",
    }


def _join_refusal(game, user, viewer) -> str:
    """Why a signed-in reader not in the game would be refused if they asked to join it now, for the refusals a
    page can foresee without a question a page of every reader would pay for (E6's recent exiles); else ""."""
    joinable = game.status in (game.Status.OPEN, game.Status.RUNNING)
    if not joinable or not user.is_authenticated or viewer.signed_up:
        return ""
    refused = exile_refusal(game, user) or rating_refusal(game, user)
    return str(refused) if refused else ""


def _lobby_controls(game, viewer, signups: list[dict]) -> dict | None:
    """The open game's controls for its creator or a moderator (remove a sign-up, start early, change the
    settings), with whether there are enough players to start now (R1); None for anyone else."""
    user = viewer.user
    if game.status != game.Status.OPEN or user is None or not (game.created_by_id == user.pk or is_moderator(user)):
        return None
    players = sum(1 for signup in signups if not signup["seat"].is_substitute)
    return {"players": players, "least": MIN_PLAYERS, "may_start": players >= MIN_PLAYERS}


def _secret_link(request, game, viewer) -> str:
    """An unlisted game's address to share, shown to whoever may renew it (its creator, a moderator); else ""."""
    user = viewer.user
    if not game.link_key or user is None or not (game.created_by_id == user.pk or is_moderator(user)):
        return ""
    return request.build_absolute_uri(game.get_absolute_url())


def _shared_parts(game, state, name: str, page, before, events: Callable[[], list], minute, seen) -> dict:
    """What the page shows every reader alike: its posts and announcements (their HTML, each post's id) and the
    pagination; the settings; the governments; and the status box, counting down from `minute`. Kept as four
    fragments asked for in one round trip when the page's fingerprint `seen` was read, each keyed by what it
    declares it shows (live.PARTS) and by the page's own: the thread and the page's number, the minute. Else made
    here (a page shown again after a refused form)."""
    status = cache(lambda: status_box(game, state) if state else None)

    def page_html() -> str:
        entries = _with_announcements(game, page, name, events(), before)
        parts = {
            "entries": [[entry.get("pk"), entry["html"]] for entry in entries],
            "pagination": render_to_string("games/_pagination.html", {"page": page})
            if page.paginator.num_pages > 1
            else "",
            "over": bool(status() and (status()["winner"] or status()["win_reason"])),
        }
        return json.dumps(parts)

    def settings_html() -> str:  # before joining, the settings are shown unfolded
        open_game = game.status == game.Status.OPEN
        shown = {"settings": game_settings(game), "game": game, "open": open_game}
        return render_to_string("games/_settings.html", shown)

    def history_html() -> str:
        history = government_history(events(), list(Claim.objects.filter(game=game))) if state else []
        return render_to_string("games/_history.html", {"history": history}) if history else ""

    def status_html() -> str:
        board = board_fragment(status()) if status() else ""
        shown = {"status": status(), "board": board, "minute": minute, "game": game}
        return render_to_string("games/_status.html", shown) if status() else ""

    makers = (page_html, settings_html, history_html, status_html)
    if seen is None:
        made = [make() for make in makers]
    else:
        keys = (
            (live.shown(seen, "page"), game.pk, name, page.number),
            (live.shown(seen, "settings"), game.pk),
            (live.shown(seen, "history"), game.pk),
            (live.shown(seen, "status"), game.pk, minute),
        )
        made = fragments.render_many("page", list(zip(keys, makers, strict=True)))
    body, settings_part, history, box = made
    return json.loads(body) | {"settings": settings_part, "history": history, "status": box}


def _entry(pk: int | None, html: str, posts: dict[int, dict]) -> dict:
    """A shared entry of the page (a post's id and HTML, or a run of announcements) as the page's template reads it,
    a post with its row (`posts`, by id)."""
    if pk is None:
        return {"kind": "announcements", "html": html}
    return {"kind": "post", **posts[pk], "html": html}


def _reply_fields(form: PostForm) -> SafeString | str:
    """The reply form's fields as the page first shows them (the thread, the quoted post, the text given: empty, or
    a quotation), kept as a fragment: Django renders each widget through its own templates, again on every page.
    A form sent back with what its author wrote (and its errors) is rendered by the page itself."""
    if form.is_bound:
        return ""
    values = tuple(form[name].value() for name in ("thread", "quote_of", "body"))
    fields = lambda: render_to_string("games/_reply_fields.html", {"form": form})  # noqa: E731
    return fragments.render("reply", values, fields, here=True)


def _table_proposal(game: Game, state, viewer, seen: live.Fingerprint | None) -> dict:
    """The table's open proposal as a player's panel shows it (its tally, their own ballot, the majority it needs),
    and whether the player may make or vote on one; not asked for when the page's fingerprint counted none open."""
    proposal = None
    if seen is None or seen.live_proposals != seen.live_proposals_closed:
        proposal = open_proposal(game)
    living = [seat.name for seat in state.seats if seat.status == SeatStatus.ALIVE]
    view = {"open": proposal, "alive": viewer.seat.name in living, "paused": game.paused_at is not None}
    if proposal is not None:
        ballots = dict(proposal.ballots.filter(seat__name__in=living).values_list("seat__name", "yes"))
        yes = sum(ballots.values())
        view |= {"yes": yes, "no": len(ballots) - yes, "needed": len(living) // 2 + 1}
        view["mine"] = ballots.get(viewer.seat.name)
    return view


def _own_absences(viewer, seen: live.Fingerprint | None) -> list:
    """The player's absences in this game, each knowing its seat and game; not asked for when the page's
    fingerprint `seen` counted none."""
    if not viewer.is_player or (seen is not None and not live.has_absences(seen)):
        return []
    absences = list(Absence.objects.filter(seat=viewer.seat))
    for absence in absences:
        absence.seat = viewer.seat  # which knows its game (the template asks whether it still runs)
    return absences


def _own_notes(game, viewer, sent: str | None, seen: live.Fingerprint | None = None) -> dict | None:
    """The viewer's notes (`sent`: as they sent them, kept when refused); not asked for when the page's fingerprint
    `seen` found none."""
    if not viewer.signed_up:
        return None
    if sent is None:
        sent = "" if seen is not None and not live.has_notes(seen) else notes_of(game, viewer.user)
    return {"body": sent, "limit": Note.MAX_BODY}


def _first_new(posts, read_before, reader_id: int | None) -> int | None:
    """The first post of the page that its reader had not seen when last here, their own aside: the thread's
    "new posts" line goes above it. None on a first visit (everything is new: no line)."""
    if read_before is None:
        return None
    return next((p["pk"] for p in posts if p["created_at"] > read_before and p["author_id"] != reader_id), None)


def _signups(game) -> list[dict]:
    """Who joined the open game, each with their record (E6) as their profile shows it: one query for them all."""
    seats = list(game.seats.select_related("user"))
    users = [seat.user_id for seat in seats if seat.user_id is not None]
    records, rated = participation_records(users), conservative_by_user(users)
    return [{"seat": seat, "record": records.get(seat.user_id), "rating": rated.get(seat.user_id)} for seat in seats]


def _with_announcements(game, page, thread: str, events: list, before) -> list[dict]:
    """The page's posts with the runs of announcements made between them (the game thread only), from the game's
    events in order; `before`: the time of the last post of the page before, if any."""
    htmls = post_htmls(game, page.object_list)
    entries = [{"kind": "post", **post, "html": html} for post, html in zip(page.object_list, htmls, strict=True)]
    if thread != Post.Thread.MAIN:
        return entries
    if before is not None:
        events = [event for event in events if event.created_at > before]
    if page.has_next() and page.object_list:
        until = page.object_list[-1]["created_at"]
        events = [event for event in events if event.created_at <= until]
    entries += [{"kind": "event", "created_at": event.created_at, "event": event} for event in events]
    entries.sort(key=lambda entry: (entry["created_at"], entry["kind"] == "post"))
    return _runs_of_announcements(entries, game.rules)


def _runs_of_announcements(entries: list[dict], rules: HouseRules) -> list[dict]:
    """Consecutive announcements as one entry, rendered as one fragment, as the game's house `rules` say them."""
    merged = []
    for entry in entries:
        if entry["kind"] == "post":
            merged.append(entry)
        elif merged and merged[-1]["kind"] == "announcements":
            merged[-1]["events"].append(entry["event"])
        else:
            merged.append({"kind": "announcements", "events": [entry["event"]]})
    runs = [entry for entry in merged if entry["kind"] == "announcements"]
    for entry, html in zip(runs, announcement_fragments([entry["events"] for entry in runs], rules), strict=True):
        entry["html"] = html
    return merged


def _written_entries(entries: list[dict], game, reader, page, may_quote: bool, first_new: int | None) -> list[dict]:
    """The page's entries as its template writes them (games/_entries.html): each post with what this reader may do
    with it (quote it: who may post; edit it: its author; report it: signed in, another's, not hidden) and whether
    the "New posts" line goes above it (`first_new`), each run of announcements as it is. The addresses are found
    once for the page rather than once for each post."""
    reader_id = reader.pk if reader.is_authenticated else None
    key = (game.link_key,) if game.link_key else ()  # an unlisted game's addresses carry its key
    edit, report = _address("games:edit_post", game.link_key or game.pk), _address("moderation:report_post", *key)
    shown = []
    for entry in entries:
        if entry["kind"] == "post":
            pk, visible = entry["pk"], entry["hidden_at"] is None
            own = reader_id is not None and entry["author_id"] == reader_id
            entry = entry | {
                "own": own,
                "quote": may_quote and visible,
                "edit": edit(pk) if own else "",
                "report": report(pk) if reader_id is not None and not own and visible else "",
                "first_new": pk == first_new,
            }
        shown.append(entry | {"html": mark_safe(entry["html"])})  # fragments rendered by templates
    return shown


def _address(name: str, *args) -> Callable[[int], str]:
    """The address of the view `name` for any row id as its last argument, from one `reverse`."""
    head, tail = reverse(name, args=[*args, 0]).rsplit("/0/", 1)
    return lambda pk: f"{head}/{pk}/{tail}"


def first_unread(request, game_id: int):
    game, _state, _viewer = load(request, game_id)
    read = None
    if request.user.is_authenticated:
        read = ThreadRead.objects.filter(user=request.user, game=game, thread=Post.Thread.MAIN).first()
    posts = Post.objects.filter(game=game, thread=Post.Thread.MAIN)
    before = posts.filter(created_at__lte=read.last_read_at).count() if read else 0
    target = posts.order_by("created_at", "pk")[before : before + 1].first()
    url = game.address()
    if target is None:
        page = max(1, -(-posts.count() // PAGE_SIZE))
        return redirect(f"{url}?page={page}#end")
    return redirect(f"{url}?page={before // PAGE_SIZE + 1}#post-{target.pk}")


@login_required
@require_POST
def new_post(request, game_id: int):
    """A post; when it is refused, the thread is shown again with the text still in the form, never lost."""
    game, state, viewer = load(request, game_id)
    form = PostForm(request.POST)
    name = Post.Thread.GRAVEYARD if request.POST.get("thread") == Post.Thread.GRAVEYARD else Post.Thread.MAIN
    if not form.is_valid():
        messages.error(
            request, _("The post was not saved: %(errors)s") % {"errors": " ".join(form.errors.get("body", []))}
        )
        return _thread_page(request, game, state, viewer, name, form, "last", status=400)
    if "preview" in request.POST:  # shown above the form, the text kept in it: nothing is posted
        html = forum.preview(game, form.cleaned_data["body"])
        return _thread_page(request, game, state, viewer, name, form, "last", preview=html)
    try:
        post = post_message(
            game.pk,
            request.user,
            form.cleaned_data["body"],
            thread=form.cleaned_data["thread"],
            quote_of=form.cleaned_data["quote_of"],
        )
    except GameError as error:
        messages.error(request, str(error))
        return _thread_page(request, game, state, viewer, name, form, "last", status=409)
    mark_read(request.user, game, post.thread, post.created_at)  # read up to one's own post, without JavaScript too
    back = game.address("graveyard" if post.thread == Post.Thread.GRAVEYARD else "thread")
    page = -(-Post.objects.filter(game=game, thread=post.thread, created_at__lte=post.created_at).count() // PAGE_SIZE)
    return redirect(f"{back}?page={page}#post-{post.pk}")


@login_required
@require_POST
def save_own_notes(request, game_id: int):
    """The player's private notes, saved; when refused (too long), the page again with the text still in the box."""
    game, state, viewer = load(request, game_id)
    form = NotesForm(request.POST)
    try:
        if not form.is_valid():
            check_notes(game, request.user, "")  # who may keep none is told that first
            raise GameError(first_error(form), code="notes_too_long")
        kept = save_notes(game.pk, request.user, form.cleaned_data["body"])
    except GameError as error:
        if error.code == "not_in_game":
            raise PermissionDenied(str(error)) from None
        messages.error(request, str(error))
        sent = request.POST.get("body", "")
        return _thread_page(request, game, state, viewer, Post.Thread.MAIN, PostForm(), None, status=400, notes=sent)
    done = _("Your notes are saved: only you can read them.") if kept else _("Your notes are cleared.")
    messages.success(request, done)
    return redirect(game.address() + "#notes")


@login_required
def edit(request, game_id: int, post_id: int):
    game, _state, _viewer = load(request, game_id)
    post = get_object_or_404(Post, pk=post_id, game=game)
    if post.author_id != request.user.pk:
        raise PermissionDenied(_("Only the author can edit a post."))
    form = EditPostForm(request.POST or None, initial={"body": post.body})
    context = {"game": game, "post": post, "form": form}
    if request.method == "POST" and form.is_valid() and "preview" in request.POST:
        context["preview"] = forum.preview(game, form.cleaned_data["body"])
    elif request.method == "POST" and form.is_valid():
        try:
            edit_post(post.pk, request.user, form.cleaned_data["body"])
        except GameError as error:
            messages.error(request, str(error))
        else:
            return redirect(f"{game.address()}#post-{post.pk}")
    return render(request, "games/edit_post.html", context)


def post_history(request, game_id: int, post_id: int):
    game, _state, viewer = load(request, game_id)
    post = get_object_or_404(Post.objects.select_related("author"), pk=post_id, game=game)
    if not can_read(game, viewer, post.thread):
        raise Http404(_("There is no such post."))  # not even that a graveyard post of this id exists
    if post.hidden_at is not None and post.author_id != request.user.pk:
        raise Http404(_("This post was hidden by a moderator."))  # shown nothing: nothing read to record
    if warning := reading.graveyard_warning(request, game, viewer, post.thread):
        return warning  # who reads it may not take a seat: on the record before it is shown
    return render(request, "games/post_history.html", {"game": game, "post": post, "revisions": post.revisions.all()})


def secret_history(request, game_id: int):
    """R27: every role, hand, discard, investigation, peek and ballot, once the game is over."""
    game, state, _viewer = load(request, game_id)
    if state is None or not is_over(game):
        raise PermissionDenied(_("Everything is revealed when the game ends."))
    events = list(GameEvent.objects.filter(game=game).order_by("index"))
    context = {
        "game": game,
        "secret": revealed_secrets(state, events),
        "log": announcements(events, game.rules),
        "status": status_box(game, state),
        "scheme": export_script(game)["rng"],
    }
    return render(request, "games/secret_history.html", context)


def replay_script(request, game_id: int):
    """R27: the game as a replay script, seed included, once it is over (until then no such page exists)."""
    game = reach(request, game_id)
    if not is_over(game) or game.setup is None:
        raise Http404(_("The replay script is published when the game ends."))
    response = JsonResponse(export_script(game), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response
