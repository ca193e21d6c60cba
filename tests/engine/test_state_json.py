"""state_from_json refuses states that could not have been played: every card once, fields the ruleset allows."""
import pytest

from referee import InputError, new_game, state_from_json, state_to_json
from referee.state import replace

from .helpers import game, js, play


def table():
    st, _ = new_game("nanko", None, ["a", "b", "c", "d"], seed=4)
    return state_to_json(st)


def test_a_card_in_two_hands_is_refused_naming_it():
    obj = table()
    card = obj["players"][0]["hand"][0]
    obj["players"][1]["hand"].append(card)
    with pytest.raises(InputError, match=f"card {card} is in two places: seat 0's hand and seat 1's hand") as e:
        state_from_json(obj)
    assert e.value.code == "bad_state"


def test_a_card_in_a_hand_and_the_discard_pile_is_refused():
    obj = table()
    card = obj["players"][2]["hand"][0]
    obj["discard_pile"] = [card]
    with pytest.raises(InputError, match=f"card {card} is in two places: seat 2's hand and the discard pile"):
        state_from_json(obj)


def test_a_missing_card_is_refused_naming_it():
    obj = table()
    card = obj["players"][3]["hand"].pop()
    with pytest.raises(InputError, match=f"card {card} is missing"):
        state_from_json(obj)


def test_a_card_outside_the_rulesets_deck_is_refused():
    st = game("uecda", [["D3", "S4"], ["H5"]])
    obj = js(st)
    obj["players"][1]["hand"].append("JK2")
    with pytest.raises(InputError, match="JK2 .* not in this ruleset's deck of 1 joker"):
        state_from_json(obj)


def test_a_field_card_also_in_a_hand_is_refused():
    st = game("uecda", [["D3", "S4"], ["H5", "H6"]])
    _, st = play(st, 0, "D3")
    obj = js(st)
    obj["players"][1]["hand"].append("D3")
    with pytest.raises(InputError, match="card D3 is in two places: seat 1's hand and the field"):
        state_from_json(obj)


def test_the_field_is_read_with_the_rulesets_stairs_minimum():
    rules = {"stairs": {"min_length": 4, "compare": "shift"}}
    st = game("nanko", [["S3", "S4", "S5", "S6", "S7"], ["H5", "H6"], ["D9"]], rules)
    _, st = play(st, 0, "S4", "S5", "S6", "S7")
    obj = js(st)
    assert state_to_json(state_from_json(obj)) == obj
    # a 3-card stairs cannot be on the field when stairs need 4 cards
    obj["field"]["cards"] = ["S4", "S5", "S6"]
    obj["players"][0]["hand"].append("S7")
    with pytest.raises(InputError, match="cannot be read as stairs"):
        state_from_json(obj)


def test_too_many_players_is_refused():
    obj = table()
    extra = [dict(obj["players"][0], seat=i, hand=[]) for i in range(4, 9)]
    obj["players"] += extra
    with pytest.raises(InputError, match="2 to 8"):
        state_from_json(obj)


def test_table_mode_counts_the_unknown_cards():
    st, _ = new_game("nanko", None, ["a", "b", "c"], seed=1, table=True, leader=0)
    obj = state_to_json(st)
    assert state_to_json(state_from_json(obj)) == obj
    obj["players"][0]["unknown"] += 1
    with pytest.raises(InputError, match="unknown cards"):
        state_from_json(obj)


def test_every_state_field_has_exactly_one_key_in_the_json_field_table():
    from referee.state import FIELD_NAMES
    from referee.state_fields import FIELDS, NOT_KEYED
    held = [name for k in FIELDS for name in k.names]
    twice = sorted({name for name in held if held.count(name) > 1})
    assert twice == [], f"State fields held by two keys of state_fields.FIELDS: {twice}"
    # the ruleset is read first; the rules' declared state is written and read from its slots (below)
    unkeyed = [name for name in FIELD_NAMES if name not in held and name not in NOT_KEYED]
    assert unkeyed == [], f"State fields no key of state_fields.FIELDS holds (nor NOT_KEYED): {unkeyed}"
    strays = sorted((set(held) | set(NOT_KEYED)) - set(FIELD_NAMES))
    assert strays == [], f"state_fields names State fields that state.SCHEMA does not declare: {strays}"
    assert not set(held) & set(NOT_KEYED)
    assert list(table()) == [k.key for k in FIELDS]


def test_the_rules_declared_state_is_written_under_its_keys_and_read_back():
    from referee.rules import RULE_SLOTS, VIEW_SLOTS
    from referee.rules.rank_lock import RANK_LOCK
    from referee.rules.revolution import REVOLUTION_MIN
    from referee.rules.suit_lock import LOCK_KIND, LOCK_SUITS
    assert {LOCK_SUITS, LOCK_KIND, RANK_LOCK, REVOLUTION_MIN} <= set(VIEW_SLOTS + RULE_SLOTS)
    st, _ = new_game("gekifugo", None, ["a", "b", "c", "d"], seed=3)
    values = list(st.view_slots)
    for slot, value in ((LOCK_SUITS, 0b0101), (LOCK_KIND, "partial"), (RANK_LOCK, True), (REVOLUTION_MIN, 5)):
        values[slot.index] = value
    st = replace(st, view_slots=tuple(values))
    obj = state_to_json(st)
    assert obj["locks"] == {"suits": ["S", "D"], "kind": "partial", "rank": True, "color": None} and obj["revolution_min"] == 5
    assert state_from_json(obj) == st
    del obj["locks"], obj["revolution_min"]  # an absent key reads as the slot's default
    assert state_from_json(obj).view_slots == st.rules.view_defaults


def test_a_state_json_is_its_own_down_to_the_rule_parameters():
    # the rules JSON is built once per ruleset: every state must still get dicts of its own to change
    st, _ = new_game("gekifugo", None, ["a", "b", "c", "d"], seed=3)
    first, second = state_to_json(st), state_to_json(st)
    rule = next(r for r, params in first["rules"].items() if params)
    param = next(iter(first["rules"][rule]))
    first["rules"][rule][param] = "changed"
    first["rules"]["added"] = True
    assert second["rules"][rule][param] != "changed" and "added" not in second["rules"]
    assert state_to_json(st) == second
