"""The page in a real (headless) Chromium: create a game against bots, play a seat by clicking, replay, judge,
table mode. Run: python -m pytest -q tests/web (skips if /usr/bin/chromium is missing)."""
from __future__ import annotations

import json
import re
import time

import pytest
import requests


def cardname(code):
    return "JOKER" if code.startswith("JK") else {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[0]] + code[1:].replace("T", "10")


def wait_ready(page):
    page.wait_for_selector("body[data-ready='1']")


def turned_down(page, seq: str) -> str | None:
    """What the page says against the proposal it just made at ``seq``, unless the table moved on meanwhile: other
    seats may act at the same time (a cut-back window is open to them while the cutter leads), and a proposal that
    meets one of their moves is rightly turned down."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # as below: the module loads without it
    if not page.locator("#proposal-result.bad").count():
        return None
    try:
        page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq, timeout=5000)
        return None
    except PlaywrightTimeout:
        return page.inner_text("#proposal-result")


def create_vs_bots(page, preset="nanko", seed=7):
    page.goto("/")
    wait_ready(page)
    page.select_option("#preset", preset)
    page.fill("#seed", str(seed))
    kinds = page.locator(".seat-kind")
    assert kinds.count() == 4
    assert kinds.nth(0).input_value() == ""  # seat 0 human, the others the strongest bot by default
    for i in (1, 2, 3):
        kinds.nth(i).select_option("random")
    page.click("#create")
    page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
    m = re.search(r"game=([0-9a-f]+)&token=([^&]+)", page.url)
    assert m, page.url
    return m.group(1), m.group(2)


def _game_tail(page) -> str:
    """The last log entries (rejected proposals too) of the page's game, for failure messages."""
    m = re.search(r"game=([0-9a-f]+)", page.url)
    games = page.evaluate("() => JSON.parse(localStorage.getItem('daifugo.games') || '{}')")
    if not m or m.group(1) not in games:
        return ""
    base = page.context.live.base
    r = requests.get(f"{base}/v1/games/{m.group(1)}/events?include_rejected=true",
                     headers={"Authorization": f"Bearer {games[m.group(1)]['table_token']}"})
    return "server log tail: " + json.dumps(r.json()["events"][-3:])[:3000] + "\n"


