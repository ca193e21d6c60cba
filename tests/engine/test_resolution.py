"""The merge rules of effects that meet on one play (referee/effects.py ``fold``, referee/resolution.py)."""
from referee.effects import Cut, Reverse, Revolution, Skip
from referee.rules.nine_reverse import TRICK_REVERSED, TrickReverse
from referee.play import Plan
from referee.resolution import resolve, write
from referee.rules.attach_revolution import ClearLocks
from referee.rules.rank_lock import RANK_LOCK, RankLock
from referee.rules.revolution import REVOLUTION_MIN, RaiseThreshold
from referee.rules.suit_lock import LOCK_KIND, LOCK_SUITS, Lock, Unlock
from referee.shapes import readings
from referee.view import PlayView, table_of

from .helpers import game


def _resolved(effects, slots=(), **state):
    st = game("gekifugo", [["S4", "H4", "D4", "C4"], ["S5"], ["S6"]])
    if state:
        from referee.state import replace
        st = replace(st, **state)
    if slots:
        values = list(st.view_slots)
        for slot, value in slots:
            values[slot.index] = value
        from referee.state import replace
        st = replace(st, view_slots=tuple(values))
    reading = readings(0b1111 << 4, frozenset())[0]
    plan = Plan(PlayView(table_of(st, 0), reading), 0, 0, reading, tuple(effects), ())
    res = resolve(st, plan)
    new = st.clone()
    write(new, st, res, (), reading.n)
    return res, new


def test_several_revolutions_turn_the_order_once_and_the_highest_threshold_holds():
    res, st = _resolved([Revolution("revolution"), Revolution("great_revolution"), RaiseThreshold("great_revolution", 5),
                         Revolution("nuclear_bomb"), RaiseThreshold("nuclear_bomb", 6)])
    assert st.revolution is True
    assert st.slot(REVOLUTION_MIN) == 6
    _, st = _resolved([Revolution("revolution"), Revolution("revolution")], revolution=True)
    assert st.revolution is False


def test_an_exact_lock_beats_a_partial_one_in_either_order():
    for effects in ([Lock("suit_lock", 0b0011, True), Lock("partial_suit_lock", 0b0001, False)],
                    [Lock("partial_suit_lock", 0b0001, False), Lock("suit_lock", 0b0011, True)]):
        _, st = _resolved(effects)
        assert _locks(st) == (0b0011, "exact", False)
    _, st = _resolved([Lock("partial_suit_lock", 0b0001, False)])
    assert _locks(st) == (0b0001, "partial", False)


def _locks(st):
    return st.slot(LOCK_SUITS), st.slot(LOCK_KIND), st.slot(RANK_LOCK)


def test_unlock_ends_the_suit_lock_and_clear_locks_ends_every_lock():
    locked = ((LOCK_SUITS, 1), (LOCK_KIND, "exact"), (RANK_LOCK, True))
    _, st = _resolved([Unlock("suit_lock")], locked)
    assert _locks(st) == (0, None, True)
    _, st = _resolved([Lock("suit_lock", 1, True), RankLock("rank_lock"), ClearLocks("attach_revolution")])
    assert _locks(st) == (0, None, False)


def test_the_first_cut_is_kept_skips_add_up_and_reverses_toggle():
    _, st = _resolved([Cut("eight_cut"), Cut("spade3"), Skip("five_skip", 1), Skip("five_skip", 2),
                       TrickReverse("nine_reverse")])
    assert st.after.cut == "eight_cut"
    assert st.after.skip == 3
    assert st.direction == -1 and st.slot(TRICK_REVERSED) is True
    _, st = _resolved([TrickReverse("nine_reverse"), TrickReverse("nine_reverse")])
    assert st.direction == 1 and st.slot(TRICK_REVERSED) is False
    _, st = _resolved([Reverse("nine_reverse")])
    assert st.direction == -1 and st.slot(TRICK_REVERSED) is False
