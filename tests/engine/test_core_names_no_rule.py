"""The engine core names no rule id (issue 10): it reaches the rules through hooks and flags (referee/rules/base.py).

A rule id written as a string literal in ``referee/*.py`` (``referee/rules/`` and ``presets.py`` aside) or a rule
module imported by name is a check on that rule, unless it is one of the LABELS below: names that happen to equal
a rule id but do not switch behaviour on the rule. Shape names are no exception: a shape module holds its reader,
its candidate table, its priority and its name (engine-core.md §3.2). Whatever the labels allow, a rule id passed
to ``Ruleset.on``/``params``/``flagged`` or compared with a rule, special play or cut is always a check.
"""
import ast
from pathlib import Path

import referee
from referee.rules import RULES

CORE = Path(referee.__file__).parent
NOT_CORE = ("presets.py", "perft.py")  # the presets are rule data; perft.py checks the engine, drawing switches

ACTION = "the cut_back action of a move or pending decision (and the event kind it logs)"
PHASE = "the exchange phase of a deal"
FIELD = "a State, Ruleset, Reading or JSON field that holds the order or the deck (revolution, jokers)"
CITED = "the rule a core rejection or event cites in its `rule` value / message"
KIND = "an effect's kind (effects.KIND: what it changes), named like the state field it changes"
ANNOTATION = "the legal-moves annotation key forbidden_finish (whether going out with the move ranks from the bottom)"

LABELS = {
    **{(f, "cut_back"): ACTION for f in ("annotate.py", "decisions.py", "engine.py", "legal.py", "moves.py")},
    ("effects.py", "revolution"): KIND,
    **{(f, "forbidden_finish"): ANNOTATION for f in ("annotate.py", "moves.py")},
    **{(f, "exchange"): PHASE for f in ("deals.py", "flow.py", "serialize.py")},
    **{(f, "revolution"): FIELD for f in ("resolution.py", "state.py", "state_fields.py", "view.py")},
    ("ruleset.py", "jokers"): FIELD,
    ("shapes.py", "jokers"): FIELD,             # Reading.jokers: the stand-in readings (its slots name it)
    ("engine.py", "lead_pass"): CITED,          # must_play: passing on an empty field needs lead_pass
    ("flow.py", "forbidden_finish"): CITED,     # a finish ranked from the bottom
    ("play.py", "attach_revolution"): CITED,    # loose cards only an attach revolution joins
    ("play.py", "declarations_required"): CITED,  # an undeclared sequence
}
RULE_OWNERS = ("on", "params", "flagged")           # Ruleset lookups by rule id
RULE_VALUES = ("rule", "special", "cut", "ID")       # attributes that hold a rule id


def _attr(node) -> str | None:
    return node.attr if isinstance(node, ast.Attribute) else None


def rule_names(source: str) -> list[tuple[str, int, bool]]:
    """(rule id, line, always a check) for every rule id the source names: literals and imported rule modules."""
    tree = ast.parse(source)
    checks: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (_attr(node.func) or getattr(node.func, "id", None)) in RULE_OWNERS:
            checks.update(id(a) for a in node.args)
        elif isinstance(node, ast.Compare) and any(_attr(x) in RULE_VALUES for x in [node.left, *node.comparators]):
            checks.update(id(x) for x in [node.left, *node.comparators])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in RULES:
            found.append((node.value, node.lineno, id(node) in checks))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "rules":
            found += [(a.name, node.lineno, True) for a in node.names if a.name in RULES]
    return found


def _core_files():
    return sorted(p for p in CORE.glob("*.py") if p.name not in NOT_CORE)


def _offences(name: str, source: str) -> list[str]:
    return [f"{name}:{line}: {rule!r}" for rule, line, check in rule_names(source)
            if check or (name, rule) not in LABELS]


def test_the_core_names_no_rule_id_but_its_labels():
    offences = [o for p in _core_files() for o in _offences(p.name, p.read_text())]
    assert offences == [], "rule ids named in the core: give the rule a hook or a flag instead\n" + "\n".join(offences)


def test_every_label_is_still_used():
    used = {(p.name, rule) for p in _core_files() for rule, _, _ in rule_names(p.read_text())}
    assert sorted(set(LABELS) - used) == [], "labels no longer named in the core: drop them from LABELS"


def test_a_check_on_a_rule_is_caught_even_where_its_id_is_a_label():
    legal = (CORE / "legal.py").read_text()
    assert _offences("legal.py", legal + '\n\ndef f(rs):\n    return rs.on("eight_cut")\n')
    assert _offences("legal.py", legal + '\n\ndef f(rs):\n    return rs.params("cut_back")\n')
    assert _offences("legal.py", legal + '\n\ndef f(p):\n    return p.rule == "cut_back"\n')
    assert _offences("shapes.py", 'def f(rs):\n    return rs.on("stairs")\n')
    assert _offences("deals.py", "from .rules import exchange\n")
    assert _offences("candidates.py", 'SINGLE_STEP = {"stairs": 1}\n')
    assert _offences("legal.py", legal) == []
