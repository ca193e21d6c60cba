"""The page's screenshots in docs/img/ (README.md and docs/page.md show them): the table at 1366×800 and on a 390×844
phone, each in English and in Japanese, a deal's result and a replay step.

    python scripts/screenshots.py        # needs /usr/bin/chromium (or $REFEREE_CHROMIUM) and the playwright package

It starts a live referee of its own (tests/web/live.py: an embedded Redis and a bot worker), plays a seat against
the `mc` bot by clicking as a player would, and takes each picture once the table is still: the seat to play with
a play selected and no banner showing, so that a picture never shows a moment the table has left.
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.live import ROOT, LiveReferee, launch_browser  # noqa: E402

OUT = ROOT / "docs" / "img"
SCREENS: dict[str, dict] = {
    "table": dict(viewport={"width": 1366, "height": 800}),
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2),
}
NAMES = ["Kai", "Aoi", "Ren", "Mei"]
# every card in flight has landed (the seat to play glows for ever: an endless animation does not count)
LANDED = """() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)"""


def page_in(browser, base: str, screen: str, lang: str):
    page = browser.new_context(base_url=base, **SCREENS[screen]).new_page()
    page.add_init_script(f"localStorage.setItem('daifugo.lang', '{lang}')")
    return page


def create(page, preset: str, seed: int) -> str:
    """A game made with the page's form: this seat against three mc bots. Returns its seat link."""
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#preset", preset)
    page.fill("#seed", str(seed))
    for i, row in enumerate(page.locator(".seat-name").all()):
        row.fill(NAMES[i])
    page.click("#create")
    page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
    return "/" + page.url.split("/", 3)[3]


def play(page, my_moves=None, pick=lambda n: 0, budget_s=180) -> None:
    """Play the seat by clicking options (passing when none) for my_moves turns, or to the end of the deal."""
    done = 0
    deadline = time.monotonic() + budget_s
    while (my_moves is None or done < my_moves) and page.get_attribute("body", "data-phase") != "deal_over":
        assert time.monotonic() < deadline, "the deal did not move on in time"
        if not page.locator("#hand-panel.myturn").count():
            page.wait_for_timeout(100)
            continue
        seq = page.get_attribute("body", "data-seq")
        opts = page.locator("#options .option")
        if opts.count():
            opts.nth(pick(opts.count())).click()
            if page.get_attribute("body", "data-seq") == seq:
                page.click("#act")
        elif page.locator("#pass:not([disabled])").count():
            page.click("#pass")
        else:
            continue
        page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
        done += 1


def still_with_a_play_selected(page) -> None:
    """Wait for a turn with something to play (passing meanwhile), select the strongest option, let the banner go."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if page.locator("#hand-panel.myturn #options .option").count():
            page.locator("#options .option").last.click()
            page.wait_for_selector("#banner", state="hidden")
            page.wait_for_function(LANDED)
            return
        if page.locator("#hand-panel.myturn #pass:not([disabled])").count():
            seq = page.get_attribute("body", "data-seq")
            page.click("#pass")
            page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
        page.wait_for_timeout(100)
    raise AssertionError("no turn to play came")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    live = LiveReferee().start()
    made = []
    try:
        with sync_playwright() as pw:
            browser = launch_browser(pw)
            first = page_in(browser, live.base, "table", "en")
            link = create(first, "gekifugo", 12)
            play(first, 5, pick=lambda n: n // 2)
            for screen in SCREENS:
                for lang in ("en", "ja"):
                    page = first if (screen, lang) == ("table", "en") else page_in(browser, live.base, screen, lang)
                    if page is not first:
                        page.goto(link)
                        page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
                    still_with_a_play_selected(page)
                    path = OUT / f"{screen}-{lang}.png"
                    page.screenshot(path=str(path))
                    made.append(path)
            # a deal to its end: the result panel
            result = page_in(browser, live.base, "table", "en")
            create(result, "nanko", 7)
            play(result)
            result.wait_for_selector("#result-screen:not([hidden])")
            result.wait_for_function("() => document.querySelectorAll('#result-standings tr').length > 1")
            result.wait_for_selector("#banner", state="hidden")
            made.append(OUT / "result.png")
            result.screenshot(path=str(made[-1]))
            # a replay step of the first game, three steps before its end
            replay = first
            replay.goto(re.sub(r"#table", "#replay", link))
            replay.wait_for_selector("#rp-felt .seat")
            last = int(replay.get_attribute("#scrub", "max"))
            replay.locator("#scrub").fill(str(max(1, last - 3)))
            replay.wait_for_function("m => document.querySelector('#rp-seq').textContent.startsWith('seq ' + m + ' ')",
                                     arg=max(1, last - 3))
            made.append(OUT / "replay.png")
            replay.screenshot(path=str(made[-1]))
            browser.close()
    finally:
        live.stop()
    print(*made, sep="\n")


if __name__ == "__main__":
    main()
