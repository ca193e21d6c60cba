"""The rule contract (referee/contract.py): the registry refuses, at import and by name, a rule module that the
engine would otherwise misread in silence. Each bad module here is written as a contributor might write it, as a
file, imported as a rule module and checked by the validator the registry runs."""
import dataclasses
import importlib.util
import textwrap
from types import MappingProxyType

import pytest

from referee import compiled, legal_moves
from referee.contract import ContractError, check, effect_classes, problems
from referee.rules import DECISION_TERMS, MODULES, RULE_SLOTS, VIEW_SLOTS
from referee.rules.base import flagged
from referee.ruleset import Ruleset, build_ruleset
from referee.slots import DEAL, UNNUMBERED, Slot
from referee.state import replace

from .helpers import game, js, only, play

GOOD = '''
from dataclasses import dataclass
from typing import ClassVar, Final

from ..effects import Effect
from ..resolution import Resolution
from ..slots import TRICK, Slot
from .base import Param, Rejection

ID: Final = "{name}"
NAME_JA = "色縛り"
NAME_EN = "color lock"
SUMMARY = "Two plays of one color lock the trick to that color."
SUMMARY_JA = "同じ色の手が2回続くと、流れるまでその色で出さなければならない。"
PARAMS = {{"strict": Param(False, "an example parameter")}}
DECLARABLE = True
RED: Final = 0b0110
_NULLABLE: Final = {{"type": ["string", "null"]}}  # the schema of a slot whose default is None
'''


