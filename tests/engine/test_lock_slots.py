"""Locks are slots that say so (referee/slots.py, ``lock=True``): whatever clears the locks reads the flag, the
catalogue serves each lock's words, and a lock that forgets its flag or its words is refused by name."""
import pytest

from referee import catalog, new_game, state_to_json
from referee.resolution import Resolution
from referee.rules import MODULES, RULE_SLOTS, VIEW_SLOTS
from referee.rules.attach_revolution import ClearLocks
from referee.slots import LANGUAGES, LOCK_PREFIX, MATCH, TRICK, Slot, locks

SLOTS = VIEW_SLOTS + RULE_SLOTS


def test_every_slot_under_locks_is_a_lock_and_every_lock_is_worded():
    # a lock that forgot lock=True would survive attach revolution's clear and be missing from the page's chips
    for slot in SLOTS:
        assert slot.lock == slot.key.startswith(LOCK_PREFIX), f"{slot.key}: lock={slot.lock}"
        if slot.lock:
            assert slot.words is not None and set(slot.words) == set(LANGUAGES), slot.key
    assert {s.key for s in locks(SLOTS)} >= {"locks.suits", "locks.kind", "locks.rank", "locks.color"}


def test_attach_revolutions_clear_puts_every_lock_back_at_its_default():
    st, _ = new_game("gekifugo", None, ["a", "b", "c", "d"], seed=1)
    res = Resolution(st, 0, 5, False)
    for slot in locks(SLOTS):
        res.put(slot, "set")  # whatever a lock holds
    ClearLocks("attach_revolution").fold(res)
    for slot in locks(SLOTS):
        assert res.get(slot) == slot.default, slot.key


def test_the_catalogue_serves_each_rules_slots_with_their_words():
    st, _ = new_game("uecda", None, ["a", "b", "c"], seed=1)
    state = state_to_json(st)
    served = {s["key"]: (r["id"], s) for r in catalog()["rules"] for s in r["slots"]}
    for module in MODULES:
        for slot in getattr(module, "STATE", ()):
            rule, entry = served[slot.key]
            assert rule == module.ID
            assert entry == {"key": slot.key, "default": slot.write(slot.default), "lifetime": slot.lifetime,
                             "lock": slot.lock, "words": slot.words,
                             "schema": {**slot.schema, "description": slot.doc or f"{module.ID}: {module.SUMMARY}"}}
            top, _, rest = slot.key.partition(".")
            written = state[top][rest] if rest else state[top]
            assert written == entry["default"], slot.key  # a new state holds every slot at its default
    assert served["locks.color"][1]["words"]["ja"] == {"red": "赤 ♥♦", "black": "黒 ♠♣"}


@pytest.mark.parametrize("kwargs, words", [
    ({"lock": True}, "says how it is worded"),
    ({"lock": True, "words": {"en": "x"}}, "exactly the languages en, ja"),
    ({"lock": True, "words": {"en": "x {colour}", "ja": "x"}}, "names {colour}"),
    ({"lock": True, "words": {"en": {"red": "red"}, "ja": {"black": "黒"}}}, "the same values"),
    ({"lock": True, "words": {"en": "", "ja": "x"}}, "non-empty string"),
])
def test_a_lock_without_its_words_is_refused_by_name(kwargs, words):
    with pytest.raises(ValueError, match="slot locks.colour") as e:
        Slot("locks.colour", None, TRICK, view=True, schema={"type": ["string", "null"]}, **kwargs)
    assert words in str(e.value)


def test_a_lock_lives_under_locks_and_ends_with_the_trick_or_deal():
    words = {"en": "x", "ja": "x"}
    with pytest.raises(ValueError, match="under 'locks.'"):
        Slot("colour", None, TRICK, lock=True, words=words)
    with pytest.raises(ValueError, match="trick or deal"):
        Slot("locks.colour", None, MATCH, lock=True, words=words)
