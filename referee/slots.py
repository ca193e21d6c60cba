"""Rule state: what a rule keeps between plays, declared in the rule's own module as a ``Slot``.

A rule module lists its slots in ``STATE`` (docs/adding-a-rule.md, "Rule state"). Every slot registers itself when
it is made (``MADE``), and the registry refuses a rule module that made a slot its ``STATE`` leaves out
(referee/contract.py): a slot nobody numbered would read and write another rule's value. A slot says its JSON key in
the state (a dotted path: ``locks.rank`` is ``{"locks": {"rank": …}}``), its default, how long a value lasts
(``TRICK``: until the flush; ``DEAL``: until the deal ends; ``MATCH``: the whole match) and whether the play
rules see it (``view``: it enters the play view, and so the key every judgement is memoised under). The registry
(``rules.SLOTS``) numbers them; a State holds their values in two tuples, ``view_slots`` and ``rule_slots``, in
registry order. Flushes and new deals reset them from their declarations; the state JSON is written and read
from them. Rules read a slot with ``view.slot(S)`` (play hooks) or ``st.slot(S)`` (state hooks) and change one
with an effect whose ``fold`` calls ``res.put(S, value)``.

A slot may stand for a turn of something every game has (``turns``): ``ORDER`` (while the slot is true the order
of strength is turned, on top of the revolution: jack back; such a slot must enter the view) or ``DIRECTION``
(while it is true the direction of play is turned, and the core turns it back when the slot resets: a trick-long
9-reverse). The core reads the order and the direction from these slots and never names the rule.

A slot may be a lock (``lock=True``): its key is under ``locks.``, it lasts a trick or a deal, and it says how the
page words it (``words``, in every language of ``LANGUAGES``). Whatever clears "the locks" (attach revolution's
clear) puts every lock slot back at its default (``locks``), and the page's lock chips, the side panel's locks line
and ``GET /v1/rules`` read the same flag and words (``describe``): a new lock is shown without an edit outside its
module. ``words`` maps each language to a template, or to a template per value for a slot whose values are words
(``{"red": …, "black": …}``, the keys being the JSON values as text); a template may say the value (``{value}``),
the value's suit letters as symbols (``{suits}``), the name of the slot's own rule in the page's language
(``{rule}``) or another rule's (``{rule:partial_suit_lock}``).

A slot says what its JSON value may be (``schema``, a JSON Schema, and ``doc``, a line saying what the value means):
openapi.yaml's ``State`` schema takes every slot's key from them (api/spec.py fills it from ``GET /v1/rules``, whose
``slots`` serve each ``schema`` with ``doc`` as its description), so a new slot is described without an edit outside
its module. Without ``schema`` it is made from the default's JSON value: a boolean, an integer or a string gives
that type, a list an array (of the type of its first item, if it has one); a slot whose default is written as
anything else (``None``: null) must give its ``schema``. Without ``doc`` the description is its rule's summary.

A slot may keep for its rule a count of the pass flow that the core updates (``keeps``), while the rule is on:
``PASSERS`` (the seats, a bitmask, that passed since the trick began: the turn skips them; pass_until_flush) or
``PASS_RUN`` (passes in a row since the last play, told to the pass hooks; pass_abort). The core adds to them on
each pass and clears them (``PASSERS`` when a trick begins, ``PASS_RUN`` at each play), never naming the rule.
"""
from __future__ import annotations

from string import Formatter
from typing import Any, Callable, Final, Generic, Mapping, TypeVar

TRICK: Final = "trick"
DEAL: Final = "deal"
MATCH: Final = "match"
LIFETIMES: Final = (TRICK, DEAL, MATCH)
ORDER: Final = "order"
DIRECTION: Final = "direction"
PASSERS: Final = "passers"
PASS_RUN: Final = "pass_run"
# The index of a slot the registry has not numbered: out of every tuple's range, so that reading or writing it
# fails at once (an index of -1 would reach the last slot, another rule's).
UNNUMBERED: Final = 1 << 30
# what a slot may keep of the pass flow (``keeps``), with the lifetime it has: the seats that passed are cleared with
# the trick (and when a new one begins without a flush), passes in a row at each play and with the deal
KEPT: Final[dict[str | None, str]] = {None: "", PASSERS: TRICK, PASS_RUN: DEAL}
MADE: Final[list["Slot"]] = []  # every slot made, in the order made: the registry checks each is some rule's STATE
LANGUAGES: Final = ("en", "ja")  # the languages a slot's words must be given in (the page's)
LOCK_PREFIX: Final = "locks."    # where a lock slot's key lives in the state JSON (its ``locks`` object)
WORD_FIELDS: Final = ("value", "suits", "rule")  # what a template may name ({rule:ID}: another rule's name)


