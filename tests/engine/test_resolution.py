"""The merge rules of effects that meet on one play (referee/effects.py ``fold``, referee/resolution.py)."""
from referee.effects import ClearLocks, Cut, Lock, RankLock, Reverse, Revolution, Skip, Unlock
from referee.resolution import resolve, write
from referee.play import Plan
from referee.shapes import readings
from referee.view import PlayView, table_of

from .helpers import game


def _resolved(effects, **state):
    st = game("gekifugo", [["S4", "H4", "D4", "C4"], ["S5"], ["S6"]])
    if state:
        from referee.state import replace
        st = replace(st, **state)
    reading = readings(0b1111 << 4, frozenset())[0]
    plan = Plan(PlayView(table_of(st, 0), reading), 0, 0, reading, tuple(effects), ())
    res = resolve(st, plan)
    new = st.clone()
    write(new, st, res, (), reading.n)
    return res, new


def test_several_revolutions_turn_the_order_once_and_the_highest_threshold_holds():
    res, st = _resolved([Revolution("revolution"), Revolution("great_revolution", 5), Revolution("nuclear_bomb", 6)])
    assert st.revolution is True
    assert st.revolution_min == 6
    _, st = _resolved([Revolution("revolution"), Revolution("revolution")], revolution=True)
    assert st.revolution is False


def test_an_exact_lock_beats_a_partial_one_in_either_order():
    for effects in ([Lock("suit_lock", 0b0011, True), Lock("partial_suit_lock", 0b0001, False)],
                    [Lock("partial_suit_lock", 0b0001, False), Lock("suit_lock", 0b0011, True)]):
        _, st = _resolved(effects)
        assert (st.lock_suits, st.lock_kind) == (0b0011, "exact")
    _, st = _resolved([Lock("partial_suit_lock", 0b0001, False)])
    assert (st.lock_suits, st.lock_kind) == (0b0001, "partial")


def test_unlocks_end_their_own_lock_and_clear_locks_ends_every_lock():
    _, st = _resolved([Unlock("suit_lock")], lock_suits=1, lock_kind="exact", rank_lock=True)
    assert (st.lock_suits, st.lock_kind, st.rank_lock) == (0, None, True)
    _, st = _resolved([Unlock("rank_lock", rank=True)], lock_suits=1, lock_kind="exact", rank_lock=True)
    assert (st.lock_suits, st.lock_kind, st.rank_lock) == (1, "exact", False)
    _, st = _resolved([Lock("suit_lock", 1, True), RankLock("rank_lock"), ClearLocks("attach_revolution")])
    assert (st.lock_suits, st.lock_kind, st.rank_lock) == (0, None, False)


def test_the_first_cut_is_kept_skips_add_up_and_reverses_toggle():
    _, st = _resolved([Cut("eight_cut"), Cut("spade3"), Skip("five_skip", 1), Skip("five_skip", 2),
                       Reverse("nine_reverse", trick=True)])
    assert st.after.cut == "eight_cut"
    assert st.after.skip == 3
    assert st.direction == -1 and st.trick_reversed is True
    _, st = _resolved([Reverse("nine_reverse"), Reverse("nine_reverse")])
    assert st.direction == 1 and st.trick_reversed is False
