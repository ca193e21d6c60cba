"""State as a class of its own (a native class when compiled): its field list, copies, equality."""
import pytest

from referee import new_game
from referee.state import FIELD_NAMES, State, copied, replace


def _state():
    return new_game("gekifugo", None, ["a", "b", "c", "d"], 5)[0]


def test_field_names_are_the_constructor_order_and_the_values_order():
    st = _state()
    assert len(FIELD_NAMES) == len(set(FIELD_NAMES)) == len(st.values())
    assert st.values() == tuple(getattr(st, name) for name in FIELD_NAMES)
    # positional construction in FIELD_NAMES order and keyword construction agree
    assert State(*st.values()) == State(**dict(zip(FIELD_NAMES, st.values()))) == st


def test_a_copy_changes_only_what_it_names_and_leaves_the_original_alone():
    st = _state()
    before = st.values()
    for name, value in (("seq", st.seq + 5), ("idle", st.idle + 7), ("first_play", not st.first_play),
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