T = TypeVar("T")


def _same(value: Any) -> Any:
    return value


class Slot(Generic[T]):
    """One value (of type T) a rule keeps. ``index`` is its place in its tuple, given by the registry."""
    __slots__ = ("key", "default", "lifetime", "view", "write", "read", "turns", "keeps", "lock", "words", "schema",
                 "doc", "index")
    key: str
    default: T
    lifetime: str
    view: bool
    write: Callable[[Any], Any]     # the value as JSON
    read: Callable[[Any], Any]      # the value from JSON
    turns: str | None               # ORDER or DIRECTION: what a true value turns (None: nothing the core reads)
    keeps: str | None               # PASSERS or PASS_RUN: the pass-flow count the core keeps in it (None: none)
    lock: bool                      # a lock: whatever clears the locks puts it back at its default
    words: dict | None              # {language: template or {value: template}}: how the page says a value
    schema: dict                    # the JSON Schema of the value as JSON (given, or made from the default's JSON)
    doc: str                        # what the value means, as the State schema describes it ("": the rule's summary)
    index: int

    def __init__(self, key: str, default: T, lifetime: str, view: bool = False,
                 write: Callable[[Any], Any] = _same, read: Callable[[Any], Any] = _same,
                 turns: str | None = None, keeps: str | None = None, lock: bool = False,
                 words: Mapping[str, str | Mapping[str, str]] | None = None, schema: Mapping[str, Any] | None = None,
                 doc: str = "") -> None:
        if lifetime not in LIFETIMES:
            raise ValueError(f"slot {key}: lifetime must be one of {', '.join(LIFETIMES)}, not {lifetime!r}")
        if turns not in (None, ORDER, DIRECTION):
            raise ValueError(f"slot {key}: turns must be {ORDER!r}, {DIRECTION!r} or None, not {turns!r}")
        if turns == ORDER and not view:
            raise ValueError(f"slot {key}: a slot that turns the order must enter the view (view=True)")
        if turns is not None and (default is not False or lifetime == MATCH):
            raise ValueError(f"slot {key}: a slot that turns something starts False and ends with the trick or deal")
        if lock and (not key.startswith(LOCK_PREFIX) or lifetime == MATCH):
            raise ValueError(f"slot {key}: a lock's key is under {LOCK_PREFIX!r} and it ends with the trick or deal")
        if lock and words is None:
            raise ValueError(f"slot {key}: a lock says how it is worded (words={{language: template}} in "
                             f"{', '.join(LANGUAGES)}): the page shows it from them")
        if keeps not in KEPT:
            raise ValueError(f"slot {key}: keeps must be {PASSERS!r}, {PASS_RUN!r} or None, not {keeps!r}")
        if keeps is not None and (view or default != 0 or lifetime != KEPT[keeps]):
            raise ValueError(f"slot {key}: a slot keeping {keeps} starts at 0, stays out of the view and lasts a "
                             f"{KEPT[keeps]}")
        self.key, self.default, self.lifetime, self.view = key, default, lifetime, view
        self.write, self.read, self.turns, self.keeps = write, read, turns, keeps
        self.lock = lock
        self.words = None if words is None else _checked_words(key, words)
        self.schema = _schema_of(key, write(default), schema)
        self.doc = doc
        self.index = UNNUMBERED
        MADE.append(self)

    def __repr__(self) -> str:
        return f"Slot({self.key!r})"

    def describe(self, summary: str = "") -> dict:
        """The slot as the catalogue serves it (``GET /v1/rules``, each rule's ``slots``): its key, its default as
        JSON, its lifetime, whether it is a lock, its words and the JSON Schema of its value, described by its
        ``doc`` (or by ``summary``, its rule's, when it has none)."""
        return {"key": self.key, "default": self.write(self.default), "lifetime": self.lifetime, "lock": self.lock,
                "words": self.words, "schema": {**self.schema, "description": self.doc or summary}}


JSON_TYPES: Final = ((bool, "boolean"), (int, "integer"), (str, "string"), (list, "array"))  # bool before int


def _schema_of(key: str, default: Any, given: Mapping[str, Any] | None) -> dict:
    """The JSON Schema of a slot's value: ``given``, else made from its ``default`` as JSON (``JSON_TYPES``); a
    ValueError naming the slot when it cannot be made."""
    if given is not None:
        if not isinstance(given, Mapping) or not given or "description" in given:
            raise ValueError(f"slot {key}: schema must be a JSON Schema (a non-empty mapping; its description is the "
                             f"slot's doc), not {given!r}")
        return dict(given)
    kind = next((name for t, name in JSON_TYPES if isinstance(default, t)), None)
    if kind is None:
        raise ValueError(f"slot {key}: its default is written as {default!r}, whose JSON type cannot be told: give its "
                         'schema (schema={"type": [..., "null"], ...})')
    if kind == "array" and default:
        return {"type": "array", "items": _schema_of(key, default[0], None)}
    return {"type": kind}


