"""Moderators' actions: each checks who may act, goes through the game services (which announce in the game's
log what a game's players should know, without secrets or reasons), and leaves an entry in the audit log in the
same transaction."""

import logging
from datetime import timedelta

from allauth.account.adapter import get_adapter as get_account_adapter
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.usersessions.adapter import get_adapter as sessions_adapter
from allauth.usersessions.models import UserSession
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.access import can_read, is_moderator, viewer_for
from games.models import Absence, Ban, Game, Post
from games.services import GameError
from games.services.absences import end_absence as end_absence_service
from games.services.knowledge import has_witnessed, record_witness
from games.services.play import lock_game

from .models import AuditEntry, Report
from .verbs import OPTIONS, VERBS

log = logging.getLogger(__name__)


def can_moderate(user, game: Game) -> bool:
    """A moderator may act on a game they do not play in (or sign up for)."""
    return is_moderator(user) and not game.seats.filter(user=user).exists()


def must_warn(user, game: Game) -> bool:
    """A running game's moderation page shows every secret: a moderator who has not seen them is first told that
    they may then never take a seat in it, and must confirm. A lobby has no secret yet, and a game
    that is over has none left: the secret history is public."""
    return game.status == Game.Status.RUNNING and game.state is not None and not has_witnessed(game, user)


def see_secrets(moderator, game_id: int) -> bool:
    """The moderator confirmed the warning: on the record (the audit log; games' witness row, which bars them
    from a seat) once. Returns whether this was the first time."""
    with transaction.atomic():
        game = access_game(moderator, game_id)
        lock_game(game.pk)  # two confirmations at once make one record
        if not must_warn(moderator, game):
            return False
        audit(moderator, "view_secrets", "confirmed the warning and opened the game's moderation page", game=game)
        return True


