"""Who has seen a running game's secrets: they may never take a seat in it (issue 9).

The record is what the site itself wrote when the secrets were shown: reading the graveyard (a ThreadRead row),
posting in it, or opening the game's moderation page (an audit entry by that moderator).
"""

from games.models import Game, Post, ThreadRead
from moderation.models import AuditEntry


def knows_secrets(game: Game, user) -> bool:
    """Has this person read the game's graveyard, posted in it, or opened its moderation page?"""
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
    entries = AuditEntry.objects.filter(game=game, actor_id__in=user_ids, created_at__gte=since)
    found |= set(entries.values_list("actor_id", flat=True))
    return found
