"""The State schema of the OpenAPI document the API serves (api/spec.py: openapi.yaml with the rules' slots filled in
from the catalogue) says exactly what ``state_to_json`` writes: every key of the field table
(referee/state_fields.py) required and described, the rules' slots key by key (a dotted slot inside its top-level
object), and nothing the state no longer writes. A slot's schema is its rule's (``Slot(..., schema=, doc=)``): the
states of self-played games are checked against it, so a slot whose value breaks its declared schema fails here."""
import copy
import random

import pytest
import yaml
from openapi_schema_validator import OAS31Validator

from api.spec import catalogue_slots, fill_slots, openapi_spec, spec_path
from referee import apply, legal_moves, new_game, state_to_json
from referee.legal import instantiate
from referee.rules import MODULES, RULE_SLOTS, VIEW_SLOTS
from referee.slots import Slot
from referee.state_fields import FIELDS, slot_groups

SPEC = openapi_spec()
# keys the API adds to a state it serves, not the engine: service/games.py adds the challenge of a game seating
# registered bots to GET /v1/games/{id}
API_KEYS = {"challenge"}


def _owner(slot: Slot) -> str:
    return next((f"{m.__name__}" for m in MODULES if slot in getattr(m, "STATE", ())), "no rule module")


def schema_problems(spec: dict, keys: list[str], groups: dict[str, list[Slot]]) -> list[str]:
    """Where openapi.yaml's State schema (in ``spec``) disagrees with the state JSON's ``keys`` (in the field table's
    order) and the slots by top-level key (``groups``), one line each."""
    state = spec["components"]["schemas"]["State"]
    props, required = state.get("properties", {}), state.get("required", [])
    out = []
    for key in keys:
        slots = groups.get(key, [])
        whose = (f" (the slot{'s' if len(slots) > 1 else ''} {', '.join(repr(s.key) for s in slots)} of "
                 f"{_owner(slots[0])})" if slots else "")
        if key not in props:
            out.append(f"openapi.yaml components.schemas.State.properties lacks {key!r}, which state_to_json writes"
                       f"{whose}: " + ("api/spec.py fills it from the slot's schema" if slots else "describe it there"))
        if key not in required:
            out.append(f"openapi.yaml components.schemas.State.required lacks {key!r}, which state_to_json always "
                       f"writes{whose}")
    for key in props:
        if key not in keys and key not in API_KEYS:
            out.append(f"openapi.yaml components.schemas.State.properties lists {key!r}, which state_to_json does not "
                       "write: remove it (or list it in API_KEYS if the API adds it)")
    for key in required:
        if key not in keys:
            out.append(f"openapi.yaml components.schemas.State.required lists {key!r}, which state_to_json does not "
                       "write")
    for top, group in groups.items():
        nested = {s.key.split(".", 1)[1]: s for s in group if "." in s.key}
        if not nested or top not in props:
            continue
        where = f"openapi.yaml components.schemas.State.properties.{top}"
        sub_props, sub_required = props[top].get("properties", {}), props[top].get("required", [])
        for name, s in nested.items():
            if name not in sub_props:
                out.append(f"{where}.properties lacks {name!r}, which the slot {s.key!r} of {_owner(s)} writes")
            if name not in sub_required:
                out.append(f"{where}.required lacks {name!r}, which the slot {s.key!r} of {_owner(s)} always writes")
        for name in set(sub_props) | set(sub_required):
            if name not in nested:
                out.append(f"{where} lists {name!r}, which no slot writes (the slots there: "
                           f"{', '.join(s.key for s in group)})")
    return out


KEYS = [k.key for k in FIELDS]
GROUPS = slot_groups(VIEW_SLOTS + RULE_SLOTS)


def test_the_openapi_state_schema_is_the_state_jsons_keys():
    problems = schema_problems(SPEC, KEYS, GROUPS)
    assert problems == [], "openapi.yaml's State schema disagrees with state_to_json:\n" + "\n".join(problems)


def test_a_slot_without_its_schema_or_a_key_no_longer_written_is_named():
    spec = copy.deepcopy(SPEC)
    state = spec["components"]["schemas"]["State"]
    state["properties"]["days"] = {"type": "integer"}                      # a key the state stopped writing
    del state["properties"]["locks"]["properties"]["rank"]                 # a nested slot key left out
    groups = {**GROUPS, "color_lock": [Slot("color_lock", False, "trick")]}  # a new rule's slot, not described
    problems = schema_problems(spec, KEYS + ["color_lock"], groups)
    assert problems == [
        "openapi.yaml components.schemas.State.properties lacks 'color_lock', which state_to_json writes (the slot "
        "'color_lock' of no rule module): api/spec.py fills it from the slot's schema",
        "openapi.yaml components.schemas.State.required lacks 'color_lock', which state_to_json always writes (the "
        "slot 'color_lock' of no rule module)",
        "openapi.yaml components.schemas.State.properties lists 'days', which state_to_json does not write: remove it "
        "(or list it in API_KEYS if the API adds it)",
        "openapi.yaml components.schemas.State.properties.locks.properties lacks 'rank', which the slot 'locks.rank' "
        "of referee.rules.rank_lock writes"]


