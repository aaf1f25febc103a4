# Issue 29: posts are rendered once, when saved. Those saved by Python-Markdown show fenced code escaped twice
# ("&lt;b>"), images as empty paragraphs and other schemes' links as links: every post, and every text an edit
# replaced (its history), is rendered again from its source by the CommonMark renderer (games/markup.py), with
# the mentions of its game's players linked as a new post would have them.

from django.db import migrations

from games.markup import render

BATCH = 500


def rerender(apps, schema_editor):
    Post = apps.get_model("games", "Post")
    PostRevision = apps.get_model("games", "PostRevision")
    Seat = apps.get_model("games", "Seat")
    names: dict[int, set[str]] = {}
    for game_id, username in Seat.objects.filter(user__isnull=False).values_list("game_id", "user__username"):
        names.setdefault(game_id, set()).add(username)
    posts = Post.objects.only("pk", "game_id", "body", "html").order_by("pk")
    _rerender(Post, posts, lambda post: names.get(post.game_id, set()))
    revisions = PostRevision.objects.select_related("post").only("pk", "post__game_id", "body", "html").order_by("pk")
    _rerender(PostRevision, revisions, lambda revision: names.get(revision.post.game_id, set()))


def _rerender(model, rows, mentionable) -> None:
    changed = []
    for row in rows.iterator(chunk_size=BATCH):
        html = render(row.body, mentionable=mentionable(row))
        if html != row.html:
            row.html = html
            changed.append(row)
        if len(changed) == BATCH:
            model.objects.bulk_update(changed, ["html"])
            changed = []
    model.objects.bulk_update(changed, ["html"])


class Migration(migrations.Migration):
    dependencies = [("games", "0017_game_over_notice")]

    operations = [migrations.RunPython(rerender, migrations.RunPython.noop)]
