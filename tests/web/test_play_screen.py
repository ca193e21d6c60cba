"""The play screen in Chromium at 1366×800 (mouse) and 390×844 (touch): one screen, events seen, words not codes.

Games with explicit hands are created over the API (every seat human); the page plays one seat and the other seats'
moves are proposed with the table token, so each scenario is exact and quick.
"""
from __future__ import annotations

import re
import time

import requests
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .test_page import cardname, turned_down, wait_ready

DECK = [s + r for r in "3456789TJQKA2" for s in "SHDC"] + ["JK1", "JK2"]
NAMES = ["Aoi", "Ren", "Mei", "Sora"]
RAW_CODE = re.compile(r"\b(?:[SHDC][3-9TJQKA2]|JK[12])\b")


def tap(page, target, timeout=None):
    loc = page.locator(target) if isinstance(target, str) else target
    if page.touch:
        loc.tap(timeout=timeout)
    else:
        loc.click(timeout=timeout)


def deal(fixed: dict[int, list[str]], jokers=2) -> list[list[str]]:
    """Hands with the given cards at the given seats, the rest of the deck dealt to fill each seat's size."""
    deck = DECK[:52 + jokers]
    sizes = [len(deck) // 4 + (1 if i < len(deck) % 4 else 0) for i in range(4)]
    taken = {c for cards in fixed.values() for c in cards}
    rest = [c for c in deck if c not in taken]
    hands = []
    for seat, size in enumerate(sizes):
        hand = list(fixed.get(seat, []))
        while len(hand) < size:
            hand.append(rest.pop())
        hands.append(hand)
    assert not rest
    return hands


class Game:
    def __init__(self, live, preset, hands, names=NAMES, rules=None):
        r = requests.post(f"{live.base}/v1/games", json={"preset": preset, "hands": hands,
                                                         "players": [{"name": n} for n in names],
                                                         **({"rules": rules} if rules else {})})
        assert r.status_code == 201, r.text
        self.live, self.data = live, r.json()
        self.id, self.table = self.data["game_id"], self.data["table_token"]

    def link(self, seat, view="table"):
        return f"/#{view}&game={self.id}&token={self.data['seat_tokens'][seat]}"

    def state(self):
        return requests.get(f"{self.live.base}/v1/games/{self.id}", headers={"Authorization": f"Bearer {self.table}"}).json()

    def move(self, seat, action, cards=None, **extra):
        body = {"seat": seat, "action": action, **({"cards": cards} if cards else {}), **extra}
        r = requests.post(f"{self.live.base}/v1/games/{self.id}/moves", json=body,
                          headers={"Authorization": f"Bearer {self.table}"})
        assert r.status_code == 200, r.text
        return r.json()

    def pass_round_to(self, seat):
        """Every other seat passes until it is ``seat``'s turn."""
        st = self.state()
        while st["turn"] != seat:
            self.move(st["turn"], "pass")
            st = self.state()


def open_seat(page, game, seat):
    page.goto(game.link(seat))
    wait_ready(page)
    page.wait_for_selector(f"body[data-game='{game.id}'] #hand-panel:not([hidden]) .handcard")


def lead_d3_and_take_the_turn_back(page, game):
    """Seat 0 (this page) leads ♦3, the first card; the others pass until seat 0 may play again."""
    tap(page, "#hand .handcard[data-card='D3']")
    tap(page, "#act")
    page.wait_for_function("() => document.body.dataset.seq === '1'")
    game.pass_round_to(0)
    page.wait_for_selector("#hand-panel.myturn")


def assert_on_one_screen(page):
    g = page.evaluate("""() => {
      const box = (s) => { const b = document.querySelector(s).getBoundingClientRect();
                           return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
      return {w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth, bw: document.body.scrollWidth,
              hand: box('#hand'), act: box('#act'), felt: box('#felt'), top: box('header.top')}; }""")
    assert max(g["sw"], g["bw"]) <= g["w"], f"horizontal overflow: {g}"
    assert 0 <= g["hand"]["top"] < g["h"] - 40, f"the hand is not on the screen: {g}"
    assert g["act"]["top"] >= 0 and g["act"]["bottom"] <= g["h"] and g["act"]["right"] <= g["w"], f"Play is off screen: {g}"
    assert g["felt"]["top"] >= g["top"]["bottom"] - 1 and g["felt"]["bottom"] - g["felt"]["top"] >= 150, f"no room for the table: {g}"
    # the seats sit inside the table
    seats = page.evaluate("() => [...document.querySelectorAll('#felt .seat')].map(e => e.getBoundingClientRect())"
                          ".map(r => [r.left, r.right])")
    for b in seats:
        assert b[0] >= 0 and b[1] <= g["w"], f"a seat sticks out: {b} {g}"


def no_overflow(page):
    return page.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) <= innerWidth")


