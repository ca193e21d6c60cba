"""The rule contract, checked when the registry is imported: a rule module that breaks it is refused at import,
with a message naming the module and what is wrong, instead of being ignored where the engine would have used it.

What a rule module must and may define (docs/adding-a-rule.md; docs/engine-api.md lists every hook and flag):

- ``ID``, ``NAME_JA``, ``NAME_EN`` (the English gloss of the Japanese name), ``SUMMARY``, ``SUMMARY_JA`` (the
  summary in Japanese) (non-empty strings: ``GET /v1/rules`` serves them and the page shows them) and ``PARAMS`` (a
  mapping of names to ``rules.base.Param``, whose choices are tuples and whose default is one of them);
- hooks (``HOOKS``), each taking its number of arguments, and flags (``FLAGS``), each of its type. A public function
  of the module whose name is near a hook's (``after_paly``), or that takes a play hook's arguments (``view``
  first, ``params`` last) without being one, and an upper-case name near a flag's (``DECLARBLE``) are refused:
  the engine would never call or read them. Some hooks and flags go together (``SHAPE`` needs ``read``,
  ``PRIORITY``, ``LABEL`` and ``RUN_STEP`` or ``slots``; ``react`` and ``REACTS_TO``; ``JOINS_FIELD`` needs
  ``special_play`` and ``candidates``; ``ALIAS`` and ``ALIAS_WHILE``; ``ON_FINISH_ORDER`` needs ``Finished`` in
  ``REACTS_TO``);
- slots (referee/slots.py): every slot made registers itself (``slots.MADE``), and each must be in exactly one
  rule module's ``STATE``; a slot left out would keep no index and reach another rule's value. A rule whose passes
  sit out (``PASSES_SIT_OUT``) keeps the seats that passed in a slot of its own (``keeps=PASSERS``), and only it;
- terms (referee/terms.py): ``TERMS`` lists ``Terms`` classes, one per action, each comparing by all its fields
  like an effect (a dataclass);
- effects (referee/effects.py): every ``Effect`` class compares by all its fields, that is, it is a dataclass
  whose fields are every annotated field and every argument of its ``__init__``, with equality and a hash made
  from them (``@dataclass(init=False, unsafe_hash=True)`` beside a hand-written ``__init__``); its constants are
  upper-case ClassVars (``ORDER``, ``KIND``, ``QUIET``), its fields lower case.

Parameters reach the hooks read-only (``Ruleset`` hands each rule a ``MappingProxyType`` of its values), and whether
the suits jokers stand for matter is nobody's declaration: legal_moves never merges readings that differ in a suit.
"""
from __future__ import annotations

import dataclasses
import difflib
import inspect
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Iterable

from .effects import Effect
from .flow_events import Dealt, FieldCut, Finished, Given, GiveProposed, Passed, PlacesFinal
from .rules.base import Param
from .slots import PASSERS, Slot
from .terms import Terms
from .view import TABLE_FIELDS


class ContractError(Exception):
    """Rule modules that break the rule contract: one line per mistake, each naming its module."""


REQUIRED: dict[str, type | tuple] = {"ID": str, "NAME_JA": str, "NAME_EN": str, "SUMMARY": str, "SUMMARY_JA": str,
                                     "PARAMS": Mapping}
# hook -> how many arguments the engine passes it (read and slots: a shape module's reader and candidate table)
HOOKS: dict[str, int] = {"legality": 2, "special_play": 2, "after_play": 2, "finish_verdict": 3, "candidates": 3,
                         "required_cards": 3, "new_deal": 3, "react": 3, "settings": 1, "narrate": 3,
                         "read": 6, "slots": 0}
PLAY_HOOKS = ("legality", "special_play", "after_play", "finish_verdict")
# flag -> its type; the true-or-false ones are what ``rules.base.flagged`` may be asked about
FLAGS: dict[str, type | tuple] = {
    "STATE": tuple, "DECLARABLE": bool, "SHAPE": bool, "PRIORITY": int, "LABEL": str, "RUN_STEP": int,
    "JOINS_FIELD": bool, "FLUSHES_ON_FINISH": bool, "LEAD_MAY_PASS": bool, "PASSES_SIT_OUT": bool,
    "DECLARATIONS_REQUIRED": bool, "OPENS_CUT_BACK": bool, "RANK_CUT": bool, "FINISH_EXEMPT": bool,
    "REACTS_TO": tuple, "ON_FINISH_ORDER": int, "DECLINE_RANK": int, "ALIAS": str, "ALIAS_WHILE": str,
    "TERMS": tuple}
