"""State as a class of its own (a native class when compiled): its one field list, copies, equality.

``state.SCHEMA`` declares the fields. ``State``'s annotations, ``__init__`` and ``clone`` name every field again,
by hand, for speed (compiled, a starred or generated constructor is slower and is not compiled): each is checked
against SCHEMA here, from the source, so that a field added to one and not another fails with its name."""
import ast
from pathlib import Path

import pytest

import referee.state
from referee import new_game
from referee.compiled import running_compiled
from referee.state import FIELD_NAMES, SCHEMA, State, copied, replace


def _state():
    return new_game("gekifugo", None, ["a", "b", "c", "d"], 5)[0]


def _state_class() -> ast.ClassDef:
    tree = ast.parse((Path(referee.state.__file__).parent / "state.py").read_text())  # the source, also when compiled
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "State")


def _method(name: str) -> ast.FunctionDef:
    return next(n for n in _state_class().body if isinstance(n, ast.FunctionDef) and n.name == name)


def _order_problems(where: str, names: list[str]) -> list[str]:
    """How ``names`` (as ``where`` lists them) differ from SCHEMA's fields in order: each missing, extra or
    misplaced name."""
    out = [f"{where} lacks the field {n!r}" for n in FIELD_NAMES if n not in names]
    out += [f"{where} has {n!r}, which SCHEMA does not declare" for n in names if n not in FIELD_NAMES]
    if not out and names != list(FIELD_NAMES):
        first = next(i for i, (a, b) in enumerate(zip(names, FIELD_NAMES)) if a != b)
        out.append(f"{where} has {names[first]!r} where SCHEMA has {FIELD_NAMES[first]!r} (position {first})")
    return out


def test_the_schema_names_each_field_once_and_says_what_it_holds():
    assert FIELD_NAMES == tuple(name for name, _ in SCHEMA)
    assert len(FIELD_NAMES) == len(set(FIELD_NAMES))
    assert all(isinstance(doc, str) and doc for _, doc in SCHEMA)


def test_the_annotations_init_and_clone_name_the_schemas_fields_in_order():
    annotated = [n.target.id for n in _state_class().body
                 if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
    init = _method("__init__")
    parameters = [a.arg for a in init.args.args[1:]]
    assigned = [t.attr for n in init.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"]
    call = next(n for n in ast.walk(_method("clone")) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "State")
    copied_names = [a.attr if isinstance(a, ast.Attribute) and getattr(a.value, "id", "") == "self" else ast.unparse(a)
                    for a in call.args]
    problems = (_order_problems("State's annotations", annotated)
                + _order_problems("State.__init__'s parameters", parameters)
                + _order_problems("State.__init__'s assignments (self.<field> = ...)", assigned)
                + _order_problems("State.clone's arguments (self.<field>, positional)", copied_names)
                + [f"State.clone passes {kw.arg!r} by keyword" for kw in call.keywords])
    assert problems == [], "State's fields, written out by hand, disagree with state.SCHEMA:\n" + "\n".join(problems)


@pytest.mark.skipif(running_compiled("state"), reason="compiled, a State's fields are typed: the source is checked above")
def test_clone_and_values_carry_a_distinct_value_in_every_field():
    values = tuple(object() for _ in FIELD_NAMES)
    st = State(*values)
    assert st.values() == values
    assert st.clone().values() == values and st.clone() is not st
    assert State(**dict(zip(FIELD_NAMES, values))).values() == values


def test_field_names_are_the_constructor_order_and_the_values_order():
    st = _state()
    assert len(FIELD_NAMES) == len(set(FIELD_NAMES)) == len(st.values())
    assert st.values() == tuple(getattr(st, name) for name in FIELD_NAMES)
    # positional construction in FIELD_NAMES order and keyword construction agree
    assert State(*st.values()) == State(**dict(zip(FIELD_NAMES, st.values()))) == st


def test_a_copy_changes_only_what_it_names_and_leaves_the_original_alone():
    st = _state()
    before = st.values()
    for name, value in (("seq", st.seq + 5), ("hidden_discards", st.hidden_discards + 7), ("first_play", not st.first_play),
                        ("revolution", not st.revolution)):
        new = copied(st, {name: value})
        assert getattr(new, name) == value
        assert [n for n, a, b in zip(FIELD_NAMES, before, new.values()) if a != b] == [name]
        assert replace(st, **{name: value}) == new
    assert st.values() == before


def test_replace_rejects_a_field_state_does_not_have():
    with pytest.raises(TypeError, match="no field"):
        replace(_state(), turns=1)


def test_equal_states_are_equal_and_hash_alike_and_differ_by_any_field():
    st = _state()
    twin = replace(st)
    assert twin is not st and twin == st and hash(twin) == hash(st)
    assert replace(st, seq=st.seq + 1) != st
    assert st != "a state"
    assert repr(st).startswith("State(rules=")