def _checked_words(key: str, words: Mapping[str, str | Mapping[str, str]]) -> dict:
    """``words`` as plain dicts, once every language has them, the same values in each, and every template names
    only ``WORD_FIELDS``; a ValueError naming the slot otherwise."""
    if not isinstance(words, Mapping) or set(words) != set(LANGUAGES):
        raise ValueError(f"slot {key}: words must give exactly the languages {', '.join(LANGUAGES)}")
    out: dict = {}
    values = None
    for lang in LANGUAGES:
        said = words[lang]
        templates = dict(said) if isinstance(said, Mapping) else {None: said}
        if values is not None and set(templates) != values:
            raise ValueError(f"slot {key}: words in {lang} must cover the same values as in {LANGUAGES[0]}")
        values = set(templates)
        for template in templates.values():
            if not isinstance(template, str) or not template.strip():
                raise ValueError(f"slot {key}: a template in {lang} must be a non-empty string, not {template!r}")
            for _, field, _, _ in Formatter().parse(template):
                if field is not None and field.split(":")[0] not in WORD_FIELDS:
                    raise ValueError(f"slot {key}: the {lang} template {template!r} names {{{field}}}; a template "
                                     f"may name only {', '.join('{' + f + '}' for f in WORD_FIELDS)}")
        out[lang] = dict(said) if isinstance(said, Mapping) else said
    return out


def number(slots: tuple[Slot, ...]) -> tuple[tuple[Slot, ...], tuple[Slot, ...]]:
    """Give each slot its index: view slots and the others are counted apart. Returns (view slots, others)."""
    keys = [s.key for s in slots]
    if len(set(keys)) != len(keys):
        raise ValueError(f"two rules declare the same slot key: {sorted(k for k in keys if keys.count(k) > 1)}")
    shown = tuple(s for s in slots if s.view)
    others = tuple(s for s in slots if not s.view)
    for group in (shown, others):
        for i, s in enumerate(group):
            s.index = i
    return shown, others


def turning(slots: tuple[Slot, ...], what: str) -> tuple[Slot, ...]:
    """The slots among ``slots`` that turn ``what`` (ORDER or DIRECTION)."""
    return tuple(s for s in slots if s.turns == what)


def kept(slots: tuple[Slot, ...], what: str) -> int:
    """The index of the one slot among ``slots`` that keeps ``what`` (PASSERS or PASS_RUN), or -1 when none does."""
    found = [s.index for s in slots if s.keeps == what]
    if len(found) > 1:
        raise ValueError(f"two slots keep {what}: {[s.key for s in slots if s.keeps == what]}")
    return found[0] if found else -1


def order_turned(order_slots: tuple[Slot, ...], view_slots: tuple) -> bool:
    """Does a slot that turns the order (``order_slots``) hold true among ``view_slots``' values?"""
    for s in order_slots:
        if view_slots[s.index]:
            return True
    return False


def locks(slots: tuple[Slot, ...]) -> tuple[Slot, ...]:
    """The lock slots among ``slots``: what clearing "the locks" puts back at their defaults."""
    return tuple(s for s in slots if s.lock)
def put(values: tuple, index: int, value: Any) -> tuple:
    """``values`` with the one at ``index`` replaced by ``value``."""
    return values[:index] + (value,) + values[index + 1:]


def defaults(slots: tuple[Slot, ...]) -> tuple:
    return tuple(s.default for s in slots)


def lasting(slots: tuple[Slot, ...], lifetimes: tuple) -> tuple[int, ...]:
    """The indices of the slots among ``slots`` whose lifetime is one of ``lifetimes``: those a flush (TRICK) or a
    new deal (TRICK and DEAL) resets."""
    return tuple(s.index for s in slots if s.lifetime in lifetimes)


def reset(values: tuple, defaults: tuple, indices: tuple[int, ...]) -> tuple:
    """``values`` with the slots at ``indices`` (``lasting``) back at their defaults (the same tuple when nothing
    changes); ``defaults``: every slot's."""
    if values == defaults:
        return values
    out: list | None = None
    for i in indices:
        if values[i] != defaults[i]:
            if out is None:
                out = list(values)
            out[i] = defaults[i]
    return values if out is None else tuple(out)
