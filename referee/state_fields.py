"""The state JSON as one field table: every key ``state_to_json`` writes, how it is written and how it is read back.

A ``Key`` names the JSON key and the State field(s) it holds; ``encode(state, viewer)`` writes its value (a seat's
view hides what the seat may not see), ``decode(value, rules)`` reads it back as State fields, from ``default``
when the key is absent (``REQUIRED``: it must be there). A key without ``decode`` is derived from the others
(actors, order) or read before the table (preset and rules: the ruleset every decoder may need). Every State field
(state.SCHEMA) is in exactly one key, but those in ``NOT_KEYED``; the rules' slots are written under the keys they
declare, a pending decision's terms under theirs (tests/engine/test_state_json.py; openapi.yaml's State schema is
checked against these keys by tests/engine/test_state_schema.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Any, Callable

from .cards import codes, count, parse_many
from .engine import actors
from .errors import InputError
from .moves import _as_map
from .rules import DECISION_TERMS, RULE_SLOTS, VIEW_SLOTS
from .shapes import matches_as, readings
from .state import After, Field, Pending, Player

REQUIRED = object()
# The State fields no key of the table holds, and why.
NOT_KEYED = {"rules": "read before the table, from the derived keys preset and rules (ruleset_from_json)",
             "view_slots": "each slot is written under the key it declares (slot_groups)",
             "rule_slots": "each slot is written under the key it declares (slot_groups)"}


@dataclass(frozen=True, slots=True)
class Key:
    key: str                                    # the JSON key
    names: tuple                                # the State fields it holds (none: derived)
    encode: Callable[[Any, Any], Any]           # (state, viewer) -> JSON value
    decode: Callable[[Any, Any], tuple] | None  # (JSON value, ruleset) -> the values of ``names``
    default: Any = None                         # the JSON value of an absent key, or REQUIRED
    same: str | None = None                     # the State field written as it is (encode is reading it)


def _same(value):
    return value


def plain(key: str, name: str | None = None, write=_same, read=_same, default=REQUIRED) -> Key:
    """A key holding one State field (of the key's name unless ``name``), written and read by a conversion."""
    name = name or key
    get = attrgetter(name)
    encode = (lambda st, viewer: get(st)) if write is _same else (lambda st, viewer: write(get(st)))
    decode = (lambda value, rules: (value,)) if read is _same else (lambda value, rules: (read(value),))
    return Key(key, (name,), encode, decode, default, name if write is _same else None)


def derived(key: str, encode) -> Key:
    return Key(key, (), encode, None)


def titles(n: int, top_bottom) -> list[str]:
    top, bottom = top_bottom or ("大富豪", "大貧民")
    if n == 2:
        return [top, bottom]
    if n == 3:
        return [top, "平民", bottom]
    if n == 4:
        return [top, "富豪", "貧民", bottom]
    return [top, "富豪"] + ["平民"] * (n - 4) + ["貧民", bottom]


def _title(names: list[str], st, seat):
    place = st.players[seat].place
    if place is None and st.previous_places:
        place = st.previous_places[seat]
    return names[place - 1] if place else None


def _players_json(st, viewer) -> list:
    names = titles(len(st.players), st.rules.titles)
    return [{"seat": p.seat, "name": p.name, "hand": codes(p.hand) if viewer is None or viewer == p.seat else None,
             "hand_count": p.left, "unknown": p.unknown, "place": p.place, "title": _title(names, st, p.seat)}
            for p in st.players]


def _players_from_json(value, rules) -> tuple:
    players = []
    for p in value:
        if p.get("hand") is None:
            raise InputError("bad_state", "the state must show every hand (the table's view), "
                             f"but seat {p.get('seat')}'s hand is hidden")
        players.append(Player(int(p["seat"]), str(p["name"]), parse_many(p["hand"]), p.get("place"),
                              int(p.get("unknown", 0))))
    return (tuple(players),)


def _field_json(st, viewer):
    if st.field is None:
        return None
    r = st.field.reading
    return {"cards": codes(r.mask), "shape": r.shape, "seat": st.field.seat, "as": r.as_map(),
            "beneath": codes(st.beneath)}


def _field_from_json(obj, rules) -> tuple:
    """The field as the ruleset can make it (an attach revolution makes 4-card stairs whatever the stairs rule),
    and the cards beaten beneath it."""
    if not obj:
        return None, 0
    mask = parse_many(obj["cards"])
    as_map = _as_map(obj.get("as") or {}, mask)
    shapes, min_stairs = rules.field_shapes
    for r in readings(mask, frozenset(shapes), min_stairs):
        if r.shape == obj["shape"] and matches_as(r, as_map):
            return Field(r, int(obj["seat"])), parse_many(obj.get("beneath", []))
    raise InputError("bad_state", f"field {obj['cards']} cannot be read as {obj['shape']}")


def slot_groups(slots: tuple) -> dict[str, list]:
    """The rules' slots by their top-level JSON key (``locks.suits`` and ``locks.rank`` are both in ``locks``), in
    registry order."""
    groups: dict[str, list] = {}
    for s in slots:
        groups.setdefault(s.key.split(".")[0], []).append(s)
    return groups


def _slot_keys(slots: tuple) -> tuple:
    """The JSON keys of the rules' declared state, one per top-level key. Read back by ``slots_from_json``."""
    return tuple(Key(top, (), _slot_group_json(group), None) for top, group in slot_groups(slots).items())


def _slot_group_json(group: list):
    if len(group) == 1 and "." not in group[0].key:
        slot = group[0]
        return lambda st, viewer: slot.write(st.slot(slot))
    return lambda st, viewer: {s.key.split(".", 1)[1]: s.write(st.slot(s)) for s in group}


def slots_from_json(obj: dict, slots: tuple) -> tuple:
    """The values of ``slots`` in a state's JSON; a key that is absent reads as the slot's default."""
    out = []
    for s in slots:
        value: Any = obj
        for part in s.key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        out.append(s.default if value is None else s.read(value))
    return tuple(out)


def _pending_json(p: Pending, viewer=None) -> dict:
    """A pending decision: its own keys, then those of its rule's terms (referee/terms.py)."""
    out = {"seat": p.seat, "action": p.action, "count": p.count, "rule": p.rule}
    if p.to is not None:
        out["to" if p.action == "give" else "from"] = p.to
    if p.strongest:
        out["strongest"] = True
        out["order"] = "reversed" if p.reversed else "normal"
    if p.upto:
        out["upto"] = True
    if p.terms is not None:
        out.update(p.terms.json(p, viewer))
    return out


def _pending_from_json(p) -> Pending:
    """A pending decision, its terms read by the class its rule lists for its action (rules.DECISION_TERMS)."""
    kind = DECISION_TERMS.get((p["rule"], p["action"]))
    return Pending(int(p["seat"]), p["action"], int(p["count"]), p["rule"], to=p.get("to", p.get("from")),
                   strongest=bool(p.get("strongest")), reversed=p.get("order") == "reversed",
                   upto=bool(p.get("upto")), terms=None if kind is None else kind.from_json(p))


def _after_json(a):
    return None if a is None else {"seat": a.seat, "cut": a.cut, "skip": a.skip,
                                   "went_out": [list(w) for w in a.went_out], "window_done": a.window_done,
                                   "cards": a.cards}


def _after_from_json(a):
    return None if a is None else After(a["seat"], a.get("cut"), a.get("skip", 0),
                                        tuple((w[0], w[1]) for w in a.get("went_out", [])),
                                        a.get("window_done", False), int(a.get("cards", 0)))


@lru_cache(maxsize=512)
def _rules_of(rules) -> dict:
    return rules.to_json()["rules"]


def _rules_json(st, viewer) -> dict:
    """A ruleset's "rules" JSON, built once per ruleset (every move writes it) and copied per state, its parameter
    dicts too: whoever holds a state's JSON may change it without touching another's."""
    return {rule: dict(params) if params else params for rule, params in _rules_of(st.rules).items()}


# In the order of the JSON keys.
FIELDS = (
    plain("seq", read=int),
    plain("deal", read=int),
    plain("phase"),
    plain("turn", default=None),
    derived("actors", lambda st, viewer: actors(st)),
    plain("direction", read=int),
    derived("order", lambda st, viewer: st.order),
    plain("revolution", read=bool),
    Key("field", ("field", "beneath"), _field_json, _field_from_json),
    *_slot_keys(VIEW_SLOTS + RULE_SLOTS),
    Key("pending", ("pending",), lambda st, viewer: [_pending_json(p, viewer) for p in st.pending],
        lambda ps, rules: (tuple(_pending_from_json(p) for p in ps),), []),
    Key("players", ("players",), _players_json, _players_from_json, REQUIRED),
    plain("finish_order", write=list, read=tuple, default=[]),
    plain("discard_pile", "discard", write=codes, read=parse_many, default=[]),
    Key("out_of_play", ("out_of_play",),
        lambda st, viewer: codes(st.out_of_play) if viewer is None else count(st.out_of_play),
        lambda value, rules: (parse_many(value) if isinstance(value, list) else 0,), []),
    plain("trick_plays", read=int, default=0),
    plain("first_play", read=bool, default=False),
    plain("dealer", read=int, default=0),
    plain("previous_places", write=list, read=tuple, default=[]),
    plain("ended_by", default=None),
    plain("after", write=_after_json, read=_after_from_json, default=None),
    Key("seed", ("seed",), lambda st, viewer: st.seed if viewer is None else None,
        lambda value, rules: (value,)),
    plain("table", read=bool),
    plain("hidden_discards", read=int, default=0),
    derived("preset", lambda st, viewer: st.rules.preset),
    derived("rules", _rules_json),
)
