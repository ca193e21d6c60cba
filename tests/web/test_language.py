"""Every word of the page in both languages.

- Every i18n key has an entry in English and in Japanese, none empty or a bare "?"; every rule and effect id of the
  catalogue (GET /v1/rules), every title and every reason code has its words in both.
- Read in a real Chromium, the page in one language holds no text of the other (names and glossed rule names
  aside): the new-game form with its rules, a table with a due decision, banners, a rejection and passes in the
  log, the result of a deal, the judge, the Bots view and the replay; at 1366×800 and 390×844.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import requests

from api.i18n import REASONS_JA
from referee.presets import TITLES
from referee.state_fields import titles

from .test_page import wait_ready
from .test_play_screen import NAMES, Game, deal, open_seat, play_out, tap

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef々〜・「」（）：、。]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]+")
# what may stay Latin on the Japanese page: card names as printed, formats and the API's own words
LATIN_OK = {"JOKER", "JK", "JSON", "UECda", "ID", "HTTP", "POST", "v1", "bots", "true", "false", "declare"}
ROOT = Path(__file__).resolve().parents[2]


def engine_reasons() -> set[str]:
    """Every reason code a rejection in the engine's sources gives (``Rejection("code", …)``, ``reject("code", …)``)."""
    found: set[str] = set()
    for path in (ROOT / "referee").rglob("*.py"):
        found |= set(re.findall(r'\b(?:Rejection|reject)\(\s*"([a-z0-9_]+)"', path.read_text()))
    return found


# reasons the engine gives beyond those the API words in Japanese (api/i18n.py)
MORE_REASONS = engine_reasons() - set(REASONS_JA)
UNCHECKED = {"not_in_hand", "strongest_cards", "rank_not_held", "first_card_holder"}


def test_every_reason_the_engine_gives_has_the_pages_words_in_both_languages():
    """A rule that rejects with a reason code of its own needs the page's words for it (i18n.js ``why_<code>``), in
    English and in Japanese; read from the sources, so no browser is needed."""
    text = (ROOT / "api" / "static" / "i18n.js").read_text()
    en, ja = text.split("\n  ja: {", 1)
    reasons = engine_reasons()
    assert {"locked", "not_allowed", "withheld"} <= reasons
    for code in sorted(reasons | set(REASONS_JA)):
        for lang, words in (("en", en), ("ja", ja)):
            assert re.search(rf"\bwhy_{code}: \"", words), f"no {lang} words for the reason {code} (why_{code})"


def test_every_key_rule_effect_title_and_reason_is_worded_in_both_languages(page, live):
    page.goto("/")
    wait_ready(page)
    catalog = requests.get(f"{live.base}/v1/rules").json()
    all_titles = sorted({t for preset in catalog["presets"] for n in range(2, 9) for t in titles(n, TITLES.get(preset))})
    problems = page.evaluate("""([reasons, unchecked, allTitles]) => {
      const out = [];
      const bad = (s) => typeof s !== "string" || !s.trim() || /(^|[\\s「（(:：=,、])[?？]/.test(s) || s.trim() === "?";
      const keys = new Set([...Object.keys(I18N.en), ...Object.keys(I18N.ja)]);
      for (const k of keys) for (const lang of ["en", "ja"]) if (bad(I18N[lang][k])) out.push(`${lang}.${k}: ${JSON.stringify(I18N[lang][k])}`);
      // every template said with its fields filled: no field left over, no "undefined"
      const vars = new Proxy({}, { get: (_, name) => (typeof name === "string" ? "X" : undefined) });
      const saved = S.lang;
      for (const lang of ["en", "ja"]) {
        S.lang = lang;
        for (const k of keys) { const s = t(k, vars); if (/[{}]|undefined|null|NaN/.test(s)) out.push(`${lang}.${k} said: ${s}`); }
        const cjk = /[\\u3040-\\u30ff\\u4e00-\\u9fff]/;
        for (const r of S.catalog.rules.map((x) => x.id).concat(["counter_revolution"])) {
          const word = ruleWord(r), decl = declLabel(r);
          if (word === r || bad(word) || !cjk.test(word)) out.push(`${lang} rule ${r}: ${word}`);
          if (lang === "en" && !/\\([^()]*[a-z][^()]*\\)$/.test(word)) out.push(`en rule ${r} is not glossed: ${word}`);
          if (lang === "en" && !/ — [a-zA-Z]/.test(decl)) out.push(`en declaration ${r} is not glossed: ${decl}`);
          if (lang === "ja" && /[a-z]{2,}/.test(word + decl)) out.push(`ja rule ${r}: ${word} / ${decl}`);
        }
        for (const r of S.catalog.rules) {
          const d = ruleDesc(r);
          if (bad(d) || (lang === "ja" && !cjk.test(d))) out.push(`${lang} description of ${r.id}: ${d}`);
        }
        for (const title of allTitles) {
          const w = titleWord(title);
          if (bad(w) || (lang === "en" && !/\\([a-z ]+\\)$/.test(w)) || (lang === "ja" && w !== title)) out.push(`${lang} title ${title}: ${w}`);
        }
        for (const reason of reasons) {
          if (!I18N[lang][`why_${reason}`]) out.push(`${lang}: no words for the reason ${reason}`);
          const said = reasonWords({ legal: false, reason, rule: "suit_lock", message: "" }, { seat: 1, action: "play", cards: ["S5"] },
                                   { players: [{ name: "Aoi" }, { name: "Ren" }], turn: 0, field: null, rules: {} });
          if (bad(said) || said === reason || /[a-z]+_[a-z]+/.test(said)) out.push(`${lang} reason ${reason} said: ${said}`);
        }
        for (const u of unchecked) if (!I18N[lang][`unchecked_${u}`]) out.push(`${lang}: no words for unchecked ${u}`);
      }
      S.lang = saved;
      return out;
    }""", [sorted(set(REASONS_JA) | MORE_REASONS), sorted(UNCHECKED), all_titles])
    assert not problems, "\n".join(problems)


