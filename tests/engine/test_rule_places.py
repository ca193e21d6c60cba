"""The places a rule shows up that nothing else checks (docs/adding-a-rule.md, "Every place a rule shows up"):
a module file left out of the registry, a rule without its docs row, a rule no scenario test names."""
import re
from pathlib import Path

from referee.rules import MODULES, RULES

ROOT = Path(__file__).resolve().parents[2]
NOT_RULES = {"__init__", "base"}  # the registry and the rules' shared parts
# tests that draw or name every rule whatever it does: they are no scenario of any one rule
NOT_SCENARIOS = {"test_properties.py", "test_perft.py", "test_contract.py", "test_core_names_no_rule.py",
                 "test_rule_places.py", "test_lock_slots.py"}


def test_every_rule_module_is_registered():
    files = {p.stem for p in (ROOT / "referee" / "rules").glob("*.py")} - NOT_RULES
    registered = {m.__name__.rsplit(".", 1)[1] for m in MODULES}
    assert files - registered == set(), "rule modules missing from MODULES in referee/rules/__init__.py"


def test_every_rule_has_its_row_in_the_rules_doc():
    rows = set(re.findall(r"^\| ([a-z0-9_]+) \|", (ROOT / "docs" / "rules.md").read_text(), re.M))
    assert set(RULES) - rows == set(), "rules without a row in docs/rules.md"


def test_every_rule_is_named_by_a_scenario_test():
    texts = [p.read_text() for p in (ROOT / "tests" / "engine").glob("test_*.py") if p.name not in NOT_SCENARIOS]
    unnamed = {rid for rid in RULES if not any(f'"{rid}"' in t or f"{rid}=" in t for t in texts)}
    assert unnamed == set(), "rules no scenario test in tests/engine switches on or checks by name"


def test_the_worked_example_is_the_whole_color_lock_module():
    """docs/adding-a-rule.md shows referee/rules/color_lock.py whole (its words, its slot's schema): it must be the
    module as it is."""
    doc = (ROOT / "docs" / "adding-a-rule.md").read_text()
    shown = doc.split("## The worked example", 1)[1].split("```python\n", 1)[1].split("```\n", 1)[0]
    assert shown == (ROOT / "referee" / "rules" / "color_lock.py").read_text()
