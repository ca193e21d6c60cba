"""Screenshots of the page for docs/page.md (docs/img/): the table at 1366×800 and on a 390×844 phone (Japanese),
a deal's result screen, and a replay step.

    python tests/web/shots.py            # needs /usr/bin/chromium (the page ships its Japanese font)
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.live import ROOT, LiveReferee, launch_browser  # noqa: E402

OUT = ROOT / "docs" / "img"
DESKTOP = dict(viewport={"width": 1366, "height": 800})
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)


def create(page, preset, seed):
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#preset", preset)
    page.fill("#seed", str(seed))
    for i, row in enumerate(page.locator(".seat-name").all()):
        row.fill(["you", "Aoi", "Ren", "Mei"][i])
    page.click("#create")
    page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
    return re.search(r"game=([0-9a-f]+)&token=([^&]+)", page.url).groups()


def play(page, my_moves=None, pick=lambda n: 0, budget_s=120):
    """Play the seat by clicking options (pass when none) for my_moves turns, or to the end of the deal."""
    done = 0
    deadline = time.monotonic() + budget_s
    while (my_moves is None or done < my_moves) and page.get_attribute("body", "data-phase") != "deal_over":
        assert time.monotonic() < deadline, "the deal did not move on in time"
        if not page.locator("#hand-panel.myturn").count():
            time.sleep(0.1)
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


def wait_my_play(page):
    """Wait for a turn with something to play (passing meanwhile), then select an option without playing it."""
    for _ in range(300):
        if page.locator("#hand-panel.myturn #options .option").count():
            page.locator("#options .option").last.click()
            return
        if page.locator("#hand-panel.myturn #pass:not([disabled])").count():
            seq = page.get_attribute("body", "data-seq")
            page.click("#pass")
            page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
        time.sleep(0.1)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    live = LiveReferee().start()
    try:
        with sync_playwright() as pw:
            browser = launch_browser(pw)
            desk = browser.new_context(base_url=live.base, **DESKTOP).new_page()
            gid, token = create(desk, "gekifugo", 12)
            play(desk, 6, pick=lambda n: n // 2)
            wait_my_play(desk)
            desk.wait_for_selector("#banner", state="hidden")
            desk.screenshot(path=str(OUT / "table.png"))
            phone = browser.new_context(base_url=live.base, **PHONE).new_page()
            phone.goto(f"/#table&game={gid}&token={token}")
            phone.wait_for_selector("#hand-panel:not([hidden]) .handcard")
            phone.click("#lang")
            phone.wait_for_function("() => document.querySelector('#pass').textContent === 'パス'")
            wait_my_play(phone)
            phone.wait_for_selector("#banner", state="hidden")
            phone.screenshot(path=str(OUT / "phone.png"))
            # a deal to its end: the result screen
            r_gid, r_token = create(desk, "nanko", 7)
            play(desk)
            desk.wait_for_selector("#result-screen:not([hidden])")
            desk.wait_for_function("() => document.querySelectorAll('#result-standings tr').length > 1")
            desk.wait_for_selector("#banner", state="hidden")
            desk.screenshot(path=str(OUT / "result.png"))
            desk.goto(f"/#replay&game={gid}&token={token}")
            desk.wait_for_selector("#rp-felt .seat")
            last = int(desk.get_attribute("#scrub", "max"))
            desk.locator("#scrub").fill(str(max(1, last - 3)))
            desk.wait_for_function("m => document.querySelector('#rp-seq').textContent.startsWith('seq ' + m + ' ')",
                                   arg=max(1, last - 3))
            time.sleep(0.3)
            desk.screenshot(path=str(OUT / "replay.png"), full_page=True)
            browser.close()
    finally:
        live.stop()
    print(*(OUT / n for n in ("table.png", "phone.png", "result.png", "replay.png")))


if __name__ == "__main__":
    main()
