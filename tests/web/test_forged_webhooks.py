"""Issue 27: the webhook subscription forms (profile and game) and their pages attacked as a hostile user would, each
sent NUL bytes, huge and negative values, dates at the calendar's ends, numbers where dates go, other games' ids and
stale steps. What a user notices: never a 5xx, a clear 4xx or form error, nothing changed, no other game's secret in
the answer."""

import pytest
from django.utils import timezone

from games.models import Game, WebhookSubscription
from tests.factories import make_user, running_game
from tests.web.attacks import snapshot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


FORGED_URLS = [
    "https://example.org/\x00",
    "https://exa\x00mple.org/",
    "https://example.org/" + "a" * 60_000,
    "https://" + "a" * 60_000 + ".org/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[2002:7f00:1::1]/",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",  # Teredo: 127.0.0.1 inverted
    "http://[64:ff9b::127.0.0.1]/",
    "http://[64:ff9b::a9fe:a9fe]/",  # NAT64 169.254.169.254
    "http://[64:ff9b:1::7f00:1]/",
    "http://[::127.0.0.1]/",
    "http://[::1]/",
    "http://[fe80::1%25eth0]/",
    "http://[::ffff:10.0.0.1]:8080/",
    "http://127.0.0.1@example.org/",
    "http://user:pass@example.org/",
    "http://example.org@127.0.0.1/",
    "http://example.org:80@169.254.169.254/",
    "http://0x7f000001/",
    "http://2130706433/",
    "http://017700000001/",
    "http://127.1/",
    "http://localhost./",
    "file:///etc/passwd",
    "gopher://example.org/",
    "javascript:alert(1)",
    "http://[::ffff:127.0.0.1",
    "http://example.org:99999/",
    "",
]


@pytest.mark.parametrize("url", FORGED_URLS)
def test_a_forged_webhook_url_is_a_form_error_in_both_forms_and_stores_nothing(client_for, url):
    game = running_game(now=timezone.now())
    Game.objects.filter(pk=game.pk).update(created_by=make_user("ann"))
    ann = client_for("ann")
    before = snapshot()
    for path in ("/profile/webhooks/", f"/games/{game.pk}/webhooks/"):
        response = ann.post(path, {"url": url})
        assert response.status_code in (200, 400), (path, response.status_code)
        assert 'class="errorlist' in response.content.decode() or response.status_code == 400, path
    assert snapshot() == before


def test_a_game_s_webhooks_of_another_game_are_refused(client_for, games):
    before = snapshot()
    response = client_for("ann").post(f"/games/{games['other'].pk}/webhooks/", {"url": "https://example.org/"})
    assert response.status_code in (403, 404)
    assert snapshot() == before


@pytest.mark.parametrize("target", ["theirs", "99999999", str(10**30), "%00"])
def test_deleting_someone_else_s_or_no_webhook_changes_nothing(client_for, target):
    theirs = WebhookSubscription.objects.create(
        owner=make_user("zed"), kind=WebhookSubscription.Kind.NOTICES, url="https://example.org/zed",
        secret=WebhookSubscription.new_secret(), created_at=timezone.now(),
    )  # fmt: skip
    before = snapshot()
    path = f"/webhooks/{theirs.pk if target == 'theirs' else target}/delete/"
    response = client_for("ann").post(path)
    assert response.status_code in (302, 400, 404)
    assert snapshot() == before
    assert "example.org/zed" not in client_for("ann").get("/profile/webhooks/").content.decode()


@pytest.mark.parametrize("game_id", ["99999999", str(10**30), "0"])
def test_a_game_s_webhooks_page_of_no_game_is_a_404(client_for, game_id):
    for method in ("get", "post"):
        response = getattr(client_for("ann"), method)(f"/games/{game_id}/webhooks/", {"url": "https://example.org/"})
        assert response.status_code == 404, method
    assert not WebhookSubscription.objects.exists()
