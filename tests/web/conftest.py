"""Browser tests: Playwright (the Python package only) driving the system Chromium, headless.

They skip, saying why, when /usr/bin/chromium (or $REFEREE_CHROMIUM) or the playwright package is missing.
"""
from __future__ import annotations

import os

import pytest

from .live import CHROMIUM, LiveReferee, launch_browser


def _why_not() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium, or set REFEREE_CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright; never `playwright install`)"
    return None


@pytest.fixture(scope="session")
def live():
    why = _why_not()
    if why:
        pytest.skip(why)
    server = LiveReferee().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser(live):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = launch_browser(pw)
        yield b
        b.close()


def _watched_page(browser, live, **context):
    """A page whose JavaScript errors and Content-Security-Policy violations fail the test at teardown."""
    ctx = browser.new_context(base_url=live.base, **context)
    ctx.live = live  # the tests' failure messages quote the worker's log
    pg = ctx.new_page()
    pg.set_default_timeout(15000)
    pg.touch = context.get("has_touch", False)
    errors = []
    pg.on("pageerror", lambda exc: errors.append(exc.stack or str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors or CSP violations on the page: {errors}"


@pytest.fixture
def page(browser, live):
    yield from _watched_page(browser, live, viewport={"width": 1280, "height": 900})


SCREENS = {
    "desktop": dict(viewport={"width": 1366, "height": 800}),
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2),
}


@pytest.fixture(params=list(SCREENS))
def screen(request, browser, live):
    """A page at 1366×800 (mouse) or 390×844 (touch)."""
    yield from _watched_page(browser, live, **SCREENS[request.param])