def play_seat_to_the_end_of_the_deal(page, budget_s=90):
    """Click highlighted legal options (select, then the action button); pass when nothing fits."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # imported here: the module loads without it
    deadline = time.monotonic() + budget_s
    my_moves = 0
    checked_highlight = False
    while time.monotonic() < deadline:
        if page.get_attribute("body", "data-phase") == "deal_over":
            return my_moves
        if page.locator("#hand-panel.myturn").count() == 0:
            time.sleep(0.1)
            continue
        seq = page.get_attribute("body", "data-seq")
        options = page.locator("#options .option")
        if options.count():
            first = options.first
            try:
                label = first.inner_text(timeout=5000)
                first.click(timeout=5000)
            except PlaywrightTimeout:
                continue  # a live update re-rendered the options between counting and clicking: look again
            if page.get_attribute("body", "data-seq") == seq and page.locator("#hand .selected").count():
                if not checked_highlight:  # the chosen option's cards are selected and marked as a play
                    n = page.locator("#hand .selected").count()  # cards to choose are playable one by one
                    assert page.locator("#hand .selected.playable, #hand .selected.complete").count() == n
                    checked_highlight = True
                page.click("#act")
        elif page.locator("#pass:not([disabled])").count():
            label = "pass"
            page.click("#pass")
        else:
            time.sleep(0.1)
            continue
        try:
            page.wait_for_function(
                "s => document.body.dataset.seq !== s || document.querySelector('#proposal-result.bad')", arg=seq,
                timeout=5000)
        except PlaywrightTimeout:
            continue  # the click met a re-render (a live update replaced the options): look again; the deadline holds
        if (said := turned_down(page, seq)) is not None:
            pytest.fail(f"a legal option was rejected: {label!r}: {said}")
        my_moves += 1
    pytest.fail("the deal did not end in time: " + _game_tail(page) + json.dumps({
        "seq": page.get_attribute("body", "data-seq"), "phase": page.get_attribute("body", "data-phase"),
        "due": page.inner_text("#due"), "options": page.locator("#options .option").count(),
        "result": page.inner_text("#proposal-result"), "status": page.inner_text("#status"),
        "live": page.inner_text("#live")}, ensure_ascii=False) + "\nworker log:\n" + page.context.live.worker_tail())


@pytest.mark.parametrize("preset,seed", [("gekifugo", 4), ("uecda", 1)])
def test_play_a_deal_in_every_preset(page, live, preset, seed):
    create_vs_bots(page, preset, seed=seed)
    assert play_seat_to_the_end_of_the_deal(page) > 0
    page.wait_for_selector("#felt .over")


def test_play_a_deal_against_three_bots_then_replay_it(page, live):
    gid, token = create_vs_bots(page, "nanko", seed=7)
    assert page.locator("#felt .seat").count() == 4
    assert page.locator("#live.on").count() == 1 or page.wait_for_selector("#live.on")
    moves = play_seat_to_the_end_of_the_deal(page)
    assert moves > 0
    page.wait_for_selector("#felt .over")
    assert page.locator("#next-deal:not([hidden])").count() == 1
    # the verdict log shows messages; the status panel names who finished
    assert page.locator("#log li").count() > 3
    state = requests.get(f"{live.base}/v1/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()
    assert state["phase"] == "deal_over"
    assert state["players"][0]["place"] is not None
    # the next deal: the exchange is chosen by clicking too (the pending decision says what is due)
    page.click("#next-deal")
    page.wait_for_function("() => document.body.dataset.phase !== 'deal_over'")
    assert "Deal 2" in page.inner_text("#game-title")
    play_seat_to_the_end_of_the_deal(page)
    events = requests.get(f"{live.base}/v1/games/{gid}/events", headers={"Authorization": f"Bearer {token}"}).json()
    gave = [o for e in events["events"] for o in e.get("outcome", []) if o.get("kind") == "give" and o.get("from") == 0]
    clicked = [e for e in events["events"] if e["type"] == "move" and e["move"]["action"] == "give"
               and e["move"]["seat"] == 0]
    assert gave, ("in a 4-seat nanko exchange every seat gives", [e for e in events["events"] if e["type"] != "move"])
    # the lower half gives its strongest cards (made by the referee when there is no tie); the upper half chooses
    assert clicked or state["players"][0]["place"] > 2, ("a free choice of cards to give was made by clicking", gave)
    last_seq = int(page.get_attribute("body", "data-seq"))

    # --- the replay: scrub to the start, to the middle, step, to the end
    page.click("nav a[data-nav='replay']")
    page.wait_for_selector(f"#scrub[max='{last_seq}']")
    page.wait_for_function("m => document.querySelector('#rp-seq').textContent.includes(m)", arg=f"{last_seq} / {last_seq}")
    page.locator("#scrub").fill("0")
    page.wait_for_function("() => document.querySelector('#rp-seq').textContent.startsWith('seq 0 ')")
    assert "empty" in page.inner_text("#rp-felt .field")
    counts = [int(re.search(r"(\d+) cards", page.inner_text(f"#rp-felt .seat[data-seat='{i}'] .count")).group(1))
              for i in range(4)]
    assert sum(counts) >= 52
    mid = last_seq // 2
    page.locator("#scrub").fill(str(mid))
    page.wait_for_function("m => document.querySelector('#rp-seq').textContent.startsWith('seq ' + m + ' ')", arg=mid)
    assert page.locator("#rp-log li.current").get_attribute("data-seq") == str(mid)
    assert page.inner_text("#rp-event").strip().startswith(str(mid))
    page.click("#rp-next")
    page.wait_for_function("m => document.querySelector('#rp-seq').textContent.startsWith('seq ' + m + ' ')", arg=mid + 1)
    page.click("#rp-prev")
    page.wait_for_function("m => document.querySelector('#rp-seq').textContent.startsWith('seq ' + m + ' ')", arg=mid)
    page.click("#rp-last")
    page.wait_for_function("m => document.querySelector('#rp-seq').textContent.startsWith('seq ' + m + ' ')", arg=last_seq)
    assert page.locator("#rp-felt .over").count() == 1
    # the seat's view: other seats' hands are never shown in its replay
    assert page.locator("#rp-felt .seat[data-seat='1'] .minihand").count() == 0


def test_reload_keeps_the_seat_and_language_toggle(page, live):
    gid, token = create_vs_bots(page, "uecda", seed=3)
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
    assert token in page.url
    assert "seat 0" in page.inner_text("#hand-title").lower()
    page.click("#lang")
    page.wait_for_function("() => document.querySelector('nav a[data-nav=new]').textContent === '新しいゲーム'")
    assert page.inner_text("#pass") == "パス"
    page.click("#lang")
    page.wait_for_function("() => document.querySelector('#pass').textContent === 'Pass'")


def test_create_form_lists_rules_with_japanese_names(page, live):
    page.goto("/")
    wait_ready(page)
    catalog = requests.get(f"{live.base}/v1/rules").json()
    assert page.locator("#rules-box[open]").count() == 0  # folded under the preset's summary
    assert re.search(rf"nanko: \d+ of {len(catalog['rules'])} rules on", page.inner_text("#rules-box > summary"))
    page.click("#rules-box > summary")
    assert page.locator("#rules .rule").count() == len(catalog["rules"])
    jb = next(r for r in catalog["rules"] if r["id"] == "jack_back")
    row = page.locator("#rules .rule", has=page.locator("input[data-rule='jack_back']"))
    assert jb["name_ja"] in row.inner_text()
    page.select_option("#preset", "uecda")
    assert page.locator("input[data-rule='jack_back']").is_checked() is (catalog["presets"]["uecda"]["jack_back"] is not False)
    bots = requests.get(f"{live.base}/web/config.json").json()["bots"]
    options = page.locator(".seat-kind").first.locator("option").all_inner_texts()
    assert all(any(b in o for o in options) for b in bots)
    # an unknown switch in the advanced JSON is refused by the API, and the page shows why
    page.click("#advanced-box summary")
    page.fill("#rules-json", json.dumps({"no_such_rule": True}))
    page.click("#create")
    page.wait_for_function("() => document.querySelector('#create-error').textContent.length > 0")
    assert "no_such_rule" in page.inner_text("#create-error")


def test_the_seat_buttons_keep_to_the_presets_seats(page, live):
    """nanko is played by 3 to 6 (GET /v1/rules seats): the form neither adds a 7th seat nor removes the 3rd, and
    switching preset fits the seats to the new range."""
    page.goto("/")
    wait_ready(page)
    page.select_option("#preset", "nanko")
    rows, add, remove = page.locator(".seatrow"), page.locator("#add-seat"), page.locator("#remove-seat")
    assert rows.count() == 4 and "3 to 6" in page.inner_text("#seat-range")
    page.click("#add-seat")
    page.click("#add-seat")
    assert rows.count() == 6 and add.is_disabled() and not remove.is_disabled()
    page.select_option("#preset", "uecda")
    assert rows.count() == 6 and not add.is_disabled() and "2 to 8" in page.inner_text("#seat-range")
    page.click("#add-seat")
    page.click("#add-seat")
    assert rows.count() == 8 and add.is_disabled()
    page.select_option("#preset", "nanko")
    assert rows.count() == 6
    for _ in range(3):
        page.click("#remove-seat")
    assert rows.count() == 3 and remove.is_disabled()


def test_a_variant_is_set_from_the_rules_list(page, live):
    """A rule's parameters sit under it, at the preset's values, shown while the rule is on; changed ones are sent."""
    page.goto("/")
    wait_ready(page)
    page.select_option("#preset", "nanko")
    page.click("#rules-box > summary")
    rank = page.locator("[data-of='five_skip'][data-param='rank']")
    assert rank.input_value() == "5" and rank.is_visible()
    rank.select_option("K")
    wrap = page.locator("[data-of='five_skip'][data-param='wrap']")
    wrap.check()
    nine = page.locator("input[data-rule='nine_cut']")
    count = page.locator("[data-of='nine_cut'][data-param='count']")
    assert not nine.is_checked() and not count.is_visible()        # off in nanko: its parameters are folded away
    nine.check()
    assert count.is_visible() and count.input_value() == "2"
    page.locator("[data-of='eight_cut'][data-param='normal_only']").uncheck()  # nanko plays it normal-only
    page.click("#create")
    # the page goes on to the new game's table at once, hiding the form: wait for the answer, not for it shown
    page.wait_for_selector("#created:not([hidden])", state="attached")
    gid = page.text_content("#created-id").strip()
    games = page.evaluate("() => JSON.parse(localStorage.getItem('daifugo.games'))")
    state = requests.get(f"{live.base}/v1/games/{gid}",
                         headers={"Authorization": f"Bearer {games[gid]['table_token']}"}).json()
    rules = state["rules"]
    assert rules["five_skip"] == {"rank": "K", "round": "combo", "wrap": True}
    assert rules["nine_cut"] == {"count": 2}
    assert rules["eight_cut"] == {"normal_only": False}
    assert rules["jack_back"] == {"again": "restores", "optional": True, "parity": False}  # untouched: the preset's own


def test_judge_a_dispute(page, live):
    gid, token = create_vs_bots(page, "uecda", seed=5)
    games = page.evaluate("() => JSON.parse(localStorage.getItem('daifugo.games'))")
    table = games[gid]["table_token"]
    page.goto(f"/#table&game={gid}&token={table}")
    page.wait_for_selector("#entry-panel:not([hidden])")
    page.click("nav a[data-nav='judge']")
    page.click("#judge-hold")
    state = json.loads(page.input_value("#judge-state"))
    assert state["players"][1]["hand"], "the table's view holds every hand"
    wrong = (state["turn"] + 1) % 4 if state["turn"] is not None else 0
    card = state["players"][wrong]["hand"][0]
    page.fill("#judge-move", json.dumps({"seat": wrong, "action": "play", "cards": [card]}))
    page.click("#judge-form button[type=submit]")
    page.wait_for_selector("#judge-result .badge")
    text = page.inner_text("#judge-result")
    assert "rejected" in text and "turn, not" in text and "not_your_turn" not in text, text


def test_import_a_record_and_replay_it(page, live):
    r = requests.post(f"{live.base}/v1/games", json={"preset": "uecda", "seed": 2, "players": [
        {"name": "a"}, {"name": "b", "bot": "random"}, {"name": "c", "bot": "random"}, {"name": "d", "bot": "random"}]})
    g = r.json()
    record = requests.get(f"{live.base}/v1/games/{g['game_id']}/record",
                          headers={"Authorization": f"Bearer {g['table_token']}"}).text
    page.goto("/")
    wait_ready(page)
    page.fill("#import-text", record)
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#view-replay:not([hidden])")
    page.wait_for_selector("#rp-felt .seat")
    page.fill("#import-text", "nonsense") if page.locator("#import-text").is_visible() else None
    page.goto("/#new")
    page.fill("#import-text", "preset: nanko\n")
    page.click("#import-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#import-error').textContent.length > 0")
    assert "bad_record" in page.inner_text("#import-error")


def test_table_mode_rejected_play_shows_its_reason(page, live):
    page.goto("/")
    wait_ready(page)
    page.select_option("#preset", "nanko")
    page.check("#table-mode")
    page.select_option("#leader", "0")
    page.click("#create")
    page.wait_for_function("() => location.hash.startsWith('#table') || document.querySelector('#create-error').textContent")
    err = page.inner_text("#create-error")
    assert not err, f"creating a table-mode game failed: {err}"
    page.wait_for_selector("#entry-panel:not([hidden])")
    assert page.locator("#hand-panel[hidden]").count() == 1 or page.locator("#hand-panel").is_hidden()
    # seat 2 plays out of turn: rejected, and the page says why
    page.select_option("#entry-seat", "2")
    page.select_option("#entry-action", "play")
    page.fill("#entry-cards", "S9")
    page.click("#entry-submit")
    page.wait_for_selector("#entry-result .badge")
    assert "it is Player 1's turn, not Player 3's" in page.inner_text("#entry-result")
    assert page.locator("#entry-result.bad").count() == 1
    assert "Player 3 ♠9" in page.inner_text("#log")  # the log in words: the seat's name and the card
    # the leader plays: legal, and the verdict names the checks that could not be made
    page.select_option("#entry-seat", "0")
    page.fill("#entry-cards", "S9")
    page.click("#entry-submit")
    page.wait_for_selector("#entry-result.good")
    assert page.locator("#entry-result .unchecked").count() == 1
    page.wait_for_function("() => document.body.dataset.seq === '1'")
    assert "9" in page.inner_text("#felt .field")
    # a hands correction that contradicts what was played is refused, with the reason shown
    page.select_option("#correct-seat", "0")
    page.fill("#correct-cards", "S9 " + " ".join(f"{s}{r}" for s in "HDC" for r in "3456")[:-3])
    page.click("#correct-submit")
    page.wait_for_selector("#correct-result.bad")
    assert "bad_hands" in page.inner_text("#correct-result")


def test_table_token_enters_a_real_tables_plays(page, live):
    """The table device on an ordinary game: the table token proposes for any seat and sees each verdict."""
    r = requests.post(f"{live.base}/v1/games", json={"preset": "uecda", "seed": 9, "players": [
        {"name": n} for n in ("a", "b", "c", "d")]})
    g = r.json()
    st = g["state"]
    page.goto(f"/#table&game={g['game_id']}&token={g['table_token']}")
    page.wait_for_selector("#entry-panel:not([hidden])")
    assert page.input_value("#entry-seat") == str(st["turn"])  # defaults to whose turn it is
    wrong = (st["turn"] + 1) % 4
    page.select_option("#entry-seat", str(wrong))
    page.fill("#entry-cards", st["players"][wrong]["hand"][0])
    page.click("#entry-submit")
    page.wait_for_selector("#entry-result.bad .badge")
    assert f"turn, not {'abcd'[wrong]}'s" in page.inner_text("#entry-result")
    assert f"{'abcd'[wrong]} {cardname(st['players'][wrong]['hand'][0])}" in page.inner_text("#log")
    legal = requests.get(f"{live.base}/v1/games/{g['game_id']}/legal-moves?seat={st['turn']}",
                         headers={"Authorization": f"Bearer {g['table_token']}"}).json()["moves"]
    play = next(m for m in legal if m["action"] == "play")
    page.select_option("#entry-seat", str(st["turn"]))
    page.fill("#entry-cards", " ".join(play["cards"]))
    page.click("#entry-form details.extra summary")  # readings (as) and the like; declarations are checkboxes
    page.fill("#entry-extra", json.dumps({k: v for k, v in play.items() if k not in ("seat", "action", "cards")}))
    page.click("#entry-submit")
    page.wait_for_selector("#entry-result.good")
    page.wait_for_function("() => document.body.dataset.seq === '1'")
    for card in play["cards"]:
        assert page.locator(f"#felt .field .card[data-card='{card}']").count() == 1
