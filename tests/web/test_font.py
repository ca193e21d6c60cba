"""The page's Japanese web font (api/static/fonts, built by scripts/build_font.py): it holds every Japanese character
the page can show and app.css serves it for the ranges it was built for; in Japanese mode the browser draws the
page's Japanese with it under the page's Content-Security-Policy (tests/service/test_static_font.py: the route)."""
from __future__ import annotations

import hashlib
import json
import re

import pytest
from scripts import build_font

from .test_page import wait_ready

FONT = build_font.FONTS / build_font.FONT_FILE
FAMILY = "Daifugo JP"
REBUILD = "rebuild the font: python scripts/build_font.py (needs fonts-noto-cjk and pip install -e '.[font]')"


def manifest() -> dict:
    return json.loads((build_font.FONTS / build_font.MANIFEST).read_text(encoding="utf-8"))


def font_face() -> str:
    css = (build_font.STATIC / "app.css").read_text(encoding="utf-8")
    faces = re.findall(r"@font-face\s*\{([^}]*)\}", css)
    assert len(faces) == 1, faces
    return faces[0]


def uncovered(texts: dict[str, str], covered: str) -> dict[str, str]:
    """The characters in the font's ranges that the font lacks, by the text they are in."""
    lacking = {where: "".join(sorted({ch for ch in text if build_font.in_ranges(ch)} - set(covered))) for where, text in texts.items()}
    return {where: chars for where, chars in lacking.items() if chars}


# ---------------------------------------------------------------- the font file (no browser)
def test_the_font_holds_every_japanese_character_the_page_can_show():
    texts = build_font.page_texts()
    assert not uncovered(texts, manifest()["characters"]), f"characters the font lacks, by where they are shown: {REBUILD}"
    # the collection reads the page, the Japanese messages, the rule names and the titles
    assert {"api/static/index.html", "api/static/app.js", "api/static/i18n.js", "api/i18n.py", "GET /v1/rules"} <= set(texts)
    needed = build_font.needed_characters()
    for word in ("大富豪", "日本語", "審判", "大貧民", "貧民", "平民", "都落ち", "革命", "（席）"):
        assert set(word) <= set(needed), word


def test_a_new_japanese_string_without_a_rebuild_is_caught():
    texts = build_font.page_texts()
    texts["api/static/i18n.js"] += 'ja.new_banner = "鬱蒼";'
    assert uncovered(texts, manifest()["characters"]) == {"api/static/i18n.js": "蒼鬱"}


def test_the_font_file_is_the_one_its_manifest_describes():
    m = manifest()
    data = FONT.read_bytes()
    assert data[:4] == b"wOF2"
    assert (len(data), hashlib.sha256(data).hexdigest()) == (m["bytes"], m["sha256"]), REBUILD
    assert len(data) < 300_000 and m["glyphs"] >= len(m["characters"])
    assert m["characters"] == "".join(sorted(m["characters"])) and all(build_font.in_ranges(ch) for ch in m["characters"])
    licence = (build_font.FONTS / build_font.LICENSE_FILE).read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Adobe" in licence and build_font.FONT_FILE in licence


def test_the_woff2_cmap_is_the_manifests():
    ttLib = pytest.importorskip("fontTools.ttLib", reason="fontTools is the font extra: pip install -e '.[font]'")
    pytest.importorskip("brotli", reason="reading WOFF2 needs brotli: pip install -e '.[font]'")
    font = ttLib.TTFont(str(FONT))
    m = manifest()
    assert "".join(sorted(chr(c) for c in font.getBestCmap())) == m["characters"]
    assert len(font.getGlyphOrder()) == m["glyphs"]
    assert font["name"].getDebugName(1) == "Noto Sans CJK JP"


def test_app_css_serves_the_font_for_the_ranges_it_was_built_for():
    face = font_face()
    assert f'font-family: "{FAMILY}"' in face
    assert f'src: url(fonts/{build_font.FONT_FILE}) format("woff2")' in face
    assert "font-display: swap" in face
    ranges = re.search(r"unicode-range:\s*([^;]+);", face).group(1).strip()
    assert ranges == build_font.css_unicode_range() == manifest()["unicode_range"], REBUILD
    css = (build_font.STATIC / "app.css").read_text(encoding="utf-8")
    root_stack = re.search(r":root\s*\{[^}]*font-family:\s*([^;]+);", css).group(1)
    assert root_stack.startswith(f'"{FAMILY}",'), root_stack


# ---------------------------------------------------------------- in the browser
def test_japanese_mode_draws_the_page_japanese_with_the_shipped_font(screen):
    page = screen
    page.goto("/")
    wait_ready(page)
    if page.evaluate("document.documentElement.lang") != "ja":
        page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'ja'")
    page.evaluate("document.fonts.ready")
    page.wait_for_function(f"""() => [...document.fonts].some(f => f.family.replace(/"/g, '') === '{FAMILY}'
                                                                 && f.status === 'loaded')""")
    assert page.evaluate(f"document.fonts.check('16px \"{FAMILY}\"', '大富豪')")
    # the text actually rendered with it: Chromium names the fonts it drew a node's glyphs with
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    for selector in (".top h1 .ja", "#create", ".top nav a[data-nav='new']"):
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        japanese = [f for f in fonts if f["isCustomFont"]]
        assert japanese and japanese[0]["familyName"] == "Noto Sans CJK JP", (selector, fonts)
    # the font came from the page's own origin (a CSP violation would fail the page fixture at teardown)
    loaded = page.evaluate("performance.getEntriesByType('resource').map(e => e.name).filter(n => n.endsWith('.woff2'))")
    assert loaded == [f"{page.context.live.base}/static/fonts/{build_font.FONT_FILE}"], loaded
