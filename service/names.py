"""Names of players and registered bots: printable on one line, short enough for every view, log line and
record, and never one name passing for another.

A name is judged in its NFKC form, the characters it shows: full-width letters are the letters, the ideographic
space is a space. Two scripts that share look-alike letters may not meet in one name ("bоt" with a Cyrillic о);
the mixes UTS #39's "highly restrictive" profile allows stay: Latin with Han, Hiragana and Katakana (Japanese),
with Han and Bopomofo, with Han and Hangul. Bot names are unique once NFKC-normalised and case-folded
(``folded``), so ``S4BOT`` and a full-width ``ｓ4bot`` are the name ``s4bot``.

>>> name_problem("たろう Taro 2", 40) is None
True
>>> name_problem("b\\u043et", 40)
"a player's name mixes scripts that look alike (CYRILLIC, LATIN)"
"""
from __future__ import annotations

import unicodedata

# control, format (bidi overrides, zero-width), surrogate, private-use, unassigned, line/paragraph separators
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# characters that show nothing but are not of a refused category: Hangul fillers, the braille blank, the
# combining grapheme joiner, Khmer's inherent vowels
_BLANKS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f", "\u17b4", "\u17b5"}
# the scripts one name may mix; a name in any one script is fine
_MIXES = ({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}, {"LATIN", "HAN", "BOPOMOFO"}, {"LATIN", "HAN", "HANGUL"})
# a letter's script is the first word of its Unicode name, but for these
_SCRIPT_OF_WORD = {"CJK": "HAN", "IDEOGRAPHIC": "HAN", "KATAKANA-HIRAGANA": "KATAKANA", "HENTAIGANA": "HIRAGANA",
                   "VERTICAL": "KATAKANA", "MASU": "KATAKANA"}
_NO_SCRIPT = {"MODIFIER"}  # modifier letters go with any script


def folded(name: str) -> str:
    """The form two bot names must not share: NFKC, case-folded (``folded("ＳＡＭ") == folded("sam")``)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def scripts(text: str) -> set[str]:
    """The scripts of the letters of ``text`` (digits, spaces, marks and symbols have none)."""
    found = set()
    for char in text:
        if unicodedata.category(char).startswith("L"):
            word = unicodedata.name(char, "").split(" ", 1)[0]
            if word not in _NO_SCRIPT:
                found.add(_SCRIPT_OF_WORD.get(word, word))
    return found


def name_problem(name, max_chars: int, what: str = "a player's name") -> str | None:
    """None for an acceptable name, else what is wrong with it."""
    if not isinstance(name, str) or not name.strip():
        return f"{what} must be a non-empty string"
    if len(name) > max_chars:
        return f"{what} has at most {max_chars} characters, not {len(name)}"
    shown = unicodedata.normalize("NFKC", name)
    if not shown.strip():
        return f"{what} must show something"
    bad = next((c for c in name if any(_invisible(x) for x in unicodedata.normalize("NFKC", c))), None)
    if bad is not None:
        return f"{what} must be printable on one line and show every character: {ascii(bad)} is not allowed"
    mixed = scripts(shown)
    if len(mixed) > 1 and not any(mixed <= allowed for allowed in _MIXES):
        return f"{what} mixes scripts that look alike ({', '.join(sorted(mixed))})"
    return None


def bot_name_problem(name, max_chars: int) -> str | None:
    """A player's name rules, and no ``@``: a bot's seat is ``@<name>``."""
    problem = name_problem(name, max_chars, "a bot's name")
    if problem is None and "@" in name:
        return "a bot's name may not contain '@' (its seat is '@' and the name)"
    return problem


def _invisible(char: str) -> bool:
    category = unicodedata.category(char)
    return category in _REFUSED or (category == "Zs" and char != " ") or char in _BLANKS
