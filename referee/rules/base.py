"""What every rule module shares: parameter specs and the context a hook receives.

A rule module defines ``ID``, ``NAME_JA``, ``SUMMARY``, ``PARAMS`` and any of the hooks and flags the engine
reads (docs/adding-a-rule.md, "The hooks", lists them all): play hooks (``legality``, ``special_play``,
``after_play``, ``finish_verdict``), listing hooks (``candidates``, ``required_cards``), the deal hook (``new_deal``),
the flow hook (``react``, told the events of referee/flow_events.py its module lists in ``REACTS_TO``), the ruleset
hook (``settings``: ruleset values, and facts about the rule such as ``declinable``), the presentation hook
(``narrate``) and flags (``DECLARABLE``, ``SHAPE``, ``OPENS_CUT_BACK``, …). The registry checks every module
against this contract when it is imported (referee/contract.py).
``Ruleset`` collects each hook of the rules switched on with its params in registry order; the engine core
calls them and never names a rule id. Play hooks return effects or rejections and never change state. A rule
refers to other rules by a flag they set (``Ruleset.flagged``), not by their ids.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InputError


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


_FLAGGED: dict[str, frozenset] = {}


def flagged(flag: str) -> frozenset:
    """The ids of the rules whose module sets ``flag``: how one rule refers to others without naming them. A flag
    the contract does not know is an error, not an empty answer."""
    got = _FLAGGED.get(flag)
    if got is None:
        from ..contract import TRUE_OR_FALSE
        from . import MODULES  # the registry imports every rule module, this one first
        if flag not in TRUE_OR_FALSE:
            raise ValueError(f"{flag} is no flag a rule sets true (referee/contract.py: {', '.join(sorted(TRUE_OR_FALSE))})")
        got = _FLAGGED[flag] = frozenset(m.ID for m in MODULES if getattr(m, flag, False))
    return got


@dataclass(init=False, unsafe_hash=True)
class Rejection:
    """Why a play or decision is not legal (the verdict's reason, message and rule). Immutable by convention; the
    ``__init__`` is hand-written because compiled, a dataclass's generated one is interpreted (a listing builds one
    per reading a rule turns down)."""
    __slots__ = ("reason", "message", "rule")
    reason: str
    message: str
    rule: str | None

    def __init__(self, reason: str, message: str, rule: str | None = None) -> None:
        self.reason, self.message, self.rule = reason, message, rule
