"""A play rule sees a PlayView and nothing else (referee/view.py): what it may read is what its answers are
memoised under. A hook that reaches for the seat, a hand or the finish order fails at its first call, loudly,
instead of answering from a memo made at another state."""
import pytest

from referee import apply
from referee.cards import parse
from referee.moves import Move
from referee.play import judge_on, judge_play
from referee.ruleset import Ruleset
from referee.shapes import readings
from referee.state import replace, with_slot
from referee.rules.jack_back import JACK_BACK
from referee.rules.pass_until_flush import PASSED
from referee.view import TABLE_FIELDS, PlayView, Table, table_of

from .helpers import game, move, pass_, play

OUTSIDE = ("state", "seat", "players", "hand", "left", "left_after", "finish_order", "passed", "turn", "rules",
           "rule_slots")


def _view():
    st = game("nanko", [["S3", "H8", "CK"], ["D4", "S5"], ["SA", "HQ"]])
    return st, PlayView(table_of(st, 0), readings(1 << parse("S3"), frozenset())[0])


@pytest.mark.parametrize("name", OUTSIDE)
def test_a_view_has_nothing_of_the_state_outside_what_the_memo_keys_on(name):
    _, view = _view()
    with pytest.raises(AttributeError):
        getattr(view, name)
    with pytest.raises(AttributeError):
        getattr(view.table, name)


def _with_hook(rules: Ruleset, hook) -> Ruleset:
    """A copy of ``rules`` with one more after_play hook (as a newly written rule module would add it)."""
    rs = Ruleset(rules.preset, {rid: rules.params(rid) for rid in rules.to_json()["rules"] if rules.on(rid)})
    rs.play_hooks = rs.play_hooks + (("peeking_rule", hook, {}),)
    return rs


def test_a_hook_that_reads_a_hand_size_fails_at_its_first_call():
    st, _ = _view()

    def peek(view, params):  # what a contributor might write: an 8-cut that looks at the cards left
        return [] if view.state.players[0].left > 1 else []

    st = replace(st, rules=_with_hook(st.rules, peek))
    with pytest.raises(AttributeError):
        apply(st, move(0, "play", ["S3"]))


def test_a_hook_that_reads_a_slot_kept_out_of_the_view_fails_at_its_first_call():
    from referee.slots import DEAL, Slot
    hidden = Slot("peeking_rule_count", 0, DEAL)  # declared without view=True: not in the memo key
    hidden.index = 0
    st, view = _view()
    with pytest.raises(AttributeError, match="not in the play view"):
        view.slot(hidden)

    def peek(view, params):
        return [] if view.slot(hidden) else []

    st = replace(st, rules=_with_hook(st.rules, peek))
    with pytest.raises(AttributeError, match="not in the play view"):
        apply(st, move(0, "play", ["S3"]))


def test_equal_tables_judge_alike_whatever_else_differs():
    """Two positions that differ in hands, passes and who finished, but not in their Table, get one judgement:
    the memo key is the Table, and nothing outside it reaches the rules."""
    st = game("nanko", [["S3", "H8", "CK"], ["D4", "S5", "H9"], ["SA", "HQ"], ["C6", "CA"]])
    a = play(st, 0, "S3")[1]
    b = play(pass_(a, 1), 2, "SA")[1]  # another field: a different Table
    assert table_of(a, 1) != table_of(b, 3)
    c = with_slot(replace(a, finish_order=(3,)), PASSED, 0b1010)
    assert table_of(c, 1) == table_of(a, 1) and hash(table_of(c, 1)) == hash(table_of(a, 1))
    mv = Move(1, "play", 1 << parse("S5"))
    plan_a, plan_c = judge_play(a, mv), judge_play(c, mv)
    assert plan_a.view == plan_c.view and plan_a.effects == plan_c.effects


def test_the_table_is_the_whole_memo_key():
    st = game("nanko", [["S3", "H8", "CK"], ["D4", "S5"], ["SA", "HQ"]])
    table = table_of(st, 0)
    assert isinstance(table, Table)
    assert dict(zip(TABLE_FIELDS, table.values())) == {
        "field": None, "revolution": False, "slots": st.rules.view_defaults,
        "second_play": False, "required": 0, "standin_effects": True}
    mv = Move(0, "play", 1 << parse("S3"))
    judge_on(table, st.rules, mv, 2)
    keys = [k for k in st.rules.memo if k[0] is table]
    assert keys
    twin = Table(*table.values(), st.rules.order_slots)  # an equal table made apart finds the same entries
    assert twin is not table and [k for k in st.rules.memo if k[0] == twin] == keys
    assert all(st.rules.memo[(twin,) + k[1:]] is st.rules.memo[k] for k in keys)


def test_the_order_in_force_is_the_revolution_turned_by_a_slot_that_turns_the_order():
    st = game("nanko", [["S3", "H8", "CK"], ["D4", "S5"], ["SA", "HQ"]])
    backed = list(st.view_slots)
    backed[JACK_BACK.index] = True
    for revolution, jack_back, reversed_ in ((False, False, False), (False, True, True), (True, False, True),
                                             (True, True, False)):
        turned = replace(st, revolution=revolution, view_slots=tuple(backed) if jack_back else st.view_slots)
        assert table_of(turned, 0).reversed is reversed_
        assert turned.reversed is reversed_ and turned.order == ("reversed" if reversed_ else "normal")
