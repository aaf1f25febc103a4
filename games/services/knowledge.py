"""Who has seen a running game's secrets: they may never take a seat in it.

The record is what the site itself wrote when the secrets were shown: reading the graveyard (a ThreadRead row),
posting in it, or being shown them outside play (a SecretWitness row: the moderation page, the admin).
"""

from datetime import datetime

from django.utils import timezone

from games.models import Game, Post, SecretWitness, ThreadRead


def knows_secrets(game: Game, user) -> bool:
    """Has this person read the game's graveyard, posted in it, or been shown its secrets outside play?"""
    return bool(user_ids_knowing(game, [user.pk]))


def user_ids_knowing(game: Game, user_ids: list[int]) -> set[int]:
    """Those of `user_ids` who have seen the secrets of `game` while it runs (three queries at most)."""
    if game.status != Game.Status.RUNNING or not user_ids:
        return set()
    # Only what happened once the game had started: a lobby's empty graveyard or page holds no secret.
    since = game.started_at
    graveyard = Post.Thread.GRAVEYARD
    reads = ThreadRead.objects.filter(game=game, user_id__in=user_ids, thread=graveyard, last_read_at__gte=since)
    found = set(reads.values_list("user_id", flat=True))
    posts = Post.objects.filter(game=game, thread=graveyard, author_id__in=user_ids, created_at__gte=since)
    found |= set(posts.values_list("author_id", flat=True))
    witnesses = SecretWitness.objects.filter(game=game, user_id__in=user_ids, seen_at__gte=since)
    found |= set(witnesses.values_list("user_id", flat=True))
    return found


def has_witnessed(game: Game, user) -> bool:
    """Has `user` been shown the secrets of `game` outside play (its moderation page, the admin), once it started?"""
    return (
        game.started_at is not None
        and SecretWitness.objects.filter(game=game, user=user, seen_at__gte=game.started_at).exists()
    )


def record_witness(game: Game, user, *, now: datetime | None = None) -> bool:
    """`user` has been shown the secrets of `game`, or acted on it as a moderator: on the record once it has
    started. Returns whether this is the first time."""
    now = now or timezone.now()
    if game.started_at is None or now < game.started_at:
        return False
    _witness, created = SecretWitness.objects.get_or_create(game=game, user=user, defaults={"seen_at": now})
    return created
