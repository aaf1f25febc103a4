"""Take the README's screenshots of ratings: the leaderboard, and a profile's rating with its history as a plot.

    .venv/bin/python tools/rating_screenshots.py

Everything is the site's own: a database of its own (SQLite in a temporary folder), twelve players who play sixty
rated games to their end by random legal moves (games.engine.random_move), imported as the moderators' import does
(services.transfer.import_script: each game rated when its last move ends it), spread over two seasons; the
development server on localhost, and Debian's Chromium (headless, through Playwright). Writes PNGs to
docs/screenshots/.
"""

import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 600}  # the page's own height beyond it (full_page)
PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe", "kim", "lou"]
GAMES = 60


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="sh-rating-shots-"))
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "sh_site.settings", "DEBUG": "1", "DEVTOOLS": "1", "REDIS_URL": "",
        "DJANGO_ALLOW_ASYNC_UNSAFE": "true",  # Playwright's sync API runs an event loop in this thread
        "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3",
    })  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    _league()
    port = free_port()
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        _wait_for(port)
        _shoot(f"http://localhost:{port}")
    finally:
        server.terminate()
        server.wait()


def _league() -> None:
    """Sixty rated games of five to ten of the twelve, each played to its end by random legal moves."""
    from games.engine import apply, new_game, random_move
    from games.engine.notation import write_move
    from games.services.transfer import import_script

    pick, start = random.Random(44), datetime(2026, 8, 1, 12, tzinfo=UTC)
    for number in range(GAMES):
        players = pick.sample(PLAYERS, pick.randint(5, 10))
        game, actions = new_game(players, seed=number), []
        while not game.over:
            action = random_move(game, pick)
            actions.append(write_move(game, action))
            apply(game, action)
        script = {"players": players, "seed": number, "actions": actions}
        import_script(script, now=start + timedelta(days=2 * number), rated=True, name=f"Table {number + 1}")


def _wait_for(port: int) -> None:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the development server did not start")


def _shoot(base: str) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu", "--no-first-run"]
        )
        page = browser.new_context(base_url=base, viewport=DESKTOP).new_page()
        page.set_default_timeout(15_000)
        page.goto("/ratings/")
        page.locator("main").screenshot(path=OUT / "leaderboard.png")
        page.goto("/users/ann/")
        page.locator("section[aria-labelledby=rating-title]").screenshot(path=OUT / "rating-history.png")
        browser.close()


if __name__ == "__main__":
    main()
