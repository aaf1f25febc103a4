"""Issue 29 in Chromium: a moderator opening a running game's moderation page is warned first and sees no secret
until they confirm; once confirmed, never asked again for that game. In English and in French, on a desktop and
on a phone."""

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from moderation.models import AuditEntry
from tests.e2e.pages import VIEWPORTS, said, second_factor_used, signed_in
from tests.factories import make_user, running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_moderator_confirms_once_before_seeing_the_secrets(browser, live_server, language, device):
    game = running_game(now=timezone.now())
    make_user("zoe").groups.add(Group.objects.get(name="moderators"))
    page = second_factor_used(
        signed_in(browser, live_server.url, "zoe", language=language, viewport=VIEWPORTS[device]), "zoe"
    )
    page.goto(f"/moderation/games/{game.pk}/")
    warning = page.locator("#secrets-warning")
    expect(warning).to_contain_text(said(language, "This page shows every secret of a running game"))
    secret_state = said(language, "Secret state")
    expect(page.get_by_text(secret_state)).to_have_count(0)
    assert "hitler" not in page.locator("main").inner_text().lower().replace("secret hitler", "")
    confirm = page.get_by_role("button", name=said(language, "I understand: show me the secrets"))
    expect(confirm).to_be_visible()
    confirm.click()
    expect(page.get_by_role("heading", name=secret_state)).to_be_visible()
    assert AuditEntry.objects.filter(game=game, actor_name="zoe", action="view_secrets").count() == 1
    page.goto(f"/moderation/games/{game.pk}/")  # asked once: straight to the page now
    expect(page.get_by_role("heading", name=secret_state)).to_be_visible()
    expect(page.locator("#secrets-warning")).to_have_count(0)
    assert AuditEntry.objects.filter(game=game, actor_name="zoe").count() == 1
    page.context.close()
