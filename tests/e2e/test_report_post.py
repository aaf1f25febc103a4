"""Issue 30: reporting a post with the thread page's one form, which its script moves under the post whose "Report"
was clicked; without JavaScript, the same link leads to a page with the post and the form. In English and Polish,
on a desktop and a phone."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Post
from moderation.models import Report
from tests.e2e.pages import VIEWPORTS, said, signed_in
from tests.factories import make_user, running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def thread() -> tuple[int, dict[str, int]]:
    game = running_game(now=timezone.now())
    posts = {
        name: Post.objects.create(
            game=game, author=make_user(name), body=name, html=f"<p>said {name}</p>", created_at=timezone.now()
        ).pk
        for name in ("bob", "cat")
    }
    return game.pk, posts


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_one_report_form_goes_under_the_post_clicked(browser, live_server, language, viewport):
    game, posts = thread()
    page = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[viewport])
    page.goto(f"/games/{game}/")
    form = page.locator("#report-form")
    expect(form).to_be_hidden()
    report = said(language, "Report")
    page.locator(f"#post-{posts['cat']}").get_by_role("link", name=report).click()
    expect(page.locator(f"#post-{posts['cat']} #report-form")).to_be_visible()
    page.locator(f"#post-{posts['bob']}").get_by_role("link", name=report).click()  # another post: the form follows
    expect(page.locator(f"#post-{posts['bob']} #report-form")).to_be_visible()
    expect(page.locator("#report-reason")).to_be_focused()
    expect(page.locator("#report-form")).to_have_count(1)
    page.get_by_label(said(language, "What is wrong with this post?")).fill("insults cat")
    page.get_by_role("button", name=said(language, "Send to the moderators")).click()
    expect(page.get_by_text(said(language, "Thank you: a moderator will look at this post."))).to_be_visible()
    assert Report.objects.get().post_id == posts["bob"]
    assert Report.objects.get().reason == "insults cat"


@pytest.mark.parametrize("language", ["en", "pl"])
def test_without_javascript_report_leads_to_a_page_of_its_own(browser, live_server, language):
    game, posts = thread()
    page = signed_in(browser, live_server.url, "ann", language=language, java_script_enabled=False)
    page.goto(f"/games/{game}/")
    page.locator(f"#post-{posts['cat']}").get_by_role("link", name=said(language, "Report")).click()
    expect(page).to_have_url(f"{live_server.url}/moderation/posts/{posts['cat']}/report/")
    expect(page.get_by_text("said cat")).to_be_visible()
    page.get_by_label(said(language, "What is wrong with this post?")).fill("spam")
    page.get_by_role("button", name=said(language, "Send to the moderators")).click()
    expect(page.get_by_text(said(language, "Thank you: a moderator will look at this post."))).to_be_visible()
    assert Report.objects.get().post_id == posts["cat"]
