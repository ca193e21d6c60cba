"""Screenshots of the page for the README: docs/img/table.png and docs/img/replay.png.

    python tests/web/shots.py            # needs /usr/bin/chromium; CJK glyphs need fonts-noto-cjk
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


def main(preset: str = "gekifugo", seed: int = 12, my_moves: int = 5) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    live = LiveReferee().start()
    try:
        with sync_playwright() as pw:
            browser = launch_browser(pw)
            page = browser.new_page(viewport={"width": 1280, "height": 860}, base_url=live.base)
            page.goto("/")
            page.wait_for_selector("body[data-ready='1']")
            page.select_option("#preset", preset)
            page.fill("#seed", str(seed))
            names = ["you", "Aoi", "Ren", "Mei"]
            for i, row in enumerate(page.locator(".seat-name").all()):
                row.fill(names[i])
            page.click("#create")
            page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
            gid, token = re.search(r"game=([0-9a-f]+)&token=([^&]+)", page.url).groups()
            done = 0
            while done < my_moves and page.get_attribute("body", "data-phase") != "deal_over":
                if not page.locator("#hand-panel.myturn").count():
                    time.sleep(0.1)
                    continue
                seq = page.get_attribute("body", "data-seq")
                opts = page.locator("#options .option")
                if opts.count():
                    opts.nth(opts.count() // 2).click()
                    page.click("#act")
                elif page.locator("#pass:not([disabled])").count():
                    page.click("#pass")
                else:
                    continue
                page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
                done += 1
            # wait for my turn with something to play, select an option but do not play it
            for _ in range(200):
                if page.locator("#hand-panel.myturn #options .option").count():
                    break
                if page.locator("#hand-panel.myturn #pass:not([disabled])").count():
                    seq = page.get_attribute("body", "data-seq")
                    page.click("#pass")
                    page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
                time.sleep(0.1)
            opts = page.locator("#options .option")
            if opts.count():
                opts.first.click()
            time.sleep(0.5)
            page.screenshot(path=str(OUT / "table.png"), full_page=True)
            games = page.evaluate("() => JSON.parse(localStorage.getItem('daifugo.games'))")
            table = games[gid]["table_token"]
            page.goto(f"/#replay&game={gid}&token={table}")
            page.wait_for_selector("#rp-felt .seat")
            last = int(page.get_attribute("#scrub", "max"))
            page.locator("#scrub").fill(str(max(1, last - 3)))
            page.wait_for_function("m => document.querySelector('#rp-seq').textContent.startsWith('seq ' + m + ' ')",
                                   arg=max(1, last - 3))
            time.sleep(0.3)
            page.screenshot(path=str(OUT / "replay.png"), full_page=True)
            browser.close()
    finally:
        live.stop()
    print(OUT / "table.png", OUT / "replay.png")


if __name__ == "__main__":
    main()