def test_every_lock_of_the_catalogue_is_worded_in_both_languages(page, live):
    """Each lock slot (GET /v1/rules, ``lock: true``) set alone, as the page's chips and status line say it: words
    in the page's language, none left as a template, Japanese without English (glossed rule names aside)."""
    page.goto("/")
    wait_ready(page)
    said = page.evaluate("""() => {
      const out = [];
      const saved = S.lang;
      for (const lang of ["en", "ja"]) {
        S.lang = lang;
        for (const r of S.catalog.rules) for (const slot of r.slots.filter((s) => s.lock)) {
          const en = slot.words.en;
          // a value of each kind the words are for: each worded value, else suits, else a plain true
          const values = typeof en === "object" ? Object.keys(en) : [en.includes("{suits}") ? ["S", "H"] : true];
          for (const value of values) {
            const st = {};
            slot.key.split(".").reduce((o, k, i, ks) => (o[k] = i === ks.length - 1 ? value : {}), st);
            out.push([lang, slot.key, String(value), lockParts(st).join(" | ")]);
          }
        }
      }
      S.lang = saved;
      return out;
    }""")
    assert {key for _, key, _, _ in said} >= {"locks.suits", "locks.kind", "locks.rank", "locks.color"}
    for lang, key, value, words in said:
        assert words and not re.search(r"[{}]|undefined|null", words), (lang, key, value, words)
        if lang == "ja":
            assert CJK.search(words) and not re.search(r"[A-Za-z]{2,}", words), (lang, key, value, words)
    assert ["en", "locks.kind", "partial", "片縛り (partial suit lock)"] in said
    assert ["ja", "locks.suits", "S,H", "マーク ♠♥"] in said


# ---------------------------------------------------------------- the page read in one language
READ_TEXT = """() => {
  // the text a reader sees: visible text nodes and the choices of visible selects; a name, an id or a card
  // (translate="no", <code>) is not a word of either language
  const out = [];
  const skip = (el) => el.closest('[translate="no"], code, script, style, [hidden]');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || skip(el) || el.tagName === "OPTION" || !el.checkVisibility()) continue;
    out.push(n.textContent.trim());
  }
  for (const sel of document.querySelectorAll("select")) {
    if (skip(sel) || !sel.checkVisibility()) continue;
    for (const o of sel.options) out.push(o.textContent.trim());
  }
  for (const el of document.querySelectorAll("input[placeholder], textarea[placeholder]")) {
    if (!skip(el) && el.checkVisibility() && !/[{"#]/.test(el.placeholder)) out.push(el.placeholder);
  }
  return out.join("\\n");
}"""

# English mode: the Japanese the page may show, each glossed (rule names, titles, the page's own glossed terms)
GLOSSED = """() => {
  const out = new Set();
  const contexts = [S.state, S.replay && S.replay.state, { rules: presetRules() }, undefined].filter((x) => x !== null);
  for (const st of contexts) for (const r of S.catalog.rules.map((x) => x.id).concat(["counter_revolution"])) {
    out.add(ruleWord(r, st)); out.add(declLabel(r, st));
  }
  for (const title of Object.keys(TITLE_GLOSS_EN)) out.add(titleWord(title));
  // the page's own glossed terms ("革命 (revolution)"): a Japanese word with its English in brackets, nothing else
  const glossed = /^[^(){}]*[\\u3040-\\u30ff\\u4e00-\\u9fff][^(){}]* \\([^()]*[a-z][^()]*\\)$/;
  for (const v of Object.values(I18N.en)) if (glossed.test(v)) out.add(v);
  return [...out].sort((a, b) => b.length - a.length);
}"""