def test_a_slots_schema_is_given_or_made_from_its_default():
    """A slot's schema is the one it gives, else its default's JSON type; a default written as null gives no type, so
    such a slot must give its schema (a ValueError naming it otherwise). The description is the slot's doc, else its
    rule's summary."""
    assert Slot("schema_flag", False, "trick", doc="on").describe("rule: x")["schema"] == {
        "type": "boolean", "description": "on"}
    assert Slot("schema_count", 3, "deal").describe("rule: x")["schema"] == {"type": "integer", "description": "rule: x"}
    assert Slot("schema_list", (2, 1), "match", write=list).schema == {"type": "array", "items": {"type": "integer"}}
    given = {"type": ["string", "null"], "enum": ["red", None]}
    assert Slot("schema_given", None, "trick", schema=given).schema == given
    with pytest.raises(ValueError, match="slot schema_null: its default is written as None.*give its schema"):
        Slot("schema_null", None, "trick")
    with pytest.raises(ValueError, match="slot schema_described: schema must be a JSON Schema"):
        Slot("schema_described", None, "trick", schema={"type": "null", "description": "no: that is the doc"})


def _states(preset: str, plies: int):
    """The table's and every seat's JSON of a random game of ``preset``, ply by ply."""
    rng = random.Random(preset)
    st, _ = new_game(preset, None, ["a", "b", "c", "d"], seed=7)
    for _ in range(plies):
        yield from (state_to_json(st, viewer) for viewer in (None, *range(len(st.players))))
        seats = [s for s in range(len(st.players)) if legal_moves(st, s)]
        if not seats:
            return
        seat = rng.choice(seats)
        st = apply(st, instantiate(rng.choice(legal_moves(st, seat)), rng))[1]


def _state_errors(spec: dict, objs) -> list[str]:
    validator = OAS31Validator({**spec["components"]["schemas"]["State"], "components": spec["components"]})
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for obj in objs for e in validator.iter_errors(obj)]


@pytest.mark.parametrize("preset", ["uecda", "nanko", "gekifugo"])
def test_state_jsons_fit_the_openapi_state_schema(preset):
    errors = _state_errors(SPEC, _states(preset, 40))
    assert not errors, errors[:5]


def test_the_file_names_no_slot_and_the_served_schema_is_each_slots_own():
    """openapi.yaml names no slot key (a new rule's slot needs no edit there); the served State schema holds each
    slot's schema, as the catalogue serves it, under its key."""
    raw = yaml.safe_load(spec_path().read_text())["components"]["schemas"]["State"]
    tops = {s.key.split(".")[0] for s in VIEW_SLOTS + RULE_SLOTS}
    assert not tops & (set(raw["properties"]) | set(raw["required"])), tops & set(raw["properties"])
    props = SPEC["components"]["schemas"]["State"]["properties"]
    for slot in catalogue_slots():
        top, _, rest = slot["key"].partition(".")
        assert (props[top]["properties"][rest] if rest else props[top]) == slot["schema"], slot["key"]
        assert slot["schema"]["description"], slot["key"]
    with pytest.raises(ValueError, match="names 'locks', which is the rules' slot 'locks.suits'"):
        fill_slots(SPEC, catalogue_slots())  # filled twice: the file would name the slots


def test_a_slot_whose_values_break_its_declared_schema_fails_the_state_check():
    """The states are checked against the slots' own schemas: a slot declaring another type than it writes (the rank
    lock as a string, the passers as seat names) is caught by the states of a game."""
    raw = yaml.safe_load(spec_path().read_text())
    wrong = {"locks.rank": {"type": "string", "description": "wrong"},
             "passed": {"type": "array", "items": {"type": "string"}, "description": "wrong"}}
    slots = [{**s, "schema": wrong.get(s["key"], s["schema"])} for s in catalogue_slots()]
    errors = _state_errors(fill_slots(raw, slots), _states("nanko", 3))
    assert any(e.startswith("locks/rank: False is not of type 'string'") for e in errors), errors[:5]
    assert _state_errors(fill_slots(raw, catalogue_slots()), _states("nanko", 3)) == []


def test_the_parts_of_a_state_list_every_key_the_engine_writes():
    """Field, After and StatePlayer require every key the engine writes of them; Pending describes every key a
    decision or its rule's terms write (it requires only those every decision has)."""
    schemas = SPEC["components"]["schemas"]
    seen: dict[str, set] = {"Field": set(), "After": set(), "StatePlayer": set(), "Pending": set()}
    for preset in ("uecda", "nanko", "gekifugo"):
        for obj in _states(preset, 60):
            seen["Field"] |= set(obj["field"] or ())
            seen["After"] |= set(obj["after"] or ())
            seen["Pending"] |= {k for p in obj["pending"] for k in p}
            seen["StatePlayer"] |= {k for p in obj["players"] for k in p}
    problems = []
    for name in ("Field", "After", "StatePlayer"):
        if seen[name] != set(schemas[name]["required"]):
            problems.append(f"openapi.yaml components.schemas.{name}.required is {sorted(schemas[name]['required'])}, "
                            f"the engine writes {sorted(seen[name])}")
    unlisted = sorted(seen["Pending"] - set(schemas["Pending"]["properties"]))
    if unlisted:
        problems.append(f"openapi.yaml components.schemas.Pending.properties lacks {unlisted}")
    assert problems == [], "\n".join(problems)