TRUE_OR_FALSE = frozenset(name for name, kind in FLAGS.items() if kind is bool)
EVENTS = (Dealt, Passed, FieldCut, Finished, PlacesFinal, GiveProposed, Given)  # what REACTS_TO may list
# names a rule once set and the engine no longer reads, with what replaced them
RETIRED = {"SUITS_MATTER": "whether suits matter is derived, not declared: legal_moves never merges joker readings "
                           "that differ in a suit"}
NEAR = 0.8  # how alike (difflib's ratio) an unknown name and a hook's or flag's must be to be taken for a misspelling


def _problems_of(module: ModuleType) -> list[str]:
    """What ``module`` gets wrong of the contract (its slots and effects are checked with the registry's)."""
    out: list[str] = []
    names = vars(module)
    for name, kind in REQUIRED.items():
        if name not in names:
            out.append(f"has no {name}")
        elif not isinstance(names[name], kind):
            out.append(f"{name} must be a {kind.__name__ if isinstance(kind, type) else kind}, "
                       f"not {type(names[name]).__name__}")
        elif kind is str and not names[name].strip():
            out.append(f"{name} must not be empty (GET /v1/rules serves it; the page shows it)")
    for name, value in names.items():
        if name.startswith("_") or name in REQUIRED:
            continue
        if name in HOOKS:
            out += _hook_problems(name, value)
        elif name in FLAGS:
            kind = FLAGS[name]
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                out.append(f"flag {name} must be a {kind.__name__ if isinstance(kind, type) else kind}, "
                           f"not {value!r}")
        elif name in RETIRED:
            out.append(f"sets {name}, which the engine no longer reads: {RETIRED[name]}")
        else:
            out += _stray_problems(module, name, value)
    if isinstance(names.get("PARAMS"), Mapping):
        out += _params_problems(names["PARAMS"])
    return out + _pairing_problems(names)


def _hook_problems(name: str, value: Any) -> list[str]:
    if not callable(value):
        return [f"hook {name} must be a function, not {value!r}"]
    taken = _arguments(value)
    if taken is not None and not taken[0] <= HOOKS[name] <= taken[1]:
        return [f"hook {name} must take {HOOKS[name]} argument(s), not {taken[1]}"]
    try:
        params = inspect.signature(value).parameters.get("params")
    except (TypeError, ValueError):
        params = None
    if params is not None and (params.annotation is dict or str(params.annotation).startswith("dict")):
        return [f"hook {name} annotates its params dict: they arrive read-only, annotate them Mapping (compiled, "
                "a dict annotation refuses them)"]
    return []


def _arguments(fn) -> tuple[int, int] | None:
    """(fewest, most) positional arguments ``fn`` takes; None when it cannot be told (a compiled function)."""
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return 0, 99
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return sum(1 for p in positional if p.default is p.empty), len(positional)


def _stray_problems(module: ModuleType, name: str, value: Any) -> list[str]:
    """A public name the contract does not know: refused when the engine would take it for a hook or a flag."""
    if callable(value) and not isinstance(value, type):
        if getattr(value, "__module__", None) != module.__name__:
            return []  # imported
        near = difflib.get_close_matches(name, HOOKS, 1, NEAR)
        if near:
            return [f"defines {name}, which is no hook: is it a misspelt {near[0]}? (hooks: {', '.join(HOOKS)})"]
        try:
            parameters = list(inspect.signature(value).parameters)
        except (TypeError, ValueError):
            return []
        if len(parameters) >= 2 and parameters[0] == "view" and parameters[-1] == "params":
            return [f"defines {name}({', '.join(parameters)}), which takes a play hook's arguments but is no hook: "
                    f"name it {', '.join(PLAY_HOOKS)}, or make it private (_{name})"]
        return []
    if name.isupper():
        near = difflib.get_close_matches(name, FLAGS, 1, NEAR)
        if near:
            return [f"sets {name}, which is no flag: is it a misspelt {near[0]}? (flags: {', '.join(FLAGS)})"]
    return []


def _params_problems(params: Mapping) -> list[str]:
    out = []
    for name, spec in params.items():
        if not isinstance(name, str) or not isinstance(spec, Param):
            out.append(f"PARAMS[{name!r}] must be a rules.base.Param under a string name")
        elif spec.choices is not None and (not isinstance(spec.choices, tuple) or spec.default not in spec.choices):
            out.append(f"parameter {name}: choices must be a tuple holding the default {spec.default!r}")
        elif not isinstance(spec.default, (bool, int, str)):
            out.append(f"parameter {name}: its default must be true or false, a whole number or a string, "
                       f"not {spec.default!r}")
    return out


