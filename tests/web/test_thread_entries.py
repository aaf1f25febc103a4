"""The thread's entries as the thread_entries tag writes them are the markup of templates/games/_entries.html, the
plain version, for any mix of posts and announcements, links and readers, in every language."""

import random

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from games.templatetags.thread_entries import thread_entries


def entries(pick: random.Random) -> list[dict]:
    made = []
    for pk in range(pick.randrange(0, 30)):
        if pick.random() < 0.2:
            made.append({"kind": "announcements", "html": mark_safe(f"<ul><li>News {pk} &amp; more</li></ul>\n")})
            continue
        own = pick.random() < 0.3
        html = mark_safe(f'<header>{pk}</header>\n  <div class="body"><p>x</p></div>\n')
        made.append({
            "kind": "post", "pk": pk, "html": html,
            "own": own, "quote": pick.random() < 0.7, "first_new": pick.random() < 0.1,
            "edit": f"/games/3/posts/{pk}/edit/" if own else "",
            "report": f"/moderation/report/{pk}/?a=1&b=2" if not own and pick.random() < 0.8 else "",
        })  # fmt: skip
    return made


@pytest.mark.parametrize("language", ["en", "fr", "pl", "es"])
@pytest.mark.parametrize("seed", range(20))
def test_the_tag_writes_what_the_template_renders(seed, language):
    pick = random.Random(seed)
    shown, number = entries(pick), pick.randrange(1, 40)
    with translation.override(language):
        written = thread_entries(shown, number)
        rendered = render_to_string("games/_entries.html", {"entries": shown, "page_number": number})
    assert written == rendered
