"""The engine's memos (judgements, listings, annotations per ruleset): bounded, and kept out of the way of
CPython's cyclic garbage collector."""
from __future__ import annotations

import gc
import threading
from collections import OrderedDict
from itertools import islice
from typing import Final

MEMO_SIZE = 1 << 16  # entries per memo (the oldest go first): ~45 MB when full (gekifugo)
LIVE_MEMOS: Final = 8       # memos holding entries at once in a process, two per ruleset in play: ~360 MB at most
_live: Final[OrderedDict] = OrderedDict()  # id(memo) -> memo, in the order they started filling
_live_lock: Final = threading.Lock()


def remember(memo: dict, key, value, size: int | None = None, live: OrderedDict | None = None):
    """``memo[key] = value``. A full memo forgets its oldest quarter at once (dicts keep insertion order; finding
    and deleting the oldest entry one at a time would walk the deleted slots before it on every insert). A memo
    that starts filling while LIVE_MEMOS others hold entries empties the one that started longest ago, so that
    games under many different rulesets cannot fill a process's memory (every custom ruleset has memos)."""
    if size is None:
        size = MEMO_SIZE
    if not memo:
        _started(memo, _live if live is None else live)
    elif len(memo) >= size:
        for old in list(islice(memo, size // 4)):
            memo.pop(old, None)  # another thread may have taken it
    memo[key] = value
    return value


def _started(memo: dict, live: OrderedDict) -> None:
    with _live_lock:
        live[id(memo)] = memo  # held here, so its id cannot be reused while it is listed
        live.move_to_end(id(memo))
        while len(live) > LIVE_MEMOS:
            _, oldest = live.popitem(last=False)
            oldest.clear()


# The small memos of after_play answers (play._fired, one per ruleset): bounded apart from the big ones, at most
# EFFECTS_SIZE entries each (~7 MB) and LIVE_MEMOS of them holding entries at once.
EFFECTS_SIZE: Final = 1 << 14
live_effect_memos: Final[OrderedDict] = OrderedDict()

# The canonical view.Tables of a ruleset (view.table_of), bounded the same way.
TABLES_SIZE: Final = 1 << 12
live_tables: Final[OrderedDict] = OrderedDict()


GC_THRESHOLDS: Final = (100_000, 50, 100)


def relax_gc() -> None:
    """Collect cycles less often in a process that plays many moves (the service, workers, tournaments,
    benchmarks). The memos hold some 10^5 small objects; with CPython's default thresholds (700, 10, 10) a full
    collection walks them every few thousand plies, which cost a third to a half of gekifugo's self-play time.
    The engine makes little cyclic garbage, so collecting it rarely costs little memory."""
    gc.set_threshold(*GC_THRESHOLDS)
