"""The thread page's cache is declared in one place (games/live.py PARTS): each kept part names the fingerprint's
values it shows, its key is made of them, and the page's ETag of every part's and the viewer's own. So the
fingerprint reads nothing that no part shows, a part shows nothing the ETag misses, and a change of any value
read is a new ETag (the pages themselves are compared cached and uncached in test_cache_equivalence.py)."""

from datetime import UTC, datetime

import pytest
from django.test import RequestFactory

from games import live
from games.models import Post
from tests.factories import running_game

pytestmark = pytest.mark.django_db


def test_the_fingerprint_reads_what_the_parts_and_the_viewer_show_and_nothing_else():
    declared = [name for part in live.PARTS.values() for name in part] + list(live.VIEWER)
    assert set(declared) == set(live.Fingerprint._fields)
    assert not set(live.VIEWER) & {name for part in live.PARTS.values() for name in part}  # own: in no kept part


def test_each_part_is_keyed_by_the_values_it_declares():
    game = running_game()
    seen = live.fingerprint(game.pk, Post.Thread.MAIN, None)
    for part, names in live.PARTS.items():
        assert live.shown(seen, part) == tuple(getattr(seen, name) for name in names)
        for name in names:
            assert live.shown(seen._replace(**{name: "changed"}), part) != live.shown(seen, part), (part, name)


@pytest.mark.parametrize("name", live.Fingerprint._fields)
def test_a_change_of_any_value_read_is_a_new_etag(name):
    game = running_game()
    seen = live.fingerprint(game.pk, Post.Thread.MAIN, None)
    request = RequestFactory().get(f"/games/{game.pk}/")
    request.user = type("Visitor", (), {"is_authenticated": False, "pk": None})()
    changed = seen._replace(**{name: datetime(2030, 1, 1, tzinfo=UTC)})
    for kind_live in (False, True):
        tags = (live.etag(request, seen, live=kind_live), live.etag(request, changed, live=kind_live))
        # A live answer leaves the read mark out: the page's script holds the mark it was loaded with.
        assert (tags[0] == tags[1]) == (kind_live and name == "live_read_mark"), (name, kind_live)
