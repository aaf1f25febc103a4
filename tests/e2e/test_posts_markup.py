"""Issue 29: what a reader sees of a post written in Markdown, in English and French, on a desktop and a phone:
code shows <b> as written, an image is a link to it, a javascript: link is text, and tables, strikethrough and
headings are drawn; the help line under the post box says so."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.pages import VIEWPORTS, signed_in
from tests.factories import running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

POST = """# Claims

```
<b>not bold</b>
```

![the map](https://example.com/map.png) and [click me](javascript:alert(1))

| seat | claim |
|---|---|
| ann | ~~FFF~~ FFL |
"""
HELP = {
    "en": ("Post", "HTML is shown as text, not used; an image is shown as a link to it."),
    "fr": (
        "Publier",
        "Le HTML s'affiche comme du texte, sans effet\u00a0; une image s'affiche comme un lien vers elle.",
    ),
}


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", HELP)
def test_a_post_shows_code_as_written_images_as_links_and_no_script_link(browser, live_server, language, viewport):
    game = running_game(now=timezone.now())
    page = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[viewport])
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"/games/{game.pk}/")
    post_label, help_line = HELP[language]
    expect(page.locator("#reply ~ form .helptext")).to_contain_text(help_line)
    page.locator("#id_body").fill(POST)
    page.get_by_role("button", name=post_label, exact=True).click()
    body = page.locator("article.post .body").last
    expect(body.locator("pre code")).to_have_text("<b>not bold</b>\n")
    expect(body.locator("b")).to_have_count(0)
    expect(body.locator("h3")).to_have_text("Claims")
    expect(body.locator("img")).to_have_count(0)
    image = body.locator("a.image")
    expect(image).to_have_text("the map")
    expect(image).to_have_attribute("href", "https://example.com/map.png")
    expect(body).to_contain_text("[click me](javascript:alert(1))")
    expect(body.locator("a", has_text="click me")).to_have_count(0)
    expect(body.locator("table th")).to_have_text(["seat", "claim"])
    expect(body.locator("table td s")).to_have_text("FFF")
    expect(body.locator("table td").last).to_have_text("FFF FFL")
    body.get_by_text("[click me]", exact=False).click()
    assert dialogs == []  # nothing ran
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.context.close()
