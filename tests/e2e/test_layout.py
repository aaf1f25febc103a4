"""What a first game showed on screen: words of the policy tracks broken mid-word, a ballot's legend across
its box's border. Measured in Chromium, in French and Polish (the longest words), on a phone and a desktop."""

import pytest
from django.utils import timezone

from tests.e2e.pages import signed_in
from tests.factories import running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS_ON_ONE_LINE = """
() => [...document.querySelectorAll('.track .slot')].flatMap(slot => {
  const text = slot.firstChild && slot.firstChild.nodeType === 3 ? slot.firstChild : null;
  if (!text) return [];
  const broken = [];
  for (const match of text.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, match.index);
    range.setEnd(text, match.index + match[0].length);
    if (range.getClientRects().length > 1) broken.push(match[0]);
  }
  return broken;
})
"""
LEGEND_INSIDE = """
() => [...document.querySelectorAll('fieldset > legend')].every(legend => {
  const box = legend.parentElement.getBoundingClientRect(), own = legend.getBoundingClientRect();
  return own.top >= box.top + 1 && own.bottom <= box.bottom;
})
"""


@pytest.mark.parametrize("language", ["fr", "pl"])
@pytest.mark.parametrize("width", [390, 1280])
def test_track_words_are_whole_and_legends_inside_their_box(browser, live_server, language, width):
    game = running_game(now=timezone.now(), actions=[{"type": "nominate", "by": "ann", "target": "bob"}])
    page = signed_in(browser, live_server.url, "cat", language=language, viewport={"width": width, "height": 900})
    page.goto(f"/games/{game.pk}/")
    assert page.locator("fieldset > legend").count() >= 1  # cat's ballot
    assert page.evaluate(WORDS_ON_ONE_LINE) == []
    assert page.evaluate(LEGEND_INSIDE)
    page.context.close()
