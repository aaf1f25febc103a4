"""Take the README's screenshots of ratings: the leaderboard, and a profile's rating with its history as a plot.

    .venv/bin/python tools/rating_screenshots.py

Everything is the site's own: a database of its own (SQLite in a temporary folder), twelve players who play sixty
rated games to their end by random legal moves (games.engine.random_move), imported as the moderators' import does
(services.transfer.import_script: each game rated when its last move ends it), spread over two seasons; the
development server on localhost, and Debian's Chromium (headless, through Playwright). Writes PNGs to
docs/screenshots/.
"""

import random
from datetime import UTC, datetime, timedelta

from site_of_its_own import CHROMIUM, OUT, serving, set_up

DESKTOP = {"width": 1280, "height": 600}  # the page's own height beyond it (full_page)
PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe", "kim", "lou"]
GAMES = 60


def main() -> None:
    set_up("sh-rating-shots-")
    _league()
    with serving() as port:
        _shoot(f"http://localhost:{port}")


def _league() -> None:
    """Sixty rated games of five to ten of the twelve, each played to its end by random legal moves."""
    from games.replay import random_script
    from games.services.transfer import import_script

    pick, start = random.Random(44), datetime(2026, 8, 1, 12, tzinfo=UTC)
    for number in range(GAMES):
        players = pick.sample(PLAYERS, pick.randint(5, 10))
        script = random_script(players, number)
        import_script(script, now=start + timedelta(days=2 * number), rated=True, name=f"Table {number + 1}")


def _shoot(base: str) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**CHROMIUM)
        page = browser.new_context(base_url=base, viewport=DESKTOP).new_page()
        page.set_default_timeout(15_000)
        page.goto("/ratings/")
        page.locator("main").screenshot(path=OUT / "leaderboard.png")
        page.goto("/users/ann/")
        page.locator("section[aria-labelledby=rating-title]").screenshot(path=OUT / "rating-history.png")
        browser.close()


if __name__ == "__main__":
    main()