def _pairing_problems(names: dict) -> list[str]:
    """Hooks and flags that go together."""
    out = []

    def has(name: str) -> bool:
        return name in names

    if names.get("SHAPE"):
        missing = [n for n in ("read", "PRIORITY", "LABEL") if not has(n)]
        if not has("RUN_STEP") and not has("slots"):
            missing.append("RUN_STEP or slots")
        if missing:
            out.append(f"is a SHAPE without {', '.join(missing)}")
    else:
        stray = [n for n in ("read", "slots", "PRIORITY", "LABEL", "RUN_STEP") if has(n)]
        if stray:
            out.append(f"sets {', '.join(stray)}, which only a shape reads: set SHAPE = True")
    if has("react") != bool(names.get("REACTS_TO")):
        out.append("has a react hook without the events it is told (REACTS_TO)" if has("react") else
                   "lists REACTS_TO without a react hook")
    events = names.get("REACTS_TO", ())
    if isinstance(events, tuple) and not all(e in EVENTS for e in events):
        out.append(f"REACTS_TO must list events of referee/flow_events.py ({', '.join(e.__name__ for e in EVENTS)})")
    if has("ON_FINISH_ORDER") and Finished not in events:
        out.append("sets ON_FINISH_ORDER but is not told Finished (REACTS_TO)")
    if names.get("JOINS_FIELD") and not (has("special_play") and has("candidates")):
        out.append("sets JOINS_FIELD without both special_play and candidates")
    if has("ALIAS") != has("ALIAS_WHILE"):
        out.append("sets one of ALIAS and ALIAS_WHILE without the other")
    if has("ALIAS_WHILE") and names["ALIAS_WHILE"] not in TABLE_FIELDS + ("reversed",):
        out.append(f"ALIAS_WHILE must name a Table value ({', '.join(TABLE_FIELDS + ('reversed',))}), "
                   f"not {names['ALIAS_WHILE']!r}")
    if has("DECLINE_RANK") and not (isinstance(names["DECLINE_RANK"], int) and 0 <= names["DECLINE_RANK"] <= 12):
        out.append("DECLINE_RANK must be a rank, 0 (3) to 12 (2)")
    state = names.get("STATE", ())
    keeps_passers = isinstance(state, tuple) and any(isinstance(s, Slot) and s.keeps == PASSERS for s in state)
    if bool(names.get("PASSES_SIT_OUT")) != keeps_passers:
        out.append("sets PASSES_SIT_OUT without a slot keeping the seats that passed (keeps=PASSERS) in its STATE"
                   if not keeps_passers else "keeps the seats that passed (keeps=PASSERS) without PASSES_SIT_OUT")
    return out + _terms_problems(names)


def _terms_problems(names: dict) -> list[str]:
    """TERMS: Terms classes (referee/terms.py), one per action, each comparing by all its fields; and every Terms
    class the module defines among them (the state JSON reads a decision's terms back by its rule's TERMS)."""
    terms = names.get("TERMS", ())
    if not isinstance(terms, tuple):
        return []
    out = [f"defines the terms {name} but its TERMS leaves them out: add them to TERMS (the state JSON could not "
           "read them back)" for name, value in names.items()
           if isinstance(value, type) and issubclass(value, Terms) and value.__module__ == names.get("__name__")
           and value not in terms]
    actions: list[str] = []
    for cls in terms:
        if not (isinstance(cls, type) and issubclass(cls, Terms)) or cls is Terms:
            out.append(f"TERMS must list classes of referee/terms.py's Terms, not {cls!r}")
            continue
        if not cls.ACTION:
            out.append(f"terms {cls.__name__} name no ACTION (the action of the decisions that carry them)")
        elif cls.ACTION in actions:
            out.append(f"TERMS lists two classes for the action {cls.ACTION!r}: one per action")
        actions.append(cls.ACTION)
        out += compare_problems(cls, Terms, f"terms {cls.__name__}")
    return out


def slot_problems(modules: Iterable[ModuleType], made: Iterable[Slot]) -> list[str]:
    """Every slot in exactly one module's STATE: those the modules hold or that were ever ``made`` included."""
    out: list[str] = []
    owner: dict[int, ModuleType] = {}
    for m in modules:
        state = getattr(m, "STATE", ())
        for s in state if isinstance(state, tuple) else ():
            if not isinstance(s, Slot):
                out.append(f"rule module {m.__name__}: STATE must list Slots (referee/slots.py), not {s!r}")
            elif id(s) in owner:
                out.append(f"rule module {m.__name__}: STATE lists {s!r}, which is {owner[id(s)].__name__}'s")
            else:
                owner[id(s)] = m
    keys: dict[str, ModuleType] = {}
    for key_id, m in owner.items():
        slot = next(s for s in m.STATE if id(s) == key_id)
        if slot.key in keys:
            out.append(f"rule module {m.__name__}: slot key {slot.key!r} is {keys[slot.key].__name__}'s already")
        keys[slot.key] = m
    held: dict[int, ModuleType] = {}
    for m in modules:
        for name, value in vars(m).items():
            if isinstance(value, Slot) and id(value) not in owner:
                out.append(f"rule module {m.__name__}: makes slot {value.key!r} ({name}) but its STATE leaves it "
                           f"out: add it to STATE (an unlisted slot has no place in the state)")
                held[id(value)] = m
    for s in made:
        if id(s) not in owner and id(s) not in held:
            out.append(f"a slot {s.key!r} was made but no rule module lists it in its STATE")
    return out


