"""The game's forum: posting, editing within a short window (history kept), claims, read markers."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.access import posting_refusal, viewer_for
from games.markup import mentions, render
from games.models import Claim, Game, Post, PostRevision, ThreadRead
from games.notify import notify_mentions, notify_post

from .errors import GameError
from .play import lock_game

EDIT_WINDOW = timedelta(minutes=15)
CLAIM_CARDS = {Claim.Office.PRESIDENT: 3, Claim.Office.CHANCELLOR: 2}


def post_message(
    game_id: int, user, body: str, *, thread: str = Post.Thread.MAIN, quote_of: int | None = None, now=None
) -> Post:
    """Post in one of the game's threads, if the rules of the thread allow it now."""
    now = now or timezone.now()
    body = _check_body(body)
    with transaction.atomic():
        game = lock_game(game_id)
        state = game.load_state() if game.state else None
        refusal = posting_refusal(game, viewer_for(game, user, state), thread, state)
        if refusal:
            raise GameError(refusal, code="cannot_post")
        _check_rate(game, user, now)
        quoted = game.posts.filter(pk=quote_of, thread=thread, hidden_at=None).first() if quote_of else None
        people = _people(game)
        post = Post.objects.create(
            game=game,
            thread=thread,
            author=user,
            body=body,
            html=render(body, mentionable=set(people)),
            quote_of=quoted,
            created_at=now,
        )
        # The graveyard never reaches the living while the game runs: no mention is announced from it.
        graveyard_running = thread == Post.Thread.GRAVEYARD and game.status == Game.Status.RUNNING
        mentioned = set() if graveyard_running else mentions(body, set(people))
        if mentioned:
            notify_mentions(game, post.pk, user, sorted(people[name] for name in mentioned), now)
        notify_post(game, post, now)
        return post


def preview(game: Game, body: str) -> str:
    """The HTML a post with this text would show, mentions linked as they would be: nothing is saved."""
    return render(body, mentionable=_names(game))


def edit_post(post_id: int, user, body: str, *, now: datetime | None = None) -> Post:
    """The author may edit within EDIT_WINDOW; the text replaced stays visible in the post's history."""
    now = now or timezone.now()
    body = _check_body(body)
    with transaction.atomic():
        post = Post.objects.select_for_update().select_related("game").get(pk=post_id)
        if post.author_id != user.pk:
            raise GameError(_("Only the author can edit a post."), code="not_the_author")
        if now - post.created_at > EDIT_WINDOW:
            raise GameError(_("Posts can be edited for 15 minutes only."), code="edit_window_over")
        game = post.game
        state = game.load_state() if game.state else None
        refusal = posting_refusal(game, viewer_for(game, user, state), post.thread, state)
        if refusal:
            raise GameError(refusal, code="cannot_post")
        if body == post.body:
            return post
        PostRevision.objects.create(post=post, body=post.body, html=post.html, created_at=now)
        post.body, post.html, post.edited_at = body, render(body, mentionable=_names(game)), now
        post.save(update_fields=["body", "html", "edited_at"])
        return post


def file_claim(game_id: int, user, round_number: int, cards: str, *, now: datetime | None = None) -> Claim:
    """A president (3 cards) or chancellor (2 cards) says what they saw in their session: once, publicly."""
    now = now or timezone.now()
    cards = cards.strip().upper()
    with transaction.atomic():
        game = lock_game(game_id)
        office = _claim_office(game, user, round_number, cards)
        return Claim.objects.create(
            game=game,
            round=round_number,
            office=office,
            author=user,
            author_name=user.get_username(),
            cards=cards,
            created_at=now,
        )


def check_claim(game_id: int, user, round_number: int, cards: str) -> str:
    """The office the claim would be filed for, or the GameError `file_claim` would raise now: read, not filed."""
    return _claim_office(Game.objects.get(pk=game_id), user, round_number, cards.strip().upper())


def _claim_office(game: Game, user, round_number: int, cards: str) -> str:
    state = game.load_state() if game.state else None
    viewer = viewer_for(game, user, state)
    if game.status != Game.Status.RUNNING or not viewer.alive:
        raise GameError(_("Only a living player of a running game can file a claim."), code="not_seated")
    session = next((s for s in state.sessions if s.round == round_number), None)
    if session is None or not session.over:
        # R18: nothing is said about a session before it is over.
        raise GameError(_("There was no legislative session of yours in that round."), code="no_such_session")
    if session.president_seat == viewer.seat.number:
        office = Claim.Office.PRESIDENT
    elif session.chancellor_seat == viewer.seat.number:
        office = Claim.Office.CHANCELLOR
    else:
        raise GameError(_("There was no legislative session of yours in that round."), code="no_such_session")
    if len(cards) != CLAIM_CARDS[office] or set(cards) - {"L", "F"}:
        raise GameError(
            _("A claim is %(count)s cards, each L or F.") % {"count": CLAIM_CARDS[office]}, code="invalid_claim"
        )
    if game.claims.filter(round=round_number, office=office).exists():
        raise GameError(_("You have already filed your claim for that session."), code="already_claimed")
    return office


def read_mark(user, game: Game, thread: str) -> datetime | None:
    """The newest post the user has seen in the thread, as their read mark says (None: never read, or a visitor)."""
    if not user.is_authenticated:
        return None
    return ThreadRead.objects.filter(user=user, game=game, thread=thread).values_list("last_read_at", flat=True).first()


def mark_read(user, game: Game, thread: str, up_to: datetime) -> None:
    """Remember that the user has seen the thread up to `up_to`: their mark moves there, never back (another of
    their requests may have moved it further meanwhile). Only ever called by a POST (views.reading, a post): in a
    running game's graveyard the mark is the record that bars its reader from a seat (services.knowledge)."""
    if not user.is_authenticated:
        return
    row = ThreadRead(user=user, game=game, thread=thread, last_read_at=up_to)
    ThreadRead.objects.bulk_create([row], ignore_conflicts=True)
    ThreadRead.objects.filter(user=user, game=game, thread=thread, last_read_at__lt=up_to).update(last_read_at=up_to)


def _check_body(body: str) -> str:
    body = (body or "").strip()
    if not body:
        raise GameError(_("A post needs some text."), code="empty_post")
    if len(body) > Post.MAX_BODY:
        raise GameError(_("A post is at most %(count)s characters.") % {"count": Post.MAX_BODY}, code="post_too_long")
    return body


def _check_rate(game: Game, user, now: datetime) -> None:
    """At most POSTS_PER_MINUTE and POSTS_PER_HOUR posts by one person in one game (settings)."""
    limits = ((timedelta(minutes=1), settings.POSTS_PER_MINUTE), (timedelta(hours=1), settings.POSTS_PER_HOUR))
    for window, limit in limits:
        if Post.objects.filter(game=game, author=user, created_at__gt=now - window).count() >= limit:
            raise GameError(_("You are posting too fast: wait a little and try again."), code="posting_too_fast")


def _names(game: Game) -> set[str]:
    return set(_people(game))


def _people(game: Game) -> dict[str, int]:
    """The game's people by their user name as it is now, which a mention names (it links to their profile), to
    their account: never the name the game knows them by, which a renamed account no longer has."""
    return dict(game.seats.filter(user__isnull=False).values_list("user__username", "user_id"))