def rule_module(tmp_path, name, body):
    """The module ``name`` of ``GOOD``'s lines plus ``body``, imported as a rule module of referee.rules."""
    path = tmp_path / f"{name}.py"
    path.write_text(GOOD.format(name=name) + textwrap.dedent(body))
    spec = importlib.util.spec_from_file_location(f"referee.rules.{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def refused(module, *words):
    """The validator refuses ``module``, naming it and each of ``words``."""
    with pytest.raises(ContractError) as e:
        check([module], [])
    message = str(e.value)
    assert f"rule module {module.__name__}:" in message or f"({module.__name__})" in message, message
    for word in words:
        assert word in message, message
    return message


def test_the_registry_keeps_the_contract():
    assert problems(MODULES) == []
    assert all(s.index != UNNUMBERED for s in VIEW_SLOTS + RULE_SLOTS)


def test_a_well_formed_module_passes(tmp_path):
    module = rule_module(tmp_path, "color_ok", '''
        COLOR: Final = Slot("locks.color_ok", None, TRICK, view=True, schema=_NULLABLE)
        STATE = (COLOR,)

        @dataclass(init=False, unsafe_hash=True)
        class ColorLock(Effect):
            ORDER: ClassVar[int] = 1
            KIND: ClassVar[str] = "lock"
            color: str

            def __init__(self, rule: str, color: str) -> None:
                self.rule, self.color = rule, color

            def fold(self, res: Resolution) -> None:
                res.put(COLOR, self.color)

        def legality(view, params):
            return None

        def after_play(view, params):
            return []
    ''')
    assert problems([module], [module.COLOR]) == []


def test_a_misspelt_hook_is_refused(tmp_path):
    module = rule_module(tmp_path, "color_hook", '''
        def after_paly(view, params):
            return []
    ''')
    refused(module, "after_paly", "after_play")


def test_a_function_taking_a_play_hooks_arguments_under_another_name_is_refused(tmp_path):
    module = rule_module(tmp_path, "color_named", '''
        def on_play(view, params):
            return []
    ''')
    refused(module, "on_play(view, params)", "play hook")


def test_a_hook_taking_the_wrong_arguments_is_refused(tmp_path):
    module = rule_module(tmp_path, "color_arity", '''
        def after_play(view):
            return []
    ''')
    refused(module, "after_play", "2 argument")


def test_a_hook_taking_its_params_as_a_dict_is_refused(tmp_path):
    """Parameters arrive read-only: compiled, a hook annotated to take a dict would refuse them at its first call."""
    module = rule_module(tmp_path, "color_dict", '''
        def legality(view, params: dict):
            return None
    ''')
    refused(module, "legality", "Mapping")


def test_a_misspelt_flag_is_refused(tmp_path):
    module = rule_module(tmp_path, "color_flag", '''
        OPEN_CUT_BACK = True
    ''')
    refused(module, "OPEN_CUT_BACK", "OPENS_CUT_BACK")


def test_a_flag_of_the_wrong_type_is_refused(tmp_path):
    module = rule_module(tmp_path, "color_type", '''
        RANK_CUT = "yes"
    ''')
    refused(module, "RANK_CUT", "bool")


def test_declaring_that_suits_matter_is_refused(tmp_path):
    module = rule_module(tmp_path, "color_suits", '''
        SUITS_MATTER = True
    ''')
    refused(module, "SUITS_MATTER", "derived")


def test_a_slot_left_out_of_state_is_refused(tmp_path):
    """The issue's first mistake: the slot kept index -1 and read jack back's value."""
    module = rule_module(tmp_path, "color_slot", '''
        COLOR: Final = Slot("locks.color_slot", None, TRICK, view=True, schema=_NULLABLE)
        SEEN: Final = Slot("color_slot_seen", 0, TRICK)
        STATE = (SEEN,)
    ''')
    refused(module, "locks.color_slot", "STATE")
    assert module.COLOR.index == UNNUMBERED


def test_a_slot_made_where_no_module_holds_it_is_refused(tmp_path):
    module = rule_module(tmp_path, "color_hidden", '''
        def _make():
            return {"lock": Slot("locks.color_hidden", None, TRICK, view=True, schema=_NULLABLE)}

        KEPT = _make()
    ''')
    with pytest.raises(ContractError, match="locks.color_hidden"):
        check([module], [module.KEPT["lock"]])


def test_an_unnumbered_slot_fails_at_once_instead_of_reading_another_rules_value():
    stray = Slot("stray_value", 0, DEAL)
    st = game("nanko", [["S3"], ["D4"], ["SA"]])
    with pytest.raises(IndexError):
        st.slot(stray)


def test_two_modules_keeping_one_slot_key_are_refused(tmp_path):
    a = rule_module(tmp_path, "color_a", '''
        COLOR: Final = Slot("locks.color_twice", None, TRICK, view=True, schema=_NULLABLE)
        STATE = (COLOR,)
    ''')
    b = rule_module(tmp_path, "color_b", '''
        COLOR: Final = Slot("locks.color_twice", None, TRICK, view=True, schema=_NULLABLE)
        STATE = (COLOR,)
    ''')
    with pytest.raises(ContractError, match="locks.color_twice.*referee.rules.color_a"):
        check([a, b], [])


def test_an_effect_whose_equality_ignores_a_field_is_refused(tmp_path):
    """The issue's case: a field without the dataclass decorator, so C('x', 'red') == C('x', 'black')."""
    module = rule_module(tmp_path, "color_effect", '''
        class ColorLock(Effect):
            ORDER: ClassVar[int] = 1
            KIND: ClassVar[str] = "lock"
            color: str

            def __init__(self, rule: str, color: str) -> None:
                self.rule, self.color = rule, color
    ''')
    if not compiled.running_compiled():  # compiled, an interpreted class cannot be made from a native one's
        assert module.ColorLock("x", "red") == module.ColorLock("x", "black")  # what the contract stops
    refused(module, "ColorLock", "color")


def test_an_effect_whose_init_takes_more_than_its_fields_is_refused(tmp_path):
    module = rule_module(tmp_path, "color_init", '''
        @dataclass(init=False, unsafe_hash=True)
        class ColorLock(Effect):
            ORDER: ClassVar[int] = 1
            KIND: ClassVar[str] = "lock"

            def __init__(self, rule: str, color: str) -> None:
                self.rule = rule
                object.__setattr__(self, "color", color)
    ''')
    refused(module, "ColorLock (referee.rules.color_init).__init__ takes rule, color")


def test_the_pairings_of_hooks_and_flags_are_checked(tmp_path):
    module = rule_module(tmp_path, "color_pairs", '''
        SHAPE = True
        LABEL = "a color run"

        def react(st, event, params):
            return None
    ''')
    refused(module, "SHAPE without read, PRIORITY, RUN_STEP or slots", "REACTS_TO")


def test_a_module_without_its_id_or_with_bad_params_is_refused(tmp_path):
    module = rule_module(tmp_path, "color_params", '''
        PARAMS = {"mode": Param("green", "the color", choices=("red", "black"))}
        del ID
    ''')
    refused(module, "has no ID", "choices must be a tuple holding the default 'green'")


def test_a_module_without_its_words_in_both_languages_is_refused(tmp_path):
    """The English gloss of the name and the Japanese summary are the module's, as the Japanese name and the English
    summary are: GET /v1/rules serves them and the page shows them, so none may be missing, of another type or
    empty."""
    module = rule_module(tmp_path, "color_words", '''
        del NAME_EN
        SUMMARY_JA = ["流れるまでその色"]
    ''')
    refused(module, "has no NAME_EN", "SUMMARY_JA must be a str, not list")
    module = rule_module(tmp_path, "color_blank", '''
        NAME_EN = "  "
    ''')
    refused(module, "NAME_EN must not be empty")


def test_asking_for_an_unknown_flag_is_an_error_not_an_empty_answer():
    assert "eight_cut" in flagged("RANK_CUT")
    with pytest.raises(ValueError, match="RANK_CUTS"):
        flagged("RANK_CUTS")


def test_the_hooks_read_their_parameters_read_only():
    rules = build_ruleset("nanko", {"eight_cut": {"normal_only": True}})
    params = rules.params("eight_cut")
    assert isinstance(params, MappingProxyType) and params == {"normal_only": True}
    with pytest.raises(TypeError):
        params["normal_only"] = False  # type: ignore[index]
    seen = []

    def peek(view, params):  # a hook that tries to change its rule's parameters
        seen.append(params)
        params["normal_only"] = False
        return []

    rs = Ruleset(rules.preset, {rid: rules.params(rid) for rid in rules.to_json()["rules"] if rules.on(rid)})
    rs.play_hooks = rs.play_hooks + (("peeking_rule", peek, rs.params("eight_cut")),)
    st = replace(game("nanko", [["S3", "H8"], ["D4"], ["SA"]]), rules=rs)
    with pytest.raises(TypeError):
        play(st, 0, "S3")
    assert seen and build_ruleset("nanko", {"eight_cut": {"normal_only": True}}).params("eight_cut")["normal_only"]


def _values(kind) -> tuple:
    """Two different values of a field's type (its annotation, a string under ``from __future__``)."""
    name = kind if isinstance(kind, str) else getattr(kind, "__name__", str(kind))
    if name.startswith("bool"):
        return False, True
    if name.startswith("int"):
        return 1, 2
    if name.startswith("str"):
        return "a", "b"
    if name.startswith("tuple"):
        return (), (1,)
    raise AssertionError(f"no sample values for a field of type {kind!r}: add them here")


@pytest.mark.parametrize("cls", [c for c in effect_classes(MODULES)], ids=lambda c: c.__name__)
def test_every_effect_class_differs_when_any_field_differs(cls):
    fields = [f for f in dataclasses.fields(cls) if not f.name.isupper()]  # compiled, the ClassVars are listed too
    base = {f.name: _values(f.type)[0] for f in fields}
    one = cls(**base)
    assert one == cls(**base) and hash(one) == hash(cls(**base))
    for f in fields:
        other = cls(**{**base, f.name: _values(f.type)[1]})
        assert one != other, f"{cls.__name__} ignores {f.name}"
    if cls.__subclasses__():
        for sub in cls.__subclasses__():
            if sub in effect_classes(MODULES) and [g.name for g in dataclasses.fields(sub)] == [g.name for g in
                                                                                dataclasses.fields(cls)]:
                assert cls(**base) != sub(**base), f"{sub.__name__} equals {cls.__name__}"


@pytest.mark.parametrize("cls", sorted(set(DECISION_TERMS.values()), key=lambda c: c.__name__),
                         ids=lambda c: c.__name__)
def test_every_terms_class_differs_when_any_field_differs(cls):
    """A pending decision is compared (State equality, replay equals live) with its terms: by every field."""
    fields = [f for f in dataclasses.fields(cls) if not f.name.isupper()]
    base = {f.name: _values(f.type)[0] for f in fields}
    one = cls(**base)
    assert one == cls(**base) and hash(one) == hash(cls(**base))
    for f in fields:
        assert one != cls(**{**base, f.name: _values(f.type)[1]}), f"{cls.__name__} ignores {f.name}"


def test_passes_sitting_out_need_a_slot_of_the_seats_that_passed(tmp_path):
    module = rule_module(tmp_path, "color_sits", """
        PASSES_SIT_OUT = True
    """)
    refused(module, "PASSES_SIT_OUT without a slot keeping the seats that passed")


def test_terms_left_out_of_terms_or_two_for_one_action_are_refused(tmp_path):
    module = rule_module(tmp_path, "color_terms", """
        from ..terms import Terms

        @dataclass(init=False, unsafe_hash=True)
        class Colored(Terms):
            ACTION: ClassVar[str] = "give"
            color: str

            def __init__(self, color: str) -> None:
                self.color = color

        class Shaded(Terms):
            ACTION: ClassVar[str] = "give"
            shade: str

        @dataclass(init=False, unsafe_hash=True)
        class Forgotten(Terms):
            ACTION: ClassVar[str] = "discard"

        TERMS = (Colored, Shaded)
    """)
    refused(module, "defines the terms Forgotten but its TERMS leaves them out",
            "TERMS lists two classes for the action 'give'", "terms Shaded has field(s) shade that its equality ignores")


# What the issue found: a rule without SUITS_MATTER made legal_moves merge the joker's readings by suit, listing
# no play while apply accepted H9+JK1 with the joker as ♦9. A rule reading colors now needs no declaration.
def _red_only(view, params):
    from referee.rules.base import Rejection
    black = 0b1001  # ♠ and ♣
    return Rejection("locked", "red only (a color rule)", "color_rule") if view.reading.suits & black else None


def test_a_rule_reading_suits_undeclared_still_gets_every_joker_reading_listed():
    st = game("nanko", [["H9", "JK1", "C4"], ["D4", "S5"], ["SA", "HQ"]], only("nanko"))
    rs = st.rules
    rs = Ruleset(rs.preset, {rid: rs.params(rid) for rid in rs.to_json()["rules"] if rs.on(rid)})
    rs.legality_hooks = rs.legality_hooks + ((_red_only, MappingProxyType({})),)
    st = replace(st, rules=rs)
    listed = [m for m in legal_moves(st, 0) if sorted(m.get("cards", [])) == ["H9", "JK1"]]
    assert listed == [{"seat": 0, "action": "play", "cards": ["H9", "JK1"], "as": {"JK1": "D9"}}]
    v, after = play(st, 0, "H9", "JK1")
    assert v.reading == {"JK1": "D9"} and js(after)["field"]["as"] == {"JK1": "D9"}
