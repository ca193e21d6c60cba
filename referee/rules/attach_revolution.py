"""付け革 (attach revolution): add cards to a field of ≤3 so that together they make a 4-card revolution."""
from functools import lru_cache
from itertools import combinations
from typing import ClassVar, Final

from ..cards import JOKERS_MASK, card, cards_of, rank_mask
from ..effects import Effect, Revolution
from ..resolution import Resolution
from ..shapes import matches_as, readings, strength_key
from ..slots import locks
from ..view import PlayView
from .revolution import REVOLUTION_MIN

ID: Final = "attach_revolution"
NAME_JA = "付け革"
NAME_EN = "attach revolution"
SUMMARY = ("On a field of 3 cards or fewer, play cards that together with the field form a legal 4-card group or "
           "stairs (exactly 4, no 2-3 link): a revolution, and the 4 cards become the field.")
SUMMARY_JA = ("場が3枚以下のとき、場の札と合わせてちょうど4枚の組か階段になる札を出すと革命（2-3をまたぐ階段は不可）"
              "。4枚が場になる。")
PARAMS: dict = {}
DECLARABLE = True
JOINS_FIELD = True  # the played cards and the field's become one 4-card field (its candidates are joined ones)


class ClearLocks(Effect):
    """Every lock ends, whatever the play's other effects locked (it resolves last): every slot declared a lock
    (referee/slots.py, ``lock=True``) goes back to its default, whichever rule keeps it."""
    ORDER: ClassVar[int] = 9
    KIND: ClassVar[str] = "unlock"

    def fold(self, res: Resolution) -> None:
        rules = res.st.rules
        for slot in locks(rules.view_slots + rules.rule_slots):
            res.put(slot, slot.default)


def settings(params) -> dict:
    """A field it made may be 4-card stairs whatever the stairs rule says."""
    return {"field_extra_shapes": frozenset({"stairs"}), "field_min_stairs": 4}


def candidates(f, possible: int, params) -> frozenset[int]:
    """Card sets that, with the field ``f``, make the 4 cards of an attach revolution (alone they may be no play:
    JOINS_FIELD)."""
    if f.wild or f.n > 3:
        return frozenset()
    return _joined(f.mask, possible & _near(f), 4 - f.n)


@lru_cache(maxsize=1 << 12)
def _near(f) -> int:
    """The cards that may join the field's: jokers, its ranks, and its suits within three ranks of it."""
    near = JOKERS_MASK
    for r, s in f.eff:
        near |= rank_mask(r) | sum(1 << card(x, s) for x in range(max(0, f.lo - 3), min(12, f.hi + 3) + 1))
    return near


@lru_cache(maxsize=1 << 14)
def _joined(field: int, pool: int, k: int) -> frozenset[int]:
    """The sets of ``k`` cards of ``pool`` that read as a group or stairs with the field's cards (asked every
    ply on a small field, for the few cards near it)."""
    out = set()
    for combo in combinations(cards_of(pool), k):
        mask = sum(1 << c for c in combo)
        if any(r.shape in ("group", "stairs") and not r.wild for r in readings(field | mask, frozenset({"stairs"}))):
            out.add(mask)
    return frozenset(out)


def special_play(view: PlayView, params):
    """The combined 4-card reading that the field becomes, or None."""
    field = view.field
    if field is None or field.wild or field.n > 3 or view.reading.n + field.n != 4 or view.slot(REVOLUTION_MIN) > 4:
        return None
    # the field's jokers keep their readings; the new jokers read as the proposal's 'as' says (if it does)
    wanted = tuple(field.jokers) + tuple(view.as_map)
    combined = [r for r in readings(field.mask | view.reading.mask, frozenset({"stairs"}))
                if r.shape in ("group", "stairs") and not r.wild and matches_as(r, wanted)]
    if not combined:
        return None
    # an open rank (a joker onto ♠4-5-6: ♠3 or ♠7) takes the stronger one in the order in force (§10.6)
    return max(combined, key=lambda r: strength_key(r, view.reversed))


def after_play(view: PlayView, params):
    return [Revolution(ID), ClearLocks(ID)] if view.special == ID else []