def access_game(user, game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not can_moderate(user, game):
        raise PermissionDenied(_("You may not moderate this game."))
    return game


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise GameError(_("Give a reason: it goes in the audit log."), code="reason_missing")
    return reason


def audit(actor, action: str, reason: str, *, game: Game | None = None, target=None, **details) -> AuditEntry:
    """An entry in the audit log. A moderator who acts on a running game has seen its secrets: games records them
    as a witness, in the same transaction, and they may not take a seat in it."""
    if game is not None:
        record_witness(game, actor)
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


def game_action(moderator, game_id: int, action: str, reason: str, *, step: int, **options) -> bool:
    """One intervention on a game (one of moderation.verbs), made from the page of step `step`. Returns whether it
    changed anything; only a change is announced (by the game service) and written in the audit log, so a
    repeated click leaves no second trace."""
    reason = _reason(reason)
    verb = VERBS.get(action)
    if verb is None:
        raise GameError(_("Unknown action."), code="unknown_action")
    now = timezone.now()
    with transaction.atomic():
        game = access_game(moderator, game_id)
        if verb.run(moderator, game, step=step, now=now, **options) is False:
            return False
        public = {key: value for key, value in options.items() if key in OPTIONS and OPTIONS[key].public}
        newcomer = (
            get_user_model().objects.filter(username=options["newcomer"]).first() if "newcomer" in options else None
        )
        audit(
            moderator,
            verb.audit_name,
            reason,
            game=game,
            target=newcomer,
            target_name=options.get("player", ""),
            **public,
        )
        return True


def set_post_hidden(moderator, post_id: int, hidden: bool, reason: str) -> bool:
    """Hide or restore a post; returns False when it already was."""
    reason = _reason(reason)
    with transaction.atomic():
        post = Post.objects.select_for_update().select_related("game").filter(pk=post_id).first()
        if post is None:
            raise GameError(_("There is no such post."), code="no_such_post")
        access_game(moderator, post.game_id)
        if (post.hidden_at is not None) == hidden:
            return False
        Post.objects.filter(pk=post.pk).update(hidden_at=timezone.now() if hidden else None)
        audit(
            moderator,
            "hide_post" if hidden else "restore_post",
            reason,
            game=post.game,
            target=post.author,
            post=post.pk,
        )
        return True


def end_absence(moderator, absence_id: int, reason: str) -> bool:
    reason = _reason(reason)
    game_id = Absence.objects.filter(pk=absence_id).values_list("seat__game_id", flat=True).first()
    if game_id is None:  # withdrawn before it began, by a click before this one
        return False
    access_game(moderator, game_id)
    with transaction.atomic():
        lock_game(game_id)  # the game first, as every change of a game does: never a deadlock with its player
        absence = Absence.objects.select_related("seat__game", "seat__user").filter(pk=absence_id).first()
        if absence is None:  # two clicks at once: the second finds it withdrawn
            return False
        if absence.effective_end <= timezone.now():
            return False
        end_absence_service(absence.pk)
        audit(moderator, "end_absence", reason, game=absence.seat.game, target=absence.seat.user)
        return True


def report_post(user, post_id: int, reason: str) -> Report:
    """A player flags a post for the moderators (once per post)."""
    reason = (reason or "").strip()
    if not reason:
        raise GameError(_("Say what is wrong with this post."), code="reason_missing")
    post = Post.objects.select_related("game").filter(pk=post_id).first()
    if post is None or not _can_read(user, post):
        raise GameError(_("There is no such post."), code="no_such_post")
    report, created = Report.objects.get_or_create(post=post, reporter=user, defaults={"reason": reason})
    if not created:
        raise GameError(_("You have already reported this post."), code="already_reported")
    return report


def _can_read(user, post: Post) -> bool:
    game = post.game
    state = game.load_state() if game.state else None
    return can_read(game, viewer_for(game, user, state), post.thread)


def resolve_report(moderator, report_id: int, resolution: str) -> bool:
    resolution = _reason(resolution)
    with transaction.atomic():
        report = Report.objects.select_for_update().select_related("post__game").filter(pk=report_id).first()
        if report is None:
            raise GameError(_("There is no such report."), code="no_such_report")
        access_game(moderator, report.post.game_id)
        if report.resolved_at is not None:
            return False
        report.resolved_at, report.resolved_by, report.resolution = timezone.now(), moderator, resolution
        report.save(update_fields=["resolved_at", "resolved_by", "resolution"])
        audit(
            moderator, "resolve_report", resolution, game=report.post.game, target=report.post.author, report=report.pk
        )
        return True


def ban(moderator, user, days: int, reason: str) -> bool:
    """Ban from joining games for `days`; returns False when a ban in force already lasts at least as long
    (a repeated click makes no second ban)."""
    reason = _reason(reason)
    if not is_moderator(moderator):
        raise PermissionDenied
    if not 1 <= days <= 3650:
        raise GameError(_("A ban lasts from 1 day to 10 years."), code="out_of_range")
    now = timezone.now()
    until = now + timedelta(days=days)
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # two clicks: one after the other
        if Ban.objects.filter(user=user, lifted_at=None, until__gte=until - timedelta(minutes=1)).exists():
            return False
        Ban.objects.create(user=user, until=until, reason=reason, created_by=moderator)
        audit(moderator, "ban", reason, target=user, days=days)
        return True


def reset_second_factor(moderator, user, reason: str) -> bool:
    """A person who lost their second factor (a phone gone, a key lost) gets their account back from another
    moderator, on the record: every authenticator of theirs removed (app, keys, recovery codes), and every session of
    theirs signed out, so that they sign in with their password and set up a new one. Nobody resets their own, and
    only a superuser resets a staff member's or a superuser's. False when they had none (a repeated click)."""
    reason = _reason(reason)
    if not is_moderator(moderator):
        raise PermissionDenied
    if moderator.pk == user.pk:
        raise GameError(_("Another moderator must reset your own second factor."), code="not_allowed")
    if (user.is_staff or user.is_superuser) and not moderator.is_superuser:
        raise GameError(_("Only a superuser may reset a staff member's second factor."), code="not_allowed")
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # two clicks: one after the other
        kinds = sorted(set(Authenticator.objects.filter(user=user).values_list("type", flat=True)))
        if not kinds:
            return False
        Authenticator.objects.filter(user=user).delete()
        audit(moderator, "reset_second_factor", reason, target=user, removed=kinds)
    sessions_adapter().end_sessions(list(UserSession.objects.filter(user=user)))
    _tell_of_reset(user, moderator)
    return True


def _tell_of_reset(user, moderator) -> None:
    """The account's owner told, in their language: the reset is how an account is taken over by talking a
    moderator into it, and they are the first to notice."""
    address = EmailAddress.objects.get_primary_email(user)
    if not address:
        return
    context = {"moderator": moderator.get_username(), "timestamp": timezone.now()}
    try:
        get_account_adapter().send_mail("account/email/second_factor_reset", address, context)
    except (OSError, ValueError):  # the reset stands and the audit log has it
        log.warning("could not email user %s of their second factor's reset", user.pk, exc_info=True)


def lift_ban(moderator, ban_id: int, reason: str) -> bool:
    reason = _reason(reason)
    if not is_moderator(moderator):
        raise PermissionDenied
    with transaction.atomic():
        entry = Ban.objects.select_for_update().filter(pk=ban_id).first()
        if entry is None:
            raise GameError(_("There is no such ban."), code="no_such_ban")
        if entry.lifted_at is not None:
            return False
        entry.lifted_at = timezone.now()
        entry.save(update_fields=["lifted_at"])
        audit(moderator, "lift_ban", reason, target=entry.user)
        return True
