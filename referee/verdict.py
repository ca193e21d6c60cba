"""The verdict on a proposal: legal or not, why, and which effects fired."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(init=False)
class Verdict:
    """One per proposal. Immutable by convention; a dataclass with a hand-written ``__init__`` (compiled, a
    generated one is interpreted)."""
    __slots__ = ("legal", "reason", "message", "effects", "reading", "void_declarations", "rule", "unchecked")
    legal: bool
    reason: str | None
    message: str
    effects: tuple
    reading: dict | None
    void_declarations: tuple
    rule: str | None              # the rule a rejection comes from
    unchecked: tuple              # table mode: the checks that could not be made

    def __init__(self, legal: bool, reason: str | None = None, message: str = "", effects: tuple = (),
                 reading: dict | None = None, void_declarations: tuple = (), rule: str | None = None,
                 unchecked: tuple = ()) -> None:
        self.legal, self.reason, self.message, self.effects = legal, reason, message, effects
        self.reading, self.void_declarations, self.rule, self.unchecked = reading, void_declarations, rule, unchecked

    def to_json(self) -> dict:
        return verdict_json(self)


def verdict_json(v: Verdict) -> dict:
    """A verdict's JSON (a function: compiled code calls it directly)."""
    return {"legal": v.legal, "reason": v.reason, "message": v.message, "effects": list(v.effects),
            "reading": v.reading or {}, "void_declarations": list(v.void_declarations), "rule": v.rule,
            "unchecked": list(v.unchecked)}


def reject(reason: str, message: str, rule: str | None = None) -> Verdict:
    return Verdict(False, reason, message, (), None, (), rule, ())
