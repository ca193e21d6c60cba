"""The table as a card table, at 1366×800 (mouse) and 390×844 (touch): a log that never rewrites a rejection, cards
drawn as cards that fly from the hand to the field (and keep still for those who ask for reduced motion), who is
who at a glance, "Create game" on the first screen and legal options that fit the window."""
from __future__ import annotations

import pytest
import requests

from .conftest import SCREENS, _watched_page
from .test_page import wait_ready
from .test_play_screen import Game, deal, open_seat, tap


def moves_on(game, count):
    """``count`` moves by whoever is due (its weakest play, else a pass, else its choice), over the API."""
    auth = {"Authorization": f"Bearer {game.table}"}
    for _ in range(count):
        st = game.state()
        seat = st["pending"][0]["seat"] if st["pending"] else st["turn"]
        legal = requests.get(f"{game.live.base}/v1/games/{game.id}/legal-moves?seat={seat}", headers=auth).json()["moves"]
        plays = [m for m in legal if m["action"] == "play"]
        m = plays[0] if plays else next((m for m in legal if m["action"] == "pass"), legal[0])
        m = {k: v for k, v in m.items() if k not in ("rule", "choose")} | (
            {"cards": list(m.get("cards") or []) + m["choose"]["from"][:m["choose"]["min"]]} if "choose" in m else {})
        r = requests.post(f"{game.live.base}/v1/games/{game.id}/moves", json=m, headers=auth)
        assert r.status_code == 200, r.text
    return game.state()["seq"]


def rejected_line(page):
    return page.locator("#log li.rejected").first.text_content().strip()


# ---------------------------------------------------------------- a log that records what was said
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_rejections_log_line_is_unchanged_ten_plays_later(screen, live, lang):
    page = screen
    page.add_init_script(f"localStorage.setItem('daifugo.lang', '{lang}')")
    game = Game(live, "nanko", deal({3: ["S3"], 0: ["H5", "D5"]}))
    game.move(3, "play", ["S3"])
    open_seat(page, game, 0)
    page.wait_for_selector("#hand-panel.myturn")
    tap(page, "#hand .handcard[data-card='H5']")
    tap(page, "#hand .handcard[data-card='D5']")
    tap(page, "#act")
    page.wait_for_selector("#log li.rejected", state="attached")
    said = rejected_line(page)
    words = "does not match the field's ♠3" if lang == "en" else "場の形と合いません（場：♠3）"
    assert "♥5 ♦5" in said and words in said, said
    last = moves_on(game, 10)
    page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=last)
    assert game.state()["field"] != {"cards": ["S3"]}
    assert rejected_line(page) == said
    # the table device reads the rejection from the audit (include_rejected): worded against the table it was judged on
    page.goto(f"/#table&game={game.id}&token={game.table}")
    wait_ready(page)
    page.wait_for_selector("#entry-panel:not([hidden])")  # the table token's view: its own log, read again
    page.wait_for_selector("#log li.rejected", state="attached")
    assert rejected_line(page) == said.replace("you" if lang == "en" else "あなた", "Aoi", 1)


# ---------------------------------------------------------------- the new-game form
def test_create_game_is_in_view_on_load_with_the_rules_folded(screen, live):
    page = screen
    page.goto("/")
    wait_ready(page)
    box = page.locator("#create").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"], box
    assert page.locator("#rules-box[open]").count() == 0
    rules = requests.get(f"{live.base}/v1/rules").json()["rules"]
    on = sum(1 for r in rules if "nanko" in r["presets"])
    assert f"nanko: {on} of {len(rules)} rules on" in page.inner_text("#rules-box > summary")
    assert page.evaluate("() => document.querySelector('main').scrollTop") == 0


