"""The table page at 1366×800 (mouse) and 390×844 (touch): rejections in words, highlights that tell the truth,
banners in step with the table, the result panel, the judge's words for bad JSON and the new-game form's seats."""
from __future__ import annotations

import json
import re

import requests

from .test_page import wait_ready
from .test_play_screen import RAW_CODE, Game, deal, lead_d3_and_take_the_turn_back, log_text, open_seat, play_out, tap

REASON_CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def rejection_text(page):
    page.wait_for_selector("#proposal-result.bad")
    return page.inner_text("#proposal-result")


def test_leading_says_play_only_and_highlights_what_plays_alone(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3"]}))
    open_seat(page, game, 0)
    page.wait_for_selector("#hand-panel.myturn")
    assert page.locator("#pass").is_disabled()
    due = page.inner_text("#due")
    assert "Your turn" in due and "you lead" in due and "pass" not in due.lower(), due
    # on a pair nothing plays alone: no card is marked playable; a pair that beats it is marked complete
    game = Game(live, "nanko", deal({3: ["S3", "S4", "H4"], 0: ["S6", "H6"]}))
    game.move(3, "play", ["S4", "H4"])
    open_seat(page, game, 0)
    page.wait_for_selector("#hand-panel.myturn")
    assert "Play or pass" in page.inner_text("#due") and not page.locator("#pass").is_disabled()
    assert page.locator("#hand .handcard.playable").count() == 0
    tap(page, "#hand .handcard[data-card='S6']")
    page.wait_for_selector("#hand .handcard.selected[data-card='S6']")
    assert page.locator("#hand .handcard.complete").count() == 0
    tap(page, "#hand .handcard[data-card='H6']")
    page.wait_for_selector("#hand .handcard.selected.complete[data-card='H6']")
    assert page.locator("#hand .handcard.complete").count() == 2

def test_a_rejected_play_is_said_in_words_and_the_selection_cleared(screen, live):
    page = screen
    game = Game(live, "nanko", deal({3: ["S3"], 0: ["H5", "D5", "HK"]}))
    game.move(3, "play", ["S3"])
    assert game.state()["turn"] == 0
    open_seat(page, game, 0)
    page.wait_for_selector("#hand-panel.myturn")
    due = page.inner_text("#due")
    assert "Play or pass" in due and not page.locator("#pass").is_disabled(), due
    for lang, words in (("en", "does not match the field's ♠3"), ("ja", "場の形と合いません")):
        if lang == "ja":
            tap(page, "#lang")
            page.wait_for_function("() => document.documentElement.lang === 'ja'")
        page.locator("#proposal-result").evaluate("e => { e.textContent = ''; e.className = 'result'; }")
        tap(page, "#hand .handcard[data-card='H5']")
        tap(page, "#hand .handcard[data-card='D5']")
        assert page.locator("#hand .handcard.selected").count() == 2
        assert page.locator("#hand .handcard.complete").count() == 0  # a pair is no play on a single
        tap(page, "#act")
        text = rejection_text(page)
        assert words in text and "♥5 ♦5" in text, text
        assert not RAW_CODE.search(text) and not REASON_CODE.search(text), text
        page.wait_for_function("() => !document.querySelector('#hand .handcard.selected')")
        log = log_text(page)
        assert "shape_mismatch" not in log and not RAW_CODE.search(log), log
    tap(page, "#lang")


def test_a_play_out_of_turn_in_the_judge_is_said_in_words(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3"], 2: ["H9"]}))
    page.goto("/#judge")
    wait_ready(page)
    page.select_option("#judge-preset", "nanko")
    page.fill("#judge-state", json.dumps(game.state()))
    page.fill("#judge-move", '{"seat": 2, "action": "play", "cards": ["H9"]}')
    tap(page, "#judge-form button[type=submit]")
    page.wait_for_selector("#judge-result.bad")
    text = page.inner_text("#judge-result")
    assert "rejected" in text and "Aoi's turn, not Mei's" in text, text
    assert not REASON_CODE.search(text) and not RAW_CODE.search(text), text


def test_the_judge_says_what_is_wrong_with_broken_json(screen, live):
    page = screen
    page.goto("/#judge")
    wait_ready(page)
    page.fill("#judge-move", '{"seat": 0, "action": "pass"}')
    for state, why in (('{"players": [', "ends before it is complete"), ('{players: 1}', "brackets, quotes and commas"),
                       ("", "it is empty")):
        page.fill("#judge-state", state)
        page.locator("#judge-result").evaluate("e => { e.textContent = ''; e.className = 'result big'; }")
        tap(page, "#judge-form button[type=submit]")
        page.wait_for_selector("#judge-result.bad")
        text = page.inner_text("#judge-result")
        assert "The state box is not valid JSON" in text and why in text, text
        assert "Unexpected" not in text and not text.startswith("JSON:"), text


def test_a_banner_is_gone_once_the_table_is_two_plays_further(screen, live):
    page = screen
    game = Game(live, "nanko", deal({0: ["S3", "H8", "C4"], 1: ["HK"]}))
    open_seat(page, game, 1)
    game.move(0, "play", ["H8"])
    page.wait_for_selector("#banner:has-text('8切り')")
    cut = int(page.get_attribute("#banner", "data-seq"))
    for seat in (1, 2, 3):       # nobody cuts back: the cutter leads again
        game.move(seat, "pass")
    game.move(0, "play", ["C4"])
    game.move(1, "play", ["HK"])
    last = game.state()["seq"]
    page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=last)
    shown = page.evaluate("""() => ({hidden: document.querySelector('#banner').hidden,
                                     seq: document.querySelector('#banner').dataset.seq,
                                     queued: S.banners.map((b) => b.seq)})""")
    assert (shown["hidden"] or int(shown["seq"]) > cut) and all(q > cut for q in shown["queued"]), shown
    assert "8切り" in log_text(page)  # the log keeps the cut


def test_the_result_panel_is_opaque_in_plain_words_and_back_on_reopening(screen, live):
    page = screen
    game = Game(live, "nanko", deal({}))
    open_seat(page, game, 0)
    play_out(game)
    page.wait_for_selector("#result-screen:not([hidden])")
    alpha = page.evaluate("""() => { const c = getComputedStyle(document.querySelector('#result-screen')).backgroundColor;
                                     const m = c.match(/rgba?\\(([^)]*)\\)/)[1].split(',');
                                     return m.length === 4 ? Number(m[3]) : 1; }""")
    assert alpha == 1
    text = page.inner_text("#result-screen")
    assert "you (you)" not in text and "Aoi (you)" in text, text
    exchange = page.inner_text("#result-exchange")
    assert re.search(r"gives back \d cards? to (you|Aoi|Ren|Mei|Sora)", exchange), exchange
    assert not re.search(r"\byou (gives|discards|takes)\b", exchange), exchange
    # the same game's link opened again: the result, not only a Next deal button
    page.goto("/")
    wait_ready(page)
    page.goto(game.link(0))
    page.wait_for_selector(f"body[data-game='{game.id}'][data-phase='deal_over']")
    page.wait_for_selector("#result-screen:not([hidden])")
    assert "Aoi (you)" in page.inner_text("#result-places")


def test_new_games_default_to_the_strongest_bot_and_table_mode_seats_are_people(screen, live):
    page = screen
    page.goto("/")
    wait_ready(page)
    kinds = page.locator(".seat-kind")
    bots = requests.get(f"{live.base}/web/config.json").json()["bots"]
    assert "policy_mc" in bots
    assert [kinds.nth(i).input_value() for i in range(4)] == ["", "policy_mc", "policy_mc", "policy_mc"]
    tap(page, "#table-mode")
    page.wait_for_selector("#leader-wrap:not([hidden])")
    assert all(not k.is_visible() for k in kinds.all())
    names = [n.input_value() for n in page.locator(".seat-name").all()]
    assert names == ["Player 1", "Player 2", "Player 3", "Player 4"], names
    tap(page, "#table-mode")
    assert [n.input_value() for n in page.locator(".seat-name").all()] == ["you", "bot1", "bot2", "bot3"]
    assert all(k.is_visible() for k in kinds.all())


def test_declarations_are_glossed_in_english(screen, live):
    page = screen
    game = Game(live, "gekifugo", deal({0: ["D3", "H8"]}))
    open_seat(page, game, 0)
    lead_d3_and_take_the_turn_back(page, game)
    tap(page, "#hand .handcard[data-card='H8']")
    eight = page.locator("#declare label.suggested", has=page.locator("input[value='eight_cut']"))
    eight.wait_for()
    assert "8切り — eight cut" in eight.inner_text()
    more = page.locator("#declare details.more label").all_text_contents()  # folded: read, not seen
    assert any("付け革 — attach revolution" in x for x in more), more
    tap(page, "#lang")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    eight = page.locator("#declare label.suggested", has=page.locator("input[value='eight_cut']"))
    eight.wait_for()
    assert "—" not in eight.inner_text()
    tap(page, "#lang")


def test_one_play_with_many_moments_is_one_banner(screen, live):
    page = screen
    game = Game(live, "gekifugo", deal({0: ["D3"]}))
    open_seat(page, game, 0)
    seq = int(page.get_attribute("body", "data-seq"))
    ev = {"seq": seq + 100, "type": "move", "move": {"seat": 1, "action": "play", "cards": ["H8"]},
          "verdict": {"legal": True, "effects": ["eight_cut", "suit_lock", "revolution"], "void_declarations": ["five_skip"]},
          "outcome": [{"kind": "play", "seat": 1, "cards": ["H8"], "shape": "single", "as": {}}]}
    page.evaluate("ev => ingest([ev])", ev)   # through the page's own event path
    page.wait_for_selector("#banner:has-text('8切り')")
    text = page.inner_text("#banner")
    assert all(w in text for w in ("縛り", "革命", "void declaration: 5とばし", "♥8")), text
    assert page.evaluate("() => S.banners.length") == 0


def test_a_partial_lock_is_named_not_coded(screen, live):
    page = screen
    game = Game(live, "gekifugo", deal({0: ["D3", "S3"], 1: ["S4", "H4"]}))
    game.move(0, "play", ["D3", "S3"])
    game.move(1, "play", ["S4", "H4"], declare=["partial_suit_lock"])
    assert game.state()["locks"]["kind"] == "partial"
    open_seat(page, game, 2)
    felt = page.inner_text("#felt")
    # the rule's name, glossed in English: never the engine's "partial"
    assert "片縛り (partial suit lock)" in felt and "partial" not in felt.replace("partial suit lock", ""), felt


def test_a_color_lock_is_shown_from_its_slots_words_in_both_languages(screen, live):
    # color_lock's chip and status line come from its slot's declared words (GET /v1/rules), no page code of its own
    page = screen
    game = Game(live, "nanko", deal({0: ["S3"], 1: ["C6"]}), rules={"color_lock": True})
    game.move(0, "play", ["S3"])
    game.move(1, "play", ["C6"])
    assert game.state()["locks"]["color"] == "black"
    open_seat(page, game, 2)
    chip = page.locator("#felt .chip.lock")
    assert chip.inner_text() == "lock: black ♠♣"
    assert "black ♠♣" in page.inner_text("#status")
    tap(page, "#lang")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert chip.inner_text() == "縛り：黒 ♠♣"
    assert "黒 ♠♣" in page.inner_text("#status")
    tap(page, "#lang")