def foreign_words(page, lang, allowed_latin):
    """The words of the other language on the page as it stands, with a little context each."""
    text = page.evaluate(READ_TEXT)
    text = re.sub(r"(?<![A-Za-z])(?:%s)(?![A-Za-z])" % "|".join(NAMES), " ", text)
    if lang == "en":
        for term in page.evaluate(GLOSSED):
            text = text.replace(term, " ")
        text = re.sub(r"\([\u3040-\u30ff\u4e00-\u9fff]+\)", " ", text)  # an English sentence's own gloss: "(コンボ)"
        hits = [m.start() for m in CJK.finditer(text)]
    else:
        hits = [m.start() for m in LATIN_WORD.finditer(text) if m.group() not in allowed_latin]
    return [text[max(0, i - 25):i + 25].replace("\n", " / ") for i in hits[:8]]


def check(page, lang, where, allowed_latin):
    bad = foreign_words(page, lang, allowed_latin)
    assert not bad, f"{lang} page, {where}: words of the other language: {bad}"
    text = page.evaluate(READ_TEXT)
    assert not re.search(r"(^|[\s「（(:：=,、])[?？](?!\w)", text), f"{lang} page, {where}: a bare '?': {text}"
    assert not re.search(r"\{\w+\}|undefined|NaN", text), f"{lang} page, {where}: a template left unfilled: {text}"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_reads_in_one_language(screen, live, lang):
    page = screen
    catalog = requests.get(f"{live.base}/v1/rules").json()
    bots = requests.get(f"{live.base}/web/config.json").json()["bots"]
    allowed = (LATIN_OK | set(catalog["presets"]) | set(bots) | {r["id"] for r in catalog["rules"]}
               | {k for r in catalog["rules"] for k in (r.get("params") or {})}
               | {str(c) for r in catalog["rules"] for p in (r.get("params") or {}).values() for c in p.get("choices") or []})
    page.add_init_script(f"localStorage.setItem('daifugo.lang', '{lang}')")
    # the new-game form, its rules unfolded
    page.goto("/")
    wait_ready(page)
    tap(page, "#rules-box > summary")
    page.wait_for_selector("#rules .rule")
    check(page, lang, "the new-game form", allowed)
    # a table: a decision owed (7渡し), a give, passes, a rejected play in the log
    game = Game(live, "nanko", deal({0: ["S3", "S7", "S9", "C4", "H5", "D5"], 1: ["HK"]}))
    game.move(0, "play", ["S7"])
    open_seat(page, game, 0)
    page.wait_for_selector("#hand-panel.myturn")
    check(page, lang, "a give owed", allowed)
    game.move(0, "give", ["S9"])
    game.pass_round_to(0)
    game.move(0, "play", ["C4"])
    game.move(1, "play", ["HK"])
    game.pass_round_to(0)
    page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=game.state()["seq"])
    page.wait_for_selector("#hand-panel.myturn")
    tap(page, "#hand .handcard[data-card='H5']")
    tap(page, "#hand .handcard[data-card='D5']")
    tap(page, "#act")
    page.wait_for_selector("#proposal-result.bad")
    seq = page.get_attribute("body", "data-seq")
    tap(page, "#pass")
    page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
    if page.locator("#log-toggle").is_visible():
        tap(page, "#log-toggle")
    page.locator(".devbox").first.evaluate("e => { e.open = true; }")
    check(page, lang, "the table and its log", allowed)
    # the result of the deal
    play_out(game)
    page.wait_for_selector("#result-screen:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#result-standings tr').length > 1")
    check(page, lang, "the result of a deal", allowed)
    # the judge, with a verdict
    page.goto("/#judge")
    page.select_option("#judge-preset", "nanko")
    page.fill("#judge-state", json.dumps(game.state()))
    page.fill("#judge-move", '{"seat": 2, "action": "play", "cards": ["H9"]}')
    tap(page, "#judge-form button[type=submit]")
    page.wait_for_selector("#judge-result .badge")
    check(page, lang, "the judge", allowed)
    # the Bots view and the replay
    page.goto("/#bots")
    page.wait_for_function("() => !document.querySelector('#bots-table').hidden || !document.querySelector('#bots-empty').hidden"
                           " || document.querySelector('#bots-error').textContent")
    check(page, lang, "the Bots view", allowed)
    page.goto(game.link(0, "replay"))
    page.wait_for_selector("#rp-felt .seat")
    check(page, lang, "the replay", allowed)
