"""Moderators' actions: each checks who may act, goes through the game services, is announced in the thread
when it touches a game (without secrets), and leaves an entry in the audit log in the same transaction."""

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.access import can_read, viewer_for
from games.engine import GameState
from games.models import Absence, Game, GameEvent, Post
from games.services import GameError, interventions
from games.services.absences import end_absence as end_absence_service

from .models import AuditEntry, Ban, Report

PERMISSION = "moderation.moderate"


def is_moderator(user) -> bool:
    return bool(user and user.is_authenticated and user.has_perm(PERMISSION))


def can_moderate(user, game: Game) -> bool:
    """A moderator may act on a game they do not play in (or sign up for)."""
    return is_moderator(user) and not game.seats.filter(user=user).exists()


def access_game(user, game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not can_moderate(user, game):
        raise PermissionDenied(_("You may not moderate this game."))
    return game


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise GameError(_("Give a reason: it goes in the audit log."))
    return reason


def audit(actor, action: str, reason: str, *, game: Game | None = None, target=None, **details) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor,
        actor_name=actor.get_username(),
        action=action,
        reason=reason,
        game=game,
        game_name=game.name if game else "",
        target=target,
        target_name=target.get_username() if target is not None else details.pop("target_name", ""),
        details=details,
    )


def announce(game: Game, action: str, now: datetime, **data) -> None:
    """A moderator's action in the game thread's log (never its reason, which may be private).

    Call inside a transaction: the game row is locked so that two announcements never take the same index.
    """
    index = Game.objects.select_for_update().values_list("event_count", flat=True).get(pk=game.pk)
    GameEvent.objects.create(
        game=game,
        index=index,
        step_number=game.step_number,
        type="moderator_action",
        data={"action": action, **data},
        created_at=now,
    )
    Game.objects.filter(pk=game.pk).update(event_count=index + 1)


def game_action(moderator, game_id: int, action: str, reason: str, **options) -> None:
    """Run one intervention on a game: pause, resume, extend, end_now, excuse, exile, replace, cancel."""
    reason = _reason(reason)
    now = timezone.now()
    with transaction.atomic():
        game = access_game(moderator, game_id)
        target = None
        if action == "pause":
            interventions.pause(game.pk, moderator, now=now)
        elif action == "resume":
            interventions.resume(game.pk, moderator, now=now)
        elif action == "extend":
            interventions.extend(game.pk, moderator, hours=options["hours"], now=now)
        elif action == "end_now":
            interventions.end_now(game.pk, moderator, now=now)
        elif action in ("excuse", "exile"):
            getattr(interventions, action)(game.pk, moderator, options["player"], now=now)
        elif action == "replace":
            interventions.replace(game.pk, moderator, options["player"], options["newcomer"], now=now)
            target = get_user_model().objects.get(username=options["newcomer"])
        elif action == "cancel":
            interventions.cancel(game.pk, moderator, now=now)
        else:
            raise GameError(_("Unknown action."))
        game.refresh_from_db()
        public = {key: value for key, value in options.items() if key in ("hours", "player", "newcomer")}
        if action in ("pause", "resume", "extend", "end_now"):
            announce(game, action, now, **public)
        audit(moderator, action, reason, game=game, target=target, target_name=options.get("player", ""), **public)


def set_thread_lock(moderator, game_id: int, locked: bool, reason: str) -> None:
    reason = _reason(reason)
    with transaction.atomic():
        game = access_game(moderator, game_id)
        Game.objects.filter(pk=game.pk).update(thread_locked=locked)
        game.refresh_from_db()
        announce(game, "thread_locked" if locked else "thread_unlocked", timezone.now())
        audit(moderator, "lock_thread" if locked else "unlock_thread", reason, game=game)


def set_post_hidden(moderator, post_id: int, hidden: bool, reason: str) -> None:
    reason = _reason(reason)
    with transaction.atomic():
        post = Post.objects.select_related("game").get(pk=post_id)
        access_game(moderator, post.game_id)
        Post.objects.filter(pk=post.pk).update(hidden_at=timezone.now() if hidden else None)
        audit(
            moderator,
            "hide_post" if hidden else "restore_post",
            reason,
            game=post.game,
            target=post.author,
            post=post.pk,
        )


def end_absence(moderator, absence_id: int, reason: str) -> None:
    reason = _reason(reason)
    with transaction.atomic():
        absence = Absence.objects.select_related("seat__game", "seat__user").get(pk=absence_id)
        access_game(moderator, absence.seat.game_id)
        end_absence_service(absence.pk)
        audit(moderator, "end_absence", reason, game=absence.seat.game, target=absence.seat.user)


def report_post(user, post_id: int, reason: str) -> Report:
    """A player flags a post for the moderators (once per post)."""
    reason = (reason or "").strip()
    if not reason:
        raise GameError(_("Say what is wrong with this post."))
    post = Post.objects.select_related("game").filter(pk=post_id).first()
    if post is None or not _can_read(user, post):
        raise GameError(_("There is no such post."))
    report, created = Report.objects.get_or_create(post=post, reporter=user, defaults={"reason": reason})
    if not created:
        raise GameError(_("You have already reported this post."))
    return report


def _can_read(user, post: Post) -> bool:
    game = post.game
    state = GameState.from_dict(game.state) if game.state else None
    return can_read(game, viewer_for(game, user, state), post.thread)


def resolve_report(moderator, report_id: int, resolution: str) -> None:
    resolution = _reason(resolution)
    with transaction.atomic():
        report = Report.objects.select_for_update().select_related("post__game").get(pk=report_id)
        access_game(moderator, report.post.game_id)
        if report.resolved_at is not None:
            raise GameError(_("This report is already resolved."))
        report.resolved_at, report.resolved_by, report.resolution = timezone.now(), moderator, resolution
        report.save(update_fields=["resolved_at", "resolved_by", "resolution"])
        audit(
            moderator, "resolve_report", resolution, game=report.post.game, target=report.post.author, report=report.pk
        )


def ban(moderator, user, days: int, reason: str) -> Ban:
    reason = _reason(reason)
    if not is_moderator(moderator):
        raise PermissionDenied
    if not 1 <= days <= 3650:
        raise GameError(_("A ban lasts from 1 day to 10 years."))
    with transaction.atomic():
        entry = Ban.objects.create(
            user=user, until=timezone.now() + timedelta(days=days), reason=reason, created_by=moderator
        )
        audit(moderator, "ban", reason, target=user, days=days)
    return entry


def lift_ban(moderator, ban_id: int, reason: str) -> None:
    reason = _reason(reason)
    if not is_moderator(moderator):
        raise PermissionDenied
    with transaction.atomic():
        entry = Ban.objects.select_for_update().get(pk=ban_id)
        if entry.lifted_at is None:
            entry.lifted_at = timezone.now()
            entry.save(update_fields=["lifted_at"])
        audit(moderator, "lift_ban", reason, target=entry.user)


def is_banned(user, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return Ban.objects.filter(user=user, until__gt=now, lifted_at=None).exists()