def log_text(page):
    if page.locator("#log-toggle").is_visible() and not page.locator("#side.open").count():
        tap(page, "#log-toggle")
    return page.inner_text("#log")


# ---------------------------------------------------------------- a whole deal, by clicking only
def test_a_nanko_deal_by_clicking_only_stays_on_one_screen(screen, live):
    page = screen
    page.goto("/")
    wait_ready(page)
    assert no_overflow(page)
    page.select_option("#preset", "nanko")
    page.fill("#seed", "7")
    for i, row in enumerate(page.locator(".seat-name").all()):
        row.fill(["you", *NAMES[1:]][i])
    if page.touch:  # on a phone the rules are folded: Create game is on the first screen, right under the seats
        box = page.locator("#create").bounding_box()
        assert box["y"] + box["height"] <= page.viewport_size["height"], box
        assert page.locator("#rules-box[open]").count() == 0
    tap(page, "#create")
    page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
    checked_after_20 = False
    deadline = time.monotonic() + 120
    while page.get_attribute("body", "data-phase") != "deal_over":
        assert time.monotonic() < deadline, "the deal did not end in time"
        seq = int(page.get_attribute("body", "data-seq"))
        if seq >= 20 and not checked_after_20:
            assert_on_one_screen(page)
            checked_after_20 = True
        if not page.locator("#hand-panel.myturn").count():
            time.sleep(0.1)
            continue
        assert_on_one_screen(page)
        options = page.locator("#options .option")
        if options.count():
            try:  # the bots' moves re-render the options: gone again means the turn moved on; look again
                tap(page, options.first, timeout=3000)
            except PlaywrightTimeout:
                continue
            if page.get_attribute("body", "data-seq") == str(seq):
                tap(page, "#act")
        elif page.locator("#pass:not([disabled])").count():
            try:  # as the options: disabled again means the turn moved on
                tap(page, "#pass", timeout=3000)
            except PlaywrightTimeout:
                continue
        else:
            time.sleep(0.1)
            continue
        page.wait_for_function("s => document.body.dataset.seq !== s || document.querySelector('#proposal-result.bad')",
                               arg=str(seq))
        assert turned_down(page, str(seq)) is None, page.inner_text("#proposal-result")
    assert checked_after_20
    # the result screen: places with titles, the coming exchange, the standings and a big Next deal on the screen
    page.wait_for_selector("#result-screen:not([hidden])")
    assert page.locator("#result-places tr").count() == 4
    assert "大富豪" in page.inner_text("#result-places")
    assert page.inner_text("#result-exchange").strip()
    page.wait_for_function("() => document.querySelectorAll('#result-standings tr').length === 5")
    box = page.locator("#result-next").bounding_box()
    vp = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= vp["height"] and box["x"] + box["width"] <= vp["width"]
    assert no_overflow(page)
    tap(page, "#result-next")
    page.wait_for_function("() => document.body.dataset.phase !== 'deal_over'")
    page.wait_for_selector("#result-screen", state="hidden")
    gid = re.search(r"game=([0-9a-f]+)", page.url).group(1)
    table = page.evaluate("() => JSON.parse(localStorage.getItem('daifugo.games'))")[gid]["table_token"]
    events = requests.get(f"{live.base}/v1/games/{gid}/events", headers={"Authorization": f"Bearer {table}"}).json()["events"]
    started = [e for e in events if e["type"] == "deal_started"][-1]
    if any(o["kind"] == "give" for o in started["outcome"]):  # the exchange the referee made by itself is shown
        page.wait_for_selector("#banner:has-text('The exchange')")
    # the log names the players and shows cards as symbols, never codes; in Japanese too
    text = log_text(page)
    assert any(n in text for n in NAMES[1:]), text
    assert not RAW_CODE.search(text), text
    if page.locator("#side.open").count():
        tap(page, "#log-toggle")
    tap(page, "#lang")
    page.wait_for_function("() => document.querySelector('#log').textContent.includes('第2回')")
    tap(page, "#lang")


