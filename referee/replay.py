"""Replay: a game's state is the fold of apply over its event log."""
from __future__ import annotations

from .deals import correct_hands, new_game
from .engine import apply, next_deal
from .errors import InputError


def replay(events, upto=None):
    """The state after event ``upto`` (default: the last one)."""
    if not events or events[0].get("type") != "game_created":
        raise InputError("bad_log", "a log starts with its game_created event")
    first = events[0]
    st, _ = new_game(first["preset"], first["rules"], first["players"], first["seed"], first["hands"],
                     table=first.get("table", False), leader=first.get("leader"))
    for ev in events[1:]:
        if upto is not None and ev["seq"] > upto:
            break
        if ev["type"] == "move":
            verdict, st, _ = apply(st, ev["move"])
            if not verdict.legal:
                raise InputError("bad_log", f"event {ev['seq']} does not replay: {verdict.message}")
        elif ev["type"] == "deal_started":
            st, _ = next_deal(st, ev["hands"])
        elif ev["type"] == "hands_corrected":
            st, _ = correct_hands(st, ev["hands"])
        if st.seq != ev["seq"]:
            raise InputError("bad_log", f"event {ev['seq']} replays to seq {st.seq}")
    return st
