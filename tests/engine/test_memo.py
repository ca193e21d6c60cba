"""The engine's memos stay bounded: per memo, and in how many hold entries at once (referee/memo.py)."""
import pytest

from referee import memo
from referee.memo import LIVE_MEMOS, remember


@pytest.fixture
def small(monkeypatch):
    monkeypatch.setattr(memo, "MEMO_SIZE", 8)


def test_a_full_memo_forgets_its_oldest_quarter(small):
    m: dict = {}
    for k in range(9):
        remember(m, k, k)
    assert list(m) == [2, 3, 4, 5, 6, 7, 8]


def test_no_more_than_live_memos_hold_entries_at_once():
    # games under many custom rulesets: each ruleset's memos start filling in turn
    memos = [{} for _ in range(LIVE_MEMOS + 5)]
    for i, m in enumerate(memos):
        remember(m, "key", i)
        remember(m, "other", i)
    assert sum(1 for m in memos if m) == LIVE_MEMOS
    assert all(not m for m in memos[:5]) and all(m == {"key": i, "other": i} for i, m in enumerate(memos) if i >= 5)
    # an emptied memo that fills again is the newest: the oldest still holding entries goes
    remember(memos[0], "key", 0)
    assert memos[0] and not memos[5] and sum(1 for m in memos if m) == LIVE_MEMOS


def test_a_ruleset_judges_the_same_after_its_memos_were_emptied():
    from referee import apply, legal_moves, new_game
    st, _ = new_game("gekifugo", None, ["a", "b", "c", "d"], seed=5)
    first = next(m for m in legal_moves(st, st.turn) if m["action"] == "play")
    _, st, _ = apply(st, first)  # from the second play on, judgements are memoised
    seat = st.turn
    before = legal_moves(st, seat, annotated=True)
    assert st.rules.moves_memo
    for _ in range(LIVE_MEMOS + 1):
        remember({}, "key", 0)  # other memos start filling: this ruleset's are emptied
    assert not st.rules.memo and not st.rules.moves_memo
    assert legal_moves(st, seat, annotated=True) == before


def test_effect_memos_are_bounded_apart_from_the_big_ones():
    from referee.memo import EFFECTS_SIZE, live_effect_memos
    big = {}
    remember(big, "key", 0)
    small = [{} for _ in range(LIVE_MEMOS + 2)]
    for m in small:
        for k in range(EFFECTS_SIZE + 1):
            remember(m, k, k, EFFECTS_SIZE, live_effect_memos)
    assert big == {"key": 0}  # effect memos starting to fill empty only their own kind
    assert sum(1 for m in small if m) == LIVE_MEMOS and not small[0] and not small[1]
    assert all(len(m) <= EFFECTS_SIZE for m in small)
