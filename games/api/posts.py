"""The game thread: its posts to follow from a cursor, and a new post in it."""

from datetime import datetime
from typing import Annotated

from ninja import Field, Schema
from pydantic import StringConstraints

from games.api.auth import READ, SIGNED, player
from games.api.common import PAGE, Cursor, Id, LinkKey, Router, find_game, find_unlisted_game
from games.api.problems import WRITE_REFUSALS, refusals
from games.models import Post
from games.services.forum import post_message

router = Router()

Text = Annotated[str, StringConstraints(max_length=Post.MAX_BODY, pattern=r"^[^\x00]*$")]


class PostOut(Schema):
    id: int
    author: str | None
    body: str | None = Field(description="null when a moderator hid the post")
    html: str | None
    created_at: datetime
    edited_at: datetime | None


class PostIn(Schema):
    body: Text


@router.get(
    "/games/{game_id}/posts", response={200: list[PostOut], **refusals(401, 404, 429)}, auth=READ, tags=["read"]
)
def posts(request, game_id: Id, after: Cursor = 0):
    """The game thread's posts after the post `after` (its id), at most 100, oldest first."""
    return _posts(find_game(request, game_id, "pk"), after)


@router.get(
    "/games/unlisted/{key}/posts",
    response={200: list[PostOut], **refusals(401, 404, 429)},
    auth=READ,
    tags=["read"],
)
def unlisted_posts(request, key: LinkKey, after: Cursor = 0):
    """An unlisted game's thread's posts after the post `after`, by its link key, as GET /games/{id}/posts."""
    return _posts(find_unlisted_game(key), after)


def _posts(found, after: int) -> list[dict]:
    rows = (
        Post.objects.filter(game=found, thread=Post.Thread.MAIN, pk__gt=after)
        .select_related("author")
        .order_by("pk")[:PAGE]
    )
    return [
        {
            "id": post.pk,
            "author": post.author.get_username() if post.author else None,
            "body": None if post.hidden_at else post.body,
            "html": None if post.hidden_at else post.html,
            "created_at": post.created_at,
            "edited_at": post.edited_at,
        }
        for post in rows
    ]


@router.post("/games/{game_id}/posts", response={200: PostOut, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def new_post(request, game_id: Id, payload: PostIn):
    """Post in the game thread, under the site's rules (the rate limit, the legislative session, the dead)."""
    user, _token = player(request)
    post = post_message(find_game(request, game_id).pk, user, payload.body)
    return {"id": post.pk, "author": user.get_username(), "body": post.body, "html": post.html,
            "created_at": post.created_at, "edited_at": post.edited_at}  # fmt: skip
