"""Build the page's Japanese web font: a WOFF2 subset of Noto Sans CJK JP holding only the characters the page can show.

    apt-get install -y fonts-noto-cjk            # the source font (SIL Open Font License 1.1)
    pip install -e '.[font]'                     # fontTools and brotli
    python scripts/build_font.py                 # writes api/static/fonts/: the .woff2, its manifest and OFL.txt

Run it again whenever the page, the rule names, the titles or the Japanese messages gain a character
(tests/web/test_font.py fails until then). The characters come from every text the page can show: api/static's
files, every string literal of referee/ and api/ (rule names, titles, Japanese verdict messages) and the
rule catalogue the page reads from GET /v1/rules. Only characters in RANGES go into the font: the app.css
@font-face serves exactly those ranges, so latin text, punctuation and the card suits keep the system font
(Noto CJK draws ♠♥♦♣ full-width, too wide for the cards).
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "api" / "static"
FONTS = STATIC / "fonts"
FONT_FILE = "noto-sans-cjk-jp-subset.woff2"
MANIFEST = "noto-sans-cjk-jp-subset.json"
LICENSE_FILE = "OFL.txt"
SOURCE_TTC = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SOURCE_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")  # Debian's copy of the license text
SOURCE_FAMILY = "Noto Sans CJK JP"

# Japanese: CJK symbols and punctuation, hiragana, katakana, the CJK ideographs, half- and full-width forms.
# app.css's unicode-range says the same (a test compares them).
RANGES = ((0x3000, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


def in_ranges(ch: str) -> bool:
    return any(lo <= ord(ch) <= hi for lo, hi in RANGES)


def css_unicode_range() -> str:
    return ", ".join(f"U+{lo:X}-{hi:X}" for lo, hi in RANGES)


def _string_literals(path: Path) -> str:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return "".join(t.string for t in tokens if t.type == tokenize.STRING)


def page_texts() -> dict[str, str]:
    """Every text the page can show, by where it comes from."""
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
             for p in sorted(STATIC.iterdir()) if p.suffix in (".html", ".js", ".css")}
    for package in ("referee", "api"):
        for p in sorted((ROOT / package).rglob("*.py")):
            texts[str(p.relative_to(ROOT))] = _string_literals(p)
    import referee

    texts["GET /v1/rules"] = json.dumps(referee.catalog(), ensure_ascii=False)
    return texts


def needed_characters() -> str:
    """The characters the font must hold: those of the page's texts in RANGES, sorted."""
    return "".join(sorted({ch for text in page_texts().values() for ch in text if in_ranges(ch)}))


def _source_index(ttc: Path) -> int:
    from fontTools.ttLib import TTCollection

    for i, font in enumerate(TTCollection(str(ttc), lazy=True).fonts):
        if font["name"].getDebugName(1) == SOURCE_FAMILY:
            return i
    raise SystemExit(f"{ttc} has no {SOURCE_FAMILY}")


def _license_text(source: str, copyright_line: str) -> str:
    """The OFL 1.1 text as Debian's fonts-noto-cjk ships it, under the font's own copyright line."""
    text = SOURCE_COPYRIGHT.read_text(encoding="utf-8")
    m = re.search(r"^License: SIL-1\.1\n((?: .*\n?)+)", text, re.M)
    if not m:
        raise SystemExit(f"no SIL-1.1 license text in {SOURCE_COPYRIGHT}")
    body = "\n".join("" if line.strip() == "." else line[1:] for line in m.group(1).splitlines())
    return f"{FONT_FILE}: a subset of {source}.\n\n{copyright_line}\n\n{body.rstrip()}\n"


def build(ttc: Path = SOURCE_TTC, out: Path = FONTS) -> dict:
    from fontTools import subset, version as fonttools_version
    from fontTools.ttLib import TTFont

    chars = needed_characters()
    font = TTFont(str(ttc), fontNumber=_source_index(ttc), recalcTimestamp=False)  # the same input, the same bytes
    missing = [ch for ch in chars if ord(ch) not in font.getBestCmap()]
    if missing:
        raise SystemExit(f"{SOURCE_FAMILY} lacks {''.join(missing)!r}")
    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False
    options.desubroutinize = True  # WOFF2's Brotli compresses plain charstrings better
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 13, 14]  # keep the copyright, trademark and license records
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(ch) for ch in chars])
    subsetter.subset(font)
    out.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    font.flavor = "woff2"
    font.save(buf)
    data = buf.getvalue()
    (out / FONT_FILE).write_bytes(data)
    name = font["name"]
    source = f"{name.getDebugName(4)} {name.getDebugName(5)}"
    (out / LICENSE_FILE).write_text(_license_text(source, name.getDebugName(0)), encoding="utf-8")
    manifest = {
        "file": FONT_FILE,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "glyphs": len(font.getGlyphOrder()),
        "source": source,
        "built_with": f"fontTools {fonttools_version}",
        "unicode_range": css_unicode_range(),
        "characters": "".join(sorted(chr(c) for c in font.getBestCmap())),
    }
    (out / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=SOURCE_TTC, help="the Noto Sans CJK .ttc (default: Debian's fonts-noto-cjk)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))  # run as a script: the referee package beside it
    m = build(args.source)
    print(f"{FONTS / m['file']}: {m['bytes']} bytes, {m['glyphs']} glyphs, {len(m['characters'])} characters")


if __name__ == "__main__":
    main()
