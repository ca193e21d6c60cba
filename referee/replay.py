"""Replay: a game's state is the fold of apply over its event log."""
from __future__ import annotations

from .deals import correct_hands, new_game
from .engine import advance, next_deal
from .errors import InputError
from .serialize import state_from_json
from .verdict import Verdict


def replay(events, upto=None, start=None, each=None):
    """The state after event ``upto`` (default: the last one); ``each(state)`` is called with the state after
    every event replayed.

    ``start`` is a snapshot to go on from instead of the log's beginning: a state (or its table-view JSON,
    ``state_to_json(st)``) at some seq of the same game. ``events`` then need only hold the events after it
    (any at or before its seq are skipped), so a store that keeps a snapshot every K events replays at most K.
    """
    if start is not None:
        st = state_from_json(start) if isinstance(start, dict) else start
        if upto is not None and upto < st.seq:
            raise InputError("bad_log", f"the snapshot is at seq {st.seq}, after {upto}")
    else:
        if not events or events[0].get("type") != "game_created":
            raise InputError("bad_log", "a log starts with its game_created event")
        first = events[0]
        st, _ = new_game(first["preset"], first["rules"], first["players"], first["seed"], first["hands"],
                         table=first.get("table", False), leader=first.get("leader"))
        events = events[1:]
    for ev in events:
        if ev["seq"] <= st.seq:
            continue
        if upto is not None and ev["seq"] > upto:
            break
        if ev["type"] == "move":
            after = advance(st, ev["move"])
            if isinstance(after, Verdict):
                raise InputError("bad_log", f"event {ev['seq']} does not replay: {after.message}")
            st = after
        elif ev["type"] == "deal_started":
            st, _ = next_deal(st, ev["hands"])
        elif ev["type"] == "hands_corrected":
            st, _ = correct_hands(st, ev["hands"])
        if st.seq != ev["seq"]:
            raise InputError("bad_log", f"event {ev['seq']} replays to seq {st.seq}")
        if each is not None:
            each(st)
    return st
