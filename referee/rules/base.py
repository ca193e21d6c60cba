"""What every rule module shares: parameter specs and the context a hook receives.

A rule module defines ``ID``, ``NAME_JA``, ``SUMMARY``, ``PARAMS`` and any of the hooks and flags the engine
reads (docs/engine-api.md, "Adding a rule", lists them all): play hooks (``legality``, ``special_play``,
``after_play``, ``special_candidates``, ``extra_candidates``, ``required_cards``, ``declines``, ``finish_verdict``), flow hooks
(``leader``, ``deal_queue``, ``exchange_counts``, ``breaks_ties``, ``after_pass``, ``on_cut``, ``on_finish``),
ruleset hooks (``settings``, ``field_shapes``) and flags (``DECLARABLE``, ``SHAPE``, ``SUITS_MATTER``, …).
``Ruleset`` collects each hook of the rules switched on as ``(module, params)`` in registry order; the engine core
calls them and never names a rule id. Play hooks return effects or rejections and never change state. A rule
refers to other rules by a flag they set (``Ruleset.flagged``), not by their ids.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..shapes import Reading
from ..state import State


@dataclass(frozen=True)
class Param:
    default: Any
    help: str
    choices: tuple | None = None
    lo: int | None = None
    hi: int | None = None

    def check(self, rule_id: str, name: str, value):
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise InputError("bad_rules", f"{rule_id}.{name} must be true or false, not {value!r}")
        elif isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError("bad_rules", f"{rule_id}.{name} must be a whole number, not {value!r}")
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                raise InputError("bad_rules", f"{rule_id}.{name} must be between {self.lo} and {self.hi}, not {value}")
        if self.choices is not None and value not in self.choices:
            raise InputError("bad_rules", f"{rule_id}.{name} must be one of {', '.join(map(str, self.choices))}, "
                             f"not {value!r}")
        return value

    def describe(self) -> dict:
        out = {"default": self.default, "help": self.help,
               "type": "boolean" if isinstance(self.default, bool) else
               "integer" if isinstance(self.default, int) else "string"}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.lo is not None:
            out["min"], out["max"] = self.lo, self.hi
        return out


class PlayContext:
    """What a rule sees of a play being judged: the state before it, and the play. Immutable by convention (nobody
    writes it after it is built); a plain class with slots because judging builds several per play: compiled, it
    is a native class, built by a direct call and read field by field, where a named tuple's fields are looked up
    by name."""
    __slots__ = ("state", "seat", "reading", "field", "reversed", "declared", "declined", "special", "left_after",
                 "as_map")
    state: State              # the state before the play
    seat: int
    reading: Reading          # the played cards as read
    field: Reading | None     # the field before the play
    reversed: bool            # order in force before the play
    declared: frozenset
    declined: frozenset
    special: str | None       # the special play rule that admitted it (sandstorm, spade3, attach_revolution)
    left_after: int           # how many cards the player holds once the cards are played
    as_map: tuple             # the joker readings the proposal asked for ((joker, rank, suit or -1), ...)

    def __init__(self, state: State, seat: int, reading: Reading, field: Reading | None, reversed: bool,
                 declared: frozenset, declined: frozenset, special: str | None, left_after: int,
                 as_map: tuple = ()) -> None:
        self.state, self.seat, self.reading, self.field, self.reversed = state, seat, reading, field, reversed
        self.declared, self.declined, self.special, self.left_after, self.as_map = (declared, declined, special,
                                                                                   left_after, as_map)

    def params(self, rule_id):
        return self.state.rules.params(rule_id)

    def declaring(self, declared: frozenset) -> "PlayContext":
        """The same play with other declarations."""
        return PlayContext(self.state, self.seat, self.reading, self.field, self.reversed, declared, self.declined,
                           self.special, self.left_after, self.as_map)


class Rejection:
    """Why a play or decision is not legal (the verdict's reason, message and rule). Immutable by convention; a
    plain class with slots, not a frozen dataclass: compiled, a frozen dataclass is built through its generated,
    interpreted __init__ (a listing builds one per reading a rule turns down)."""
    __slots__ = ("reason", "message", "rule")
    reason: str
    message: str
    rule: str | None

    def __init__(self, reason: str, message: str, rule: str | None = None) -> None:
        self.reason, self.message, self.rule = reason, message, rule

    def __eq__(self, other: object) -> bool:
        return (type(other) is Rejection and self.reason == other.reason and self.message == other.message
                and self.rule == other.rule)

    def __hash__(self) -> int:
        return hash((self.reason, self.message, self.rule))

    def __repr__(self) -> str:
        return f"Rejection(reason={self.reason!r}, message={self.message!r}, rule={self.rule!r})"