# ---------------------------------------------------------------- cards, seats, options
def test_cards_are_drawn_as_cards_and_the_seats_say_who_is_who(screen, live):
    page = screen
    r = requests.post(f"{live.base}/v1/games", json={"preset": "nanko", "hands": deal({0: ["S3", "HQ", "JK1"]}), "players": [
        {"name": "Aoi"}, {"name": "Ren", "bot": "random"}, {"name": "Mei", "bot": "greedy"}, {"name": "Sora", "bot": "random"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    seats = f"{live.base}/web/games/{g['game_id']}/seats"  # who sits where, for any token of the game only
    assert requests.get(seats).status_code == 401
    assert requests.get(seats, headers={"Authorization": f"Bearer {g['seat_tokens'][0]}"}).json()["seats"] == [
        {"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    page.goto(f"/#table&game={g['game_id']}&token={g['seat_tokens'][0]}")
    wait_ready(page)
    page.wait_for_selector("#hand-panel.myturn .handcard")
    card = page.locator("#hand .handcard[data-card='HQ']")
    assert card.locator(".idx.tl").inner_text().split() == ["Q", "♥"] and card.locator(".idx.br").count() == 1
    assert card.locator(".pip.face").count() == 1 and "red" in card.get_attribute("class")
    assert page.locator("#hand .handcard[data-card='S3'] .pip").inner_text() == "♠"
    assert "JOKER" in page.locator("#hand .handcard[data-card='JK1']").inner_text()
    width = card.bounding_box()["width"]
    assert width >= (44 if page.touch else 52), width  # a thumb's width on a phone
    kinds = [page.inner_text(f"#felt .seat[data-seat='{s}'] .kind") for s in range(4)]
    assert kinds == ["human", "bot · random", "bot · greedy", "bot · random"], kinds
    me = page.locator("#felt .seat[data-seat='0']")
    assert "acting" in me.get_attribute("class") and me.locator(".turnmark").inner_text() == "▶ to play"
    # the developer's fields wait in the folded Details panel
    assert "seq" not in page.text_content("#status") and "Phase" not in page.text_content("#status")
    assert "seq" in page.text_content("#side .devbox") and "Phase" in page.text_content("#side .devbox")
    tap(page, "#hand .handcard[data-card='S3']")
    tap(page, "#act")
    # the bots play on: at every moment the seats to act are ringed and marked, the field's player marked too
    page.wait_for_function("""() => {
      const st = S.state, f = st.field && st.field.cards.length ? st.field.seat : null;
      const seats = [...document.querySelectorAll('#felt .seat')];
      return st.seq >= 1 && seats.length === 4 && seats.every((el) => {
        const s = Number(el.dataset.seat), acting = st.actors.includes(s);
        return acting === el.classList.contains('acting') && acting === !!el.querySelector('.turnmark') &&
          (f === s) === el.classList.contains('lastplay') && (f === s && !acting) === !!el.querySelector('.lastmark');
      }) && seats.some((el) => el.querySelector('.lastmark, .turnmark'));
    }""")
    tap(page, "#lang")
    page.wait_for_function("() => document.querySelector(\"#felt .seat[data-seat='1'] .kind\").textContent === 'ボット・random'")
    assert page.inner_text("#felt .seat[data-seat='0'] .kind") == "人間"
    tap(page, "#lang")


def test_the_legal_options_fit_the_window(screen, live):
    page = screen
    game = Game(live, "gekifugo", deal({0: ["D3", "S4", "S5", "S6", "S7", "S8", "S9", "ST", "H4", "H5", "H6", "D4", "C4", "JK1"]}))
    open_seat(page, game, 0)
    page.wait_for_selector("#hand-panel.myturn #options .option")
    g = page.evaluate("""() => { const o = document.querySelector('#options'); const b = o.getBoundingClientRect();
      const p = document.querySelector('#hand-panel').getBoundingClientRect();
      return {top: b.top, bottom: b.bottom, right: b.right, h: innerHeight, w: innerWidth, panel: p.bottom,
              scrolls: o.scrollHeight > o.clientHeight, n: o.querySelectorAll('.option').length}; }""")
    assert g["n"] > 20 and g["scrolls"], g  # many options: a list that scrolls in its own box
    assert 0 <= g["top"] and g["bottom"] <= g["h"] and g["right"] <= g["w"] and g["panel"] <= g["h"], g
    last = page.locator("#options .option").last
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert box["y"] + box["height"] <= g["h"] and box["y"] >= g["top"] - 1, box
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0


# ---------------------------------------------------------------- a card play moves
# the first moment of the field's new cards: their animations and where they are, against where they come to rest
WATCH_FIELD = """() => { window.fieldSeen = null; new Promise((done) => {
  const field = document.querySelector('#field');
  new MutationObserver((_, obs) => {
    const box = field.querySelector('.fieldcards');
    if (!box) return;
    obs.disconnect();
    const card = box.querySelector('.card');
    const first = card.getBoundingClientRect();
    const anims = card.getAnimations();
    Promise.all(anims.map((a) => a.finished)).then(() => {
      const rest = card.getBoundingClientRect();
      done({anims: anims.length, flight: box.dataset.flight || null, moved: Math.hypot(first.left - rest.left, first.top - rest.top)});
    });
  }).observe(field, {childList: true, subtree: true});
}).then((seen) => { window.fieldSeen = seen; }); }"""


@pytest.mark.parametrize("screen_name", list(SCREENS))
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_card_play_moves_from_the_hand_to_the_field(browser, live, screen_name, motion):
    for page in _watched_page(browser, live, reduced_motion=motion, **SCREENS[screen_name]):
        game = Game(live, "nanko", deal({0: ["S3"]}))
        open_seat(page, game, 0)
        page.wait_for_selector("#hand-panel.myturn")
        page.evaluate(WATCH_FIELD)
        tap(page, "#hand .handcard[data-card='S3']")
        tap(page, "#act")
        seen = page.wait_for_function("() => window.fieldSeen").json_value()
        if motion == "reduce":
            assert seen == {"anims": 0, "flight": "none", "moved": 0}, seen
        else:
            assert seen["anims"] == 1 and seen["flight"] == "hand" and seen["moved"] > 40, seen
        # another seat's play comes in from its seat
        st = game.state()
        plain = next(c for c in st["players"][st["turn"]]["hand"] if c[1] in "46QK")  # a play that sets nothing off
        page.evaluate(WATCH_FIELD)
        game.move(st["turn"], "play", [plain])
        seen = page.wait_for_function("() => window.fieldSeen").json_value()
        assert seen["flight"] == ("none" if motion == "reduce" else "seat"), seen


# ---------------------------------------------------------------- grammar
def test_the_page_speaks_grammatically(screen, live):
    page = screen
    # a decision owed: "give 1 card", never "1 card(s)"
    game = Game(live, "nanko", deal({0: ["S3", "S7", "S9", "C4"], 3: ["JK1"]}))
    game.move(0, "play", ["S7"])
    open_seat(page, game, 0)
    page.wait_for_selector("#hand-panel.myturn")
    due = page.inner_text("#due")
    assert "give 1 card to Ren" in due and "(s)" not in due, due
    tap(page, "#options .option >> nth=0")
    tap(page, "#act")
    page.wait_for_function("() => document.body.dataset.seq === '2'")
    # nothing beats a joker: "pass", not "Play or pass"; and when the page passes, "you pass"
    game.pass_round_to(3)
    game.move(3, "play", ["JK1"])
    page.wait_for_selector("#hand-panel.myturn")
    page.wait_for_function("() => /nothing beats the field: pass/.test(document.querySelector('#due').textContent)")
    assert "Play or pass" not in page.inner_text("#due")
    seq = page.get_attribute("body", "data-seq")
    tap(page, "#pass")
    page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
    log = page.text_content("#log")
    assert "you pass" in log and "you passes" not in log, log


def test_a_missing_declaration_is_explained_in_japanese_without_a_question_mark(screen, live):
    page = screen
    page.add_init_script("localStorage.setItem('daifugo.lang', 'ja')")
    game = Game(live, "gekifugo", deal({0: ["D3", "S5", "S7", "S9"]}))
    game.move(0, "play", ["D3"])
    game.pass_round_to(0)
    open_seat(page, game, 0)
    page.wait_for_selector("#hand-panel.myturn")
    for card in ("S5", "S7", "S9"):
        tap(page, f"#hand .handcard[data-card='{card}']")
    skip = page.locator("#declare label.suggested input[value='skip_stairs']")
    skip.wait_for()
    tap(page, skip)
    tap(page, "#act")
    page.wait_for_selector("#proposal-result.bad")
    for text in (page.inner_text("#proposal-result"), page.text_content("#log li.rejected")):
        assert "跳び階段" in text and "宣言" in text and "?" not in text and "？" not in text, text
