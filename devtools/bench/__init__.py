"""What the benchmark commands share: a game with a long thread, made for a measure and deleted after it."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game, Post
from games.services.transfer import import_script


def game_with_thread(players: list[str], posts: int, name: str) -> Game:
    """A running game of `players`, named `name`, four steps on (their announcements in the thread), whose thread
    holds `posts` posts spread over five days: the n-th says "Post n of <name>:", so that a page read can be checked
    for its game and its posts."""
    # Four missed steps, not six: six end the game, every seat having missed two rounds (rule E3).
    script = {"players": players, "seed": 3, "actions": [{"type": "timeout"}] * 4}
    game = import_script(script, name=name)
    if game.status != Game.Status.RUNNING:
        raise ValueError(f"{name}: the game ended before its thread was written")
    authors = list(get_user_model().objects.filter(username__in=players))
    start = timezone.now() - timedelta(days=5)
    Post.objects.bulk_create(
        Post(
            game=game,
            author=authors[n % len(authors)],
            body=f"Post {n} of {name}: **Ja** from me.",
            html=f"<p>Post {n} of {name}: <strong>Ja</strong> from me.</p>",
            created_at=start + timedelta(minutes=n),
        )
        for n in range(posts)
    )
    return game
