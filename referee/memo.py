"""The engine's memos (judgements, listings, annotations per ruleset): bounded, and kept out of the way of
CPython's cyclic garbage collector."""
from __future__ import annotations

import gc
from itertools import islice

MEMO_SIZE = 1 << 14  # entries per memo and ruleset (the oldest go first): ~30 MB at most (gekifugo)


def remember(memo: dict, key, value):
    """``memo[key] = value``; a full memo forgets its oldest quarter at once (dicts keep insertion order; finding
    and deleting the oldest entry one at a time would walk the deleted slots before it on every insert)."""
    if len(memo) >= MEMO_SIZE:
        for old in list(islice(memo, MEMO_SIZE // 4)):
            del memo[old]
    memo[key] = value
    return value


GC_THRESHOLDS = (100_000, 50, 100)


def relax_gc() -> None:
    """Collect cycles less often in a process that plays many moves (the service, workers, tournaments,
    benchmarks). The memos hold some 10^5 small objects; with CPython's default thresholds (700, 10, 10) a full
    collection walks them every few thousand plies, which cost a third to a half of gekifugo's self-play time.
    The engine makes little cyclic garbage, so collecting it rarely costs little memory."""
    gc.set_threshold(*GC_THRESHOLDS)
