"""Chromium for the browser tests: Debian's (/usr/bin/chromium), driven by Playwright, which never downloads one."""

import pytest
from django.db import connections
from playwright.sync_api import sync_playwright

from tests.conftest import CHROMIUM

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def browser(monkeypatch):
    # Playwright's sync API keeps an event loop running in this thread, so Django takes the test's (synchronous)
    # queries for async code: allow them. They also get a database connection of their own, closed here, before the
    # loop stops, or it would keep the test database open when it is dropped.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield browser
        browser.close()
        connections.close_all()
