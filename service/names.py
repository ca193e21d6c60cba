"""Player names: printable text on one line, short enough for every view, log line and record."""
from __future__ import annotations

import unicodedata

# control, format (bidi overrides, zero-width), surrogate, private-use, unassigned, line/paragraph separators
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def name_problem(name, max_chars: int) -> str | None:
    """None for an acceptable name, else what is wrong with it."""
    if not isinstance(name, str) or not name.strip():
        return "a player's name must be a non-empty string"
    if len(name) > max_chars:
        return f"a player's name has at most {max_chars} characters, not {len(name)}"
    bad = next((c for c in name if unicodedata.category(c) in _REFUSED), None)
    if bad is not None:
        return f"a player's name must be printable on one line: {ascii(bad)} is not allowed"
    return None