def effect_classes(modules: Iterable[ModuleType]) -> list[type]:
    """Every Effect class of referee/effects.py and of ``modules``: those they define, and those the classes of
    either define beneath them there."""
    homes = {Effect.__module__} | {m.__name__ for m in modules}
    found: list[type] = []
    todo = [Effect]
    while todo:
        cls = todo.pop()
        if cls not in found and cls.__module__ in homes:
            found.append(cls)
        todo.extend(c for c in cls.__subclasses__() if c not in found)
    return found


def effect_problems(cls: type) -> list[str]:
    """How the Effect class ``cls`` fails to compare by all its fields (or to be an effect)."""
    where = f"effect {cls.__name__} ({cls.__module__})"
    out = compare_problems(cls, Effect, where)
    if dataclasses.is_dataclass(cls) and (not isinstance(getattr(cls, "ORDER", None), int)
                                          or not isinstance(getattr(cls, "KIND", None), str)):
        out.append(f"{where}: ORDER must be a whole number and KIND a string (ClassVar)")
    return out


def compare_problems(cls: type, base: type, where: str) -> list[str]:
    """How ``cls`` (an Effect or Terms class, ``base``) fails to compare by all its fields."""
    if not dataclasses.is_dataclass(cls):
        return [f"{where} must be a dataclass: @dataclass(init=False, unsafe_hash=True)"]
    fields = _fields(cls)
    out = []
    annotated = {name for c in cls.__mro__ if issubclass(c, base)
                 for name, kind in vars(c).get("__annotations__", {}).items()
                 if "ClassVar" not in str(kind) and not name.isupper()}
    unseen = sorted(annotated - set(fields))
    if unseen:
        out.append(f"{where} has field(s) {', '.join(unseen)} that its equality ignores: declare it "
                   "@dataclass(init=False, unsafe_hash=True)")
    taken = _init_arguments(cls)
    if taken is not None and set(taken) != set(fields):
        out.append(f"{where}.__init__ takes {', '.join(taken)} but it compares by {', '.join(fields)}: every "
                   "argument must be a field (declare it in the class, @dataclass(init=False, unsafe_hash=True))")
    compares = next(c for c in cls.__mro__ if "__eq__" in vars(c))
    if not dataclasses.is_dataclass(compares) or _fields(compares) != fields:
        out.append(f"{where} compares by {compares.__name__}'s __eq__, not by all its fields")
    if cls.__hash__ is None:
        out.append(f"{where} has no hash: @dataclass(init=False, unsafe_hash=True)")
    return out


def _fields(cls: type) -> list[str]:
    """The fields an effect is compared by: its dataclass fields but the upper-case ClassVars (ORDER, KIND, QUIET),
    which a compiled dataclass lists among them."""
    return [f.name for f in dataclasses.fields(cls) if not f.name.isupper()]


def _init_arguments(cls: type) -> list[str] | None:
    """The arguments ``cls`` is made with, or None when they cannot be told (a compiled class)."""
    try:
        return list(inspect.signature(cls).parameters)
    except (TypeError, ValueError):
        return None


def problems(modules: Iterable[ModuleType], made: Iterable[Slot] = ()) -> list[str]:
    """Every breach of the contract by ``modules`` (and the slots ``made``), one line each naming its module."""
    modules = tuple(modules)
    out = [f"rule module {m.__name__}: {p}" for m in modules for p in _problems_of(m)]
    ids = [getattr(m, "ID", None) for m in modules]
    out += [f"rule module {m.__name__}: ID {m.ID!r} is another module's too" for m in modules
            if ids.count(getattr(m, "ID", None)) > 1]
    out += slot_problems(modules, made)
    for cls in effect_classes(modules):
        out += effect_problems(cls)
    return out


def check(modules: Iterable[ModuleType], made: Iterable[Slot] = ()) -> None:
    """Refuse ``modules`` (a registry) if any breaks the contract: ContractError, one line per mistake."""
    found = problems(modules, made)
    if found:
        raise ContractError("the rule contract is broken (referee/contract.py, docs/adding-a-rule.md):\n  "
                            + "\n  ".join(found))