# ---------------------------------------------------------------- events you see
def test_eight_cut_shows_its_banner_and_the_last_trick(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3", "H8", "C4"]}))
    open_seat(page, game, 0)
    assert_on_one_screen(page)
    tap(page, "#hand .handcard[data-card='H8']")
    tap(page, "#act")
    page.wait_for_selector("#banner:has-text('8切り')")
    for seat in (1, 2, 3):                         # nobody cuts back (切り返し): the cut resolves
        game.move(seat, "pass")
    # the flushed trick stays on the table for a moment, marked 流れ
    page.wait_for_selector("#felt .fieldcards.lasttrick .card[data-card='H8']")
    assert "流れ" in page.inner_text("#felt .field")
    assert "♥8" in log_text(page)
    # the replay step that flushed shows the trick too
    page.goto(game.link(0, "replay"))
    page.wait_for_selector("#rp-felt .seat")
    page.wait_for_function("() => document.querySelector('#rp-seq').textContent.startsWith('seq 4 ')")
    assert page.locator("#rp-felt .fieldcards.lasttrick .card[data-card='H8']").count() == 1
    assert no_overflow(page)


def test_the_cutter_leads_at_once_through_the_cut_back_window_its_selection_outliving_the_declines(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3", "H8", "C4"]}))
    open_seat(page, game, 0)
    tap(page, "#hand .handcard[data-card='H8']")
    tap(page, "#act")
    page.wait_for_selector("#banner:has-text('8切り')")
    st = game.state()
    assert [p["seat"] for p in st["pending"]] == [1, 2, 3] and st["turn"] == 0   # the window is open to all
    tap(page, "#hand .handcard[data-card='S3']")
    seq = game.move(1, "pass")["state"]["seq"]     # Ren declines to cut back while Aoi (this page) picks a lead
    page.wait_for_function("s => document.body.dataset.seq === s", arg=str(seq))
    assert page.locator("#hand .handcard.selected").count() == 1
    assert page.get_attribute("#hand .handcard[data-card='S3']", "aria-pressed") == "true"
    tap(page, "#act")
    page.wait_for_function("s => document.body.dataset.seq !== s || document.querySelector('#proposal-result.bad')", arg=str(seq))
    assert not page.locator("#proposal-result.bad").count(), page.inner_text("#proposal-result")
    st = game.state()
    assert st["pending"] == [] and st["field"]["cards"] == ["S3"] and st["turn"] == 1


def test_five_skip_and_seven_pass_say_who_is_skipped_and_what_was_received(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3", "S7", "S9", "H5"], 1: ["C3"]}))
    open_seat(page, game, 1)
    game.move(0, "play", ["S7"])
    game.move(0, "give", ["S9"])
    page.wait_for_selector("#banner:has-text('♠9')")
    assert "7渡し" in page.inner_text("#banner") and "Aoi" in page.inner_text("#banner")
    page.wait_for_selector("#hand .handcard.received[data-card='S9']")
    assert page.locator("#hand .handcard.received").count() == 1
    # every other seat passes; after the flush Aoi leads a 5: Ren (this page) is skipped
    game.pass_round_to(0)
    game.move(0, "play", ["H5"])
    page.wait_for_selector("#banner:has-text('5')")
    page.wait_for_function("() => /you are skipped|飛ばされ/.test(document.querySelector('#banner').textContent)")


def test_resurrection_takes_the_discard_its_option_names(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3", "D3", "S4", "H4", "C9"]}))  # nanko: ♠3 leads
    open_seat(page, game, 0)
    lead_d3_and_take_the_turn_back(page, game)
    tap(page, "#hand .handcard[data-card='S4']")
    tap(page, "#hand .handcard[data-card='H4']")
    tap(page, "#act")
    page.wait_for_function("() => /死者蘇生|resurrection/.test(document.querySelector('#due').textContent)")
    option = page.locator("#options .option")
    assert option.count() == 1 and "♦3" in option.first.inner_text()
    seq = page.get_attribute("body", "data-seq")
    tap(page, option.first)              # one click takes it: the card is in the discards, not the hand
    page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
    page.wait_for_selector("#hand .handcard[data-card='D3']")
    assert "D3" in game.state()["players"][0]["hand"]


def test_passes_are_marked_on_the_seats_until_the_flush(screen, live):
    page = screen
    game = Game(live, "uecda", deal({0: ["D3", "C4"], 1: ["H2"]}, jokers=1))
    open_seat(page, game, 0)
    st = game.state()
    assert st["turn"] == 0
    game.move(0, "play", ["C4"])
    st = game.state()
    passer = st["turn"]
    game.move(passer, "pass")
    page.wait_for_selector(f"#felt .seat[data-seat='{passer}'] .passmark")
    assert page.inner_text(f"#felt .seat[data-seat='{passer}'] .passmark") == "pass"
    tap(page, "#lang")
    page.wait_for_function(f"() => document.querySelector(\"#felt .seat[data-seat='{passer}'] .passmark\").textContent === 'パス'")
    tap(page, "#lang")


# ---------------------------------------------------------------- gekifugo declarations
def test_gekifugo_suggests_the_declarations_of_the_selected_cards(screen, live):
    page = screen
    game = Game(live, "gekifugo", deal({0: ["D3", "H8", "S5", "S7", "S9"]}))
    open_seat(page, game, 0)
    lead_d3_and_take_the_turn_back(page, game)
    # nothing selected: no suggestion, every declaration behind "more"
    assert page.locator("#declare label.suggested").count() == 0
    assert page.locator("#declare details.more").count() == 1
    tap(page, "#hand .handcard[data-card='H8']")
    suggested = page.locator("#declare label.suggested")
    suggested.first.wait_for()  # the suggestions come from the legal moves, which may still be on their way
    eight = page.locator("#declare label.suggested", has=page.locator("input[value='eight_cut']"))
    assert "8切り" in eight.inner_text() and eight.locator("input").is_checked()
    assert page.locator("#declare details.more input[value='eight_cut']").count() == 0
    assert page.locator("#declare details.more").count() == 1
    tap(page, "#act")
    page.wait_for_selector("#banner:has-text('8切り')")
    page.wait_for_function("() => document.querySelector('#hand-panel.myturn') && !document.querySelector('#hand .handcard[data-card=\"H8\"]')")
    # 跳び階段 without its declaration: rejected, and the page says what to do in words
    for card in ("S5", "S7", "S9"):
        tap(page, f"#hand .handcard[data-card='{card}']")
    skip = page.locator("#declare label.suggested input[value='skip_stairs']")
    skip.wait_for()
    assert skip.is_checked()
    tap(page, skip)
    assert not skip.is_checked()
    tap(page, "#act")
    page.wait_for_selector("#proposal-result.bad")
    text = page.inner_text("#proposal-result")
    assert "跳び階段" in text and "must be declared" in text and "['skip_stairs']" not in text, text


# ---------------------------------------------------------------- reopening a game
def test_a_saved_seat_link_reopens_the_game_as_the_seat(screen, live):
    page = screen
    # a game made on this page: its list entry reopens it as the human seat; the table link is separate and labelled
    page.goto("/")
    wait_ready(page)
    page.select_option("#preset", "uecda")
    tap(page, "#create")
    page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
    gid = re.search(r"game=([0-9a-f]+)", page.url).group(1)
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('daifugo.games'))")[gid]
    page.goto("/#new")
    page.wait_for_selector(f"#known-games li[data-game='{gid}']")
    row = page.locator(f"#known-games li[data-game='{gid}']")
    assert row.locator("a.seatlink").count() == 1  # the bots' seats are not offered
    assert "every hand" in row.locator("a.tablelink").inner_text()
    assert no_overflow(page)
    tap(page, row.locator("a.seatlink"))
    page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
    assert saved["seat_tokens"][0] in page.url and saved["table_token"] not in page.url
    assert page.locator("#entry-panel").is_hidden() and page.locator("#seat-switch-wrap").is_hidden()
    # a seat link opened once (a game made elsewhere) is saved and offered the same way
    game = Game(live, "uecda", deal({}, jokers=1))
    open_seat(page, game, 2)
    page.goto("/#new")
    page.wait_for_selector(f"#known-games li[data-game='{game.id}'] a.seatlink")
    tap(page, f"#known-games li[data-game='{game.id}'] a.seatlink")
    page.wait_for_selector("#hand-panel:not([hidden]) .handcard")
    assert game.data["seat_tokens"][2] in page.url
    assert "Mei" in page.inner_text("#hand-title")
    assert page.locator("#felt .seat[data-seat='0'] .minihand").count() == 0  # nobody else's cards


# ---------------------------------------------------------------- table mode
def test_table_mode_forms_follow_the_state(screen, live):
    page = screen
    r = requests.post(f"{live.base}/v1/games", json={"preset": "gekifugo", "table": True,
                                                     "players": [{"name": n} for n in NAMES]})
    assert r.status_code == 201, r.text
    g = r.json()
    page.goto(f"/#table&game={g['game_id']}&token={g['table_token']}")
    wait_ready(page)
    page.wait_for_selector("#entry-panel:not([hidden])")
    assert page.locator("#entry-declare input[type=checkbox]").count() >= 10  # declarations as checkboxes
    leader = g["state"]["turn"]
    before = page.locator(f"#entry-seat option[value='{leader}']").inner_text()
    page.fill("#entry-cards", "D3")
    tap(page, "#entry-submit")
    page.wait_for_selector("#entry-result.good")
    page.wait_for_function("() => document.body.dataset.seq === '1'")
    after = page.locator(f"#entry-seat option[value='{leader}']").inner_text()
    assert NAMES[leader] in after and after != before  # the card count moved on
    assert page.input_value("#entry-seat") == str(game_turn(live, g))
    # viewing as a seat whose hand the referee does not know: no enumerated options
    other = (leader + 1) % 4
    page.select_option("#seat-switch", str(other))
    page.wait_for_selector("#hand-panel:not([hidden])")
    assert page.locator("#options .option").count() == 0
    # a corrected hand is shown
    count = next(p["hand_count"] for p in game_state(live, g)["players"] if p["seat"] == 2)
    cards = [c for c in DECK if c != "D3"][-count:]
    page.select_option("#correct-seat", "2")
    page.fill("#correct-cards", " ".join(cards))
    tap(page, "#correct-submit")
    page.wait_for_selector("#correct-result.good")
    assert cardname(cards[0]) in page.inner_text("#correct-result")
    assert no_overflow(page)


def game_state(live, g):
    return requests.get(f"{live.base}/v1/games/{g['game_id']}", headers={"Authorization": f"Bearer {g['table_token']}"}).json()


def game_turn(live, g):
    return game_state(live, g)["turn"]


# ---------------------------------------------------------------- options, keyboard, offline
def test_options_sorted_by_strength_all_reachable_and_keyboard_play(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3", "H3", "D3", "C4", "H4", "S9", "H9", "JK1"]}))
    open_seat(page, game, 0)
    legal = requests.get(f"{live.base}/v1/games/{game.id}/legal-moves?seat=0",
                         headers={"Authorization": f"Bearer {game.table}"}).json()["moves"]
    plays = [m for m in legal if m["action"] != "pass"]
    assert len(plays) > 40  # more than the page used to show
    assert page.locator("#options .option").count() == len(plays)
    last = page.locator("#options .option").last
    last.scroll_into_view_if_needed()
    assert last.is_visible()
    labels = page.locator("#options .option").all_inner_texts()
    order = "3456789" + "1JQKA2"  # '1' for 10
    firsts = [min(order.index(c) for c in re.findall(r"[♠♥♦♣]([0-9JQKA])", label)) if re.search(r"[♠♥♦♣]", label) else 99
              for label in labels]
    assert firsts == sorted(firsts), labels
    # keyboard: arrows move between cards, Enter/Space pick a card up and put it back, Enter on Play plays
    page.locator("#hand .handcard").first.focus()
    page.keyboard.press("ArrowRight")
    second = page.locator("#hand .handcard").nth(1).get_attribute("data-card")
    page.keyboard.press("Enter")
    assert page.locator(f"#hand .handcard.selected[data-card='{second}']").count() == 1
    page.keyboard.press(" ")
    assert page.locator("#hand .handcard.selected").count() == 0
    page.keyboard.press("ArrowLeft")
    page.keyboard.press(" ")
    assert page.locator("#hand .handcard.selected[data-card='S3']").count() == 1
    page.locator("#act").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.seq === '1'")


def test_offline_banner_disables_actions_until_the_stream_is_back(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3"]}))
    open_seat(page, game, 0)
    page.wait_for_selector("#live.on")
    assert page.locator("#act:not([disabled])").count() == 1
    page.context.set_offline(True)
    page.wait_for_selector("#offline-banner:not([hidden])")
    assert page.locator("#act[disabled]").count() == 1 and page.locator("#options .option:not([disabled])").count() == 0
    assert_on_one_screen(page)
    page.context.set_offline(False)
    page.wait_for_selector("#offline-banner", state="hidden")
    page.wait_for_selector("#act:not([disabled])")


# ---------------------------------------------------------------- words, fonts, security
def test_rule_names_read_the_ruleset(screen, live):
    page = screen
    page.goto("/")
    wait_ready(page)
    page.select_option("#preset", "nanko")
    if not page.locator("#rules-box[open]").count():
        tap(page, "#rules-box > summary")
    row = page.locator("#rules .rule", has=page.locator("input[data-rule='first_card']"))
    assert "♠3" in row.inner_text() and "ダイヤ" not in row.inner_text()
    page.select_option("#preset", "uecda")
    assert "♦3" in row.inner_text()
    assert no_overflow(page)
    # in Japanese, the rules are described in Japanese too
    tap(page, "#lang")
    eight = page.locator("#rules .rule", has=page.locator("input[data-rule='eight_cut']"))
    page.wait_for_function("() => document.querySelector('#create').textContent === 'ゲームを作る'")
    assert "場が流れ" in eight.inner_text()
    tap(page, "#lang")
    for view in ("judge", "replay"):
        page.goto(f"/#{view}")
        assert no_overflow(page)


def test_the_page_sends_a_strict_content_security_policy(live):
    r = requests.get(f"{live.base}/")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "font-src 'self'" in csp and "unsafe-inline" not in csp
    html = r.text
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    assert not re.search(r"<style|\sstyle=", html), "an inline style"
    assert not re.search(r"\son[a-z]+=", html), "an inline event handler"


def test_verdict_messages_in_japanese_with_the_reason_codes_unchanged(live):
    game = Game(live, "gekifugo", deal({0: ["D3", "S5", "S7", "S9"]}))
    url = f"{live.base}/v1/games/{game.id}/moves"
    auth = {"Authorization": f"Bearer {game.table}"}
    wrong = {"seat": 1, "action": "pass"}
    en = requests.post(url, json=wrong, headers=auth).json()["verdict"]
    ja = requests.post(url + "?lang=ja", json=wrong, headers=auth).json()["verdict"]
    ja2 = requests.post(url, json=wrong, headers={**auth, "Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}).json()["verdict"]
    assert en["reason"] == ja["reason"] == ja2["reason"] == "not_your_turn"
    assert "turn" in en["message"] and "Aoi" in ja["message"] and "番" in ja["message"] and ja2["message"] == ja["message"]
    # the in-game what-if and the detached judge answer in Japanese too
    whatif = requests.post(f"{live.base}/v1/games/{game.id}/judge?lang=ja", json=wrong, headers=auth).json()["verdict"]
    detached = requests.post(f"{live.base}/v1/judge?lang=ja", json={"preset": "gekifugo", "state": game.state(), "move": wrong}).json()
    assert whatif["message"] == ja["message"] and detached["verdict"]["message"] == ja["message"], (whatif, detached)
    first = requests.post(url + "?lang=ja", json={"seat": 0, "action": "play", "cards": ["S5"]}, headers=auth).json()["verdict"]
    assert first["reason"] == "must_include_first_card" and "♦3" in first["message"]
    game.move(0, "play", ["D3"])
    game.pass_round_to(0)
    undeclared = requests.post(url + "?lang=ja", json={"seat": 0, "action": "play", "cards": ["S5", "S7", "S9"]},
                               headers=auth).json()["verdict"]
    assert undeclared["reason"] == "undeclared" and "跳び階段" in undeclared["message"] and "宣言" in undeclared["message"]


# every outcome the engine reports, in words (fed to the page's own event path, so each banner is shown on the table)
OUTCOMES = [
    ({"kind": "finish", "seat": 1, "place": 4, "rule": "forbidden_finish", "why": "eight"}, ["反則上がり", "Ren", "#4"]),
    ({"kind": "capital_fall", "seat": 2, "place": 4, "cards": ["D8", "SK"], "rule": "capital_fall"}, ["都落ち", "Mei"]),
    ({"kind": "gekokujo", "places": [4, 3, 2, 1], "rule": "gekokujo"}, ["下剋上"]),
    ({"kind": "give", "from": 1, "to": 0, "cards": ["S9"], "rule": "seven_pass"}, ["7渡し", "♠9", "Ren"]),
    ({"kind": "discard", "seat": 3, "cards": ["HT"], "rule": "ten_discard"}, ["10捨て", "Sora", "♥10"]),
    ({"kind": "take", "seat": 3, "cards": ["HA"], "rule": "resurrection"}, ["死者蘇生", "♥A"]),
    ({"kind": "cut_back", "seat": 2, "cards": ["JK1"], "rule": "cut_back"}, ["切り返し", "JOKER"]),
    ({"kind": "request", "seat": 2, "rank": "Q", "held": False, "count": 1, "rule": "exchange_request"}, ["カード要求", "Q"]),
    ({"kind": "abort", "rule": "pass_abort", "passes": 20}, ["連続パス打ち切り"]),
    ({"kind": "skip", "seats": [0]}, ["you are skipped"]),
]


def test_every_outcome_and_void_declaration_is_shown_in_words(screen, live):
    page = screen
    game = Game(live, "gekifugo", deal({0: ["D3"]}))
    open_seat(page, game, 0)
    seq = int(page.get_attribute("body", "data-seq"))
    for i, (outcome, words) in enumerate(OUTCOMES):
        ev = {"seq": seq + 100 + i, "type": "move", "move": {"seat": 1, "action": "play", "cards": ["H8"]},
              "verdict": {"legal": True, "effects": [], "void_declarations": ["eight_cut"] if i == 0 else []},
              "outcome": [{"kind": "play", "seat": 1, "cards": ["H8"], "shape": "single", "as": {}}, outcome]}
        # one event at a time through the page's own path (the queue emptied first, so each banner shows at once)
        page.evaluate("""ev => { S.banners = []; clearTimeout(S.bannerTimer); S.bannerTimer = null; ingest([ev]); }""", ev)
        if i == 0:
            page.wait_for_selector("#banner:has-text('void declaration: 8切り')")
            page.evaluate("() => { clearTimeout(S.bannerTimer); S.bannerTimer = null; pumpBanners(); }")
        page.wait_for_selector(f"#banner:has-text('{words[0]}')")
        text = page.inner_text("#banner")
        assert all(w in text for w in words), (outcome, text)
    log = log_text(page)
    assert not RAW_CODE.search(log) and "forbidden_finish" not in log and "capital_fall" not in log, log


def play_out(game):
    """Every seat plays its largest legal play (else passes, else makes its choice) until the deal is over."""
    auth = {"Authorization": f"Bearer {game.table}"}
    for _ in range(500):
        st = game.state()
        if st["phase"] == "deal_over":
            return st
        seat = st["pending"][0]["seat"] if st["pending"] else st["turn"]
        moves = requests.get(f"{game.live.base}/v1/games/{game.id}/legal-moves?seat={seat}", headers=auth).json()["moves"]
        plays = sorted((m for m in moves if m["action"] == "play"), key=lambda m: -len(m["cards"]))
        m = plays[0] if plays else next((m for m in moves if m["action"] == "pass"), moves[0])
        m = {k: v for k, v in m.items() if k not in ("rule", "choose")} | (
            {"cards": list(m.get("cards") or []) + m["choose"]["from"][:m["choose"]["min"]]} if "choose" in m else {})
        r = requests.post(f"{game.live.base}/v1/games/{game.id}/moves", json=m, headers=auth)
        assert r.status_code == 200, r.text
    raise AssertionError("the deal did not end")


def test_the_automatic_exchange_of_a_new_deal_is_shown(screen, live):
    page = screen
    game = Game(live, "nanko", deal({}))
    st = play_out(game)
    place = {p["place"]: p["seat"] for p in st["players"]}
    top, last = place[1], place[4]
    page.goto(game.link(top))
    page.wait_for_selector(f"body[data-game='{game.id}'][data-phase='deal_over']")
    # the next deal: the last player holds both jokers (its 2 strongest, no tie): the referee hands them over itself
    hands = deal({last: ["JK1", "JK2"], place[3]: ["S2"], top: [], place[2]: ["H2", "D2", "C2"]})
    r = requests.post(f"{live.base}/v1/games/{game.id}/deals", json={"hands": hands},
                      headers={"Authorization": f"Bearer {game.table}"})
    assert r.status_code == 201, r.text
    page.wait_for_selector("#banner:has-text('The exchange')")
    assert "you received JOKER JOKER" in page.inner_text("#banner")
    page.wait_for_selector("#hand .handcard.received[data-card='JK1']")
    assert page.locator("#hand .handcard.received").count() == 2


def test_a_revolution_shows_its_banner_and_resorts_the_hand(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3", "S4", "H4", "D4", "C4", "S5", "H5", "S6", "H6", "S7", "H7", "S9", "HA", "S2"]}))
    open_seat(page, game, 0)
    first = lambda: page.locator("#hand .handcard").first.get_attribute("data-card")  # noqa: E731
    assert first() == "S3"  # weakest first
    for card in ("S4", "H4", "D4", "C4"):
        tap(page, f"#hand .handcard[data-card='{card}']")
    tap(page, "#act")
    page.wait_for_selector("#banner:has-text('革命')")
    page.wait_for_function("() => document.querySelector('#hand .handcard').dataset.card === 'S2'")  # 2 is weakest now
    assert page.locator("#hand .handcard").last.get_attribute("data-card") == "S3"


def test_the_judge_explains_a_bad_state_without_python(screen, live):
    page = screen
    page.goto("/#judge")
    wait_ready(page)
    page.fill("#judge-move", '{"seat": 0, "action": "pass"}')
    for state in ('{"seq": 3}', '{"players": [{"seat": 0}], "turn": 0}'):
        page.fill("#judge-state", state)
        page.locator("#judge-result").evaluate("e => { e.textContent = ''; e.className = 'result big'; }")
        tap(page, "#judge-form button[type=submit]")
        page.wait_for_selector("#judge-result.bad")
        text = page.inner_text("#judge-result")
        assert "Hold the open game" in text and not re.search(r"\w+Error\b|Traceback|\('", text), text
    assert no_overflow(page)
