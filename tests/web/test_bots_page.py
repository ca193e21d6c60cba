"""The page's "Bots" view: reachable from the start screen, it lists the registered bots (GET /v1/bots) with
their summary and recent results, in both languages, under the page's CSP, on a laptop and on a phone."""
from __future__ import annotations

import secrets

import requests

from service.bot_accounts import BotAccounts
from service.ratings import Ratings
from service.redis_conn import connect

from .test_page import wait_ready


def test_the_bots_view_lists_registered_bots_and_their_recent_results(screen, live):
    page = screen
    name = f"pagebot-{secrets.token_hex(3)}"
    bot = requests.post(f"{live.base}/v1/bots", json={"name": name}, timeout=10).json()
    accounts = BotAccounts(connect(live.redis_url, decode=True), live.prefix)
    accounts.record_result(name, "ab12cd", 1, "uecda", 2, 4, 1)  # as a finished deal records it (GameService)
    accounts.record_result(name, "ab12cd", 2, "uecda", 2, 4, 3)
    page.goto("/")
    wait_ready(page)
    page.click("#to-bots")
    row = page.locator(f"#bots-list tr[data-bot='{name}']")
    row.wait_for()
    cells = row.locator("td")
    assert cells.nth(0).inner_text().split() == [name, f"@{name}"]
    assert [cells.nth(i).inner_text() for i in range(1, 5)] == ["2", "2.00", "6", "3.00"]
    chips = row.locator(".recent .chip")
    assert chips.all_inner_texts() == ["#3 of 4 · uecda · deal 2", "#1 of 4 · uecda · deal 1"]
    assert "first" in chips.nth(1).get_attribute("class")
    assert page.locator("nav a[data-nav='bots']").get_attribute("class") == "active"
    assert bot["bot_token"] not in page.content()
    page.click("#lang")
    assert page.locator("#bots-table th").nth(2).inner_text() == "平均順位"
    assert row.locator(".recent .chip").first.inner_text() == "4人中3位・uecda・2回目"
    # on a phone too the list fits the width: no sideways scrolling
    assert page.evaluate("() => { const m = document.querySelector('main'); return m.scrollWidth <= m.clientWidth; }")


def test_the_bots_view_ranks_bots_by_rating_and_shows_it(screen, live):
    """A rated bot shows its rating (OpenSkill mu - 3 sigma) with its interval in the tooltip; best first."""
    page = screen
    conn = connect(live.redis_url, decode=True)
    accounts = BotAccounts(conn, live.prefix)
    names = [f"rated-{secrets.token_hex(3)}" for _ in range(2)]
    for name in names:
        requests.post(f"{live.base}/v1/bots", json={"name": name}, timeout=10).raise_for_status()
    ratings = Ratings(conn, live.prefix, accounts._account)
    for _ in range(3):  # names[1] wins every rated deal
        ratings.rate_deal([f"@{names[1]}", f"@{names[0]}", None, None], [1, 4, 2, 3], {f"@{n}" for n in names})
    page.goto("/#bots")
    wait_ready(page)
    rows = page.locator("#bots-list tr")
    rows.first.wait_for()
    order = [n for n in rows.evaluate_all("rs => rs.map(r => r.dataset.bot)") if n in names]
    assert order == [names[1], names[0]]
    cell = page.locator(f"#bots-list tr[data-bot='{names[1]}'] td.rating")
    shown = requests.get(f"{live.base}/v1/bots?limit=200&sort=rating", timeout=10).json()["bots"]
    rating = next(b["rating"] for b in shown if b["name"] == names[1])
    assert cell.inner_text() == f"{rating['score']:.1f}"
    assert "3 rated deals" in cell.get_attribute("title")
