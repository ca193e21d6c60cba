"""What a rejected proposal leaves in the audit stream: the proposal clipped to a few hundred bytes.

Anyone holding a token may propose anything; the audit entry must not store it verbatim.
"""
from __future__ import annotations

import json

MAX_STRING = 64     # characters kept of one string
MAX_ITEMS = 16      # items kept of one list or dict
MAX_DEPTH = 4
MAX_BYTES = 512     # the clipped move as JSON; beyond this only seat, action and sizes remain


def clip(value, depth: int = 0):
    """``value`` with long strings, long lists, many keys and deep nesting cut (marked with '…')."""
    if isinstance(value, str):
        return value if len(value) <= MAX_STRING else value[:MAX_STRING] + "…"
    if isinstance(value, (bool, int, float)) or value is None:
        return value if not isinstance(value, int) or abs(value) < 10**18 else str(value)[:20] + "…"
    if depth >= MAX_DEPTH:
        return "…"
    if isinstance(value, dict):
        items = list(value.items())
        clipped = {str(k)[:MAX_STRING]: clip(v, depth + 1) for k, v in items[:MAX_ITEMS]}
        if len(items) > MAX_ITEMS:
            clipped["…"] = f"{len(items) - MAX_ITEMS} more keys"
        return clipped
    if isinstance(value, (list, tuple)):
        listed = [clip(v, depth + 1) for v in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            listed.append(f"… {len(value) - MAX_ITEMS} more")
        return listed
    return clip(repr(value), depth)


def clip_move(move: dict) -> dict:
    """The proposal as the audit keeps it: clipped, and at most MAX_BYTES of JSON."""
    out = clip(move)
    if len(json.dumps(out)) <= MAX_BYTES:
        return out
    return {"seat": clip(move.get("seat")), "action": clip(move.get("action")), "truncated": True,
            "fields": sorted(str(k)[:MAX_STRING] for k in move)[:MAX_ITEMS]}


def clip_verdict(verdict: dict) -> dict:
    out = clip(verdict)
    if isinstance(verdict.get("message"), str):
        out["message"] = verdict["message"][:300]  # the message names the rule: keep more of it
    return out
