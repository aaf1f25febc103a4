"""Take the README's screenshots from a running site with the demo loaded (`make run`, then this).

    .venv/bin/python tools/screenshots.py [http://127.0.0.1:8000]

Uses Debian's Chromium through Playwright; writes PNGs to docs/screenshots/.
"""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PASSWORD = "demo-password-1"


def shoot(base: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        desktop = browser.new_context(viewport={"width": 1280, "height": 900})
        page = desktop.new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("input[name=login]", "ann@example.com")
        page.fill("input[name=password]", PASSWORD)
        page.click("main button[type=submit]")
        page.goto(f"{base}/")
        page.screenshot(path=OUT / "lobby.png", full_page=True)
        page.get_by_role("link", name="Demo: mid-election").first.click()
        page.screenshot(path=OUT / "thread.png", full_page=True)
        page.get_by_role("link", name="Lobby").first.click()
        page.get_by_role("link", name="Demo: legislative session").first.click()
        page.locator("#panel").screenshot(path=OUT / "panel.png")
        phone = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=desktop.storage_state())
        phone = phone.new_page()
        phone.goto(page.url)
        phone.screenshot(path=OUT / "phone.png")
        page.get_by_role("link", name="Rules of this game").click()
        page.screenshot(path=OUT / "rules.png")
        page.goto(f"{base}/")
        page.get_by_role("link", name="Demo: mid-election").first.click()
        page.locator("figure.board").screenshot(path=OUT / "board.png")
        page.goto(f"{base}/")
        page.get_by_role("link", name="Demo: finished").first.click()
        page.locator("figure.board").screenshot(path=OUT / "board-end.png")
        page.get_by_role("link", name="Replay it step by step").click()
        for _ in range(3):  # the deal, the nomination, a first ballot
            page.keyboard.press("ArrowRight")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=OUT / "replay.png", full_page=True)
        page.goto(f"{base}/")
        page.get_by_role("link", name="Statistics of every finished game").click()
        page.screenshot(path=OUT / "stats.png", full_page=True)
        choose_a_target(browser, base)
        browser.close()


def choose_a_target(browser, base: str) -> None:
    """dan, the president, owes an execution: bob's seat clicked on the board, and the panel's select says bob."""
    page = browser.new_context(viewport={"width": 1280, "height": 2200}).new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", "dan@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.goto(f"{base}/")
    page.get_by_role("link", name="Demo: an execution to choose").first.click()
    page.locator("svg.table-svg").get_by_role("button", name="Choose bob").click()
    page.locator("#side").screenshot(path=OUT / "target.png")


if __name__ == "__main__":
    shoot(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
