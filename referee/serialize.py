"""The stable JSON form of a state, the per-seat views, and event redaction."""
from __future__ import annotations

import copy
from operator import attrgetter
from typing import Any

from .cards import cards_of, code, codes, count, deck
from .errors import InputError
from .ruleset import MAX_PLAYERS, Ruleset, ruleset_from_json
from .state import State
from .state_fields import FIELDS, REQUIRED, slots_from_json


def state_to_json(st: State, viewer=None) -> dict:
    """The table's view (``viewer=None``) or a seat's: other hands are null there."""
    same = iter(_SAME(st))  # the fields written as they are, read in one call
    return {key: next(same) if encode is None else encode(st, viewer) for key, encode in _WRITE}


_WRITE = tuple((k.key, None if k.same else k.encode) for k in FIELDS)
_SAME = attrgetter(*(k.same for k in FIELDS if k.same))


_READ = tuple((k.key, k.names, k.decode, k.default) for k in FIELDS if k.decode is not None)


def _places_of_cards(st: State):
    """(card, where) for every card the state shows, in a fixed order."""
    parts = [(p.hand, f"seat {p.seat}'s hand") for p in st.players]
    if st.field is not None:
        parts.append((st.field.reading.mask, "the field"))
    parts += [(st.beneath, "the field's beaten cards"), (st.discard, "the discard pile"),
              (st.out_of_play, "out_of_play")]
    return parts


def _check_cards(st: State):
    """Every card of the deck in exactly one place (table mode: every seen card once, the rest counted)."""
    full = deck(st.rules.jokers)
    where: dict[int, str] = {}
    for mask, name in _places_of_cards(st):
        for c in cards_of(mask):
            if c in where:
                raise InputError("bad_state", f"card {code(c)} is in two places: {where[c]} and {name}")
            if not full >> c & 1:
                raise InputError("bad_state", f"card {code(c)} ({name}) is not in this ruleset's deck of "
                                 f"{st.rules.jokers} joker(s)")
            where[c] = name
    missing = full & ~sum(1 << c for c in where)
    if not st.table:
        if missing:
            raise InputError("bad_state", f"card {code(cards_of(missing)[0])} is missing: it is in no hand, not on "
                             "the field, the discard pile or out_of_play"
                             + (f" ({count(missing)} cards are missing: {' '.join(codes(missing))})"
                                if count(missing) > 1 else ""))
        return
    unseen = sum(p.unknown for p in st.players) + st.hidden_discards
    if unseen != count(missing):
        raise InputError("bad_state", f"the unknown cards ({unseen}: hands' unknown counts and hidden_discards) do "
                         f"not match the {count(missing)} card(s) not shown anywhere")


def _consistent(st: State) -> State:
    """Reject a client-held state whose fields contradict each other (it could not have been played)."""
    n = len(st.players)
    seats = range(n)
    problems = []
    if not 2 <= n <= MAX_PLAYERS or [p.seat for p in st.players] != list(seats):
        problems.append(f"players must be seats 0, 1, ... in order (2 to {MAX_PLAYERS})")
    places = [p.place for p in st.players if p.place is not None]
    if any(not isinstance(x, int) or isinstance(x, bool) or not 1 <= x <= n for x in places) \
            or len(set(places)) != len(places):
        problems.append(f"places must be distinct whole numbers from 1 to {n}")
    prev = st.previous_places
    if prev and (sorted(x for x in prev if isinstance(x, int)) != list(range(1, n + 1)) or len(prev) != n):
        problems.append(f"previous_places must rank all {n} seats 1 to {n}")
    if st.turn is not None and st.turn not in seats or st.direction not in (1, -1):
        problems.append("turn must be a seat (or null) and direction 1 or -1")
    if st.phase not in ("exchange", "play", "deal_over"):
        problems.append("phase must be exchange, play or deal_over")
    if any(p.seat not in seats or (p.to is not None and p.to not in seats) for p in st.pending):
        problems.append("pending decisions must name seats of this game")
    if st.field is not None and st.field.seat not in seats:
        problems.append("field.seat must be a seat of this game")
    if any(p.unknown < 0 for p in st.players):
        problems.append("unknown counts cannot be negative")
    if problems:
        raise InputError("bad_state", "inconsistent state: " + "; ".join(problems))
    _check_cards(st)
    return st


def state_from_json(obj, rules: Ruleset | None = None) -> State:
    """The inverse of ``state_to_json(state)`` (the table's view). ``rules``: ``ruleset_from_json(obj)`` when the
    caller has it already (the mc bot reads one view's rules once for all the tables it samples from it)."""
    if not isinstance(obj, dict):
        raise InputError("bad_state", "state must be an object as GET /v1/games/{id} returns to the table")
    try:
        if rules is None:
            rules = ruleset_from_json(obj)
        fields: dict[str, Any] = {}
        for key, names, decode, default in _READ:
            fields.update(zip(names, decode(obj[key] if default is REQUIRED else obj.get(key, default), rules)))
        fields["view_slots"] = slots_from_json(obj, rules.view_slots)
        fields["rule_slots"] = slots_from_json(obj, rules.rule_slots)
        return _consistent(State(rules=rules, **fields))
    except InputError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise InputError("bad_state", f"state is not in the form GET /v1/games/{{id}} returns: {e!r}") from None


PRIVATE_KINDS = ("give",)


def redact_event(event: dict, viewer=None) -> dict:
    """What ``viewer`` (None = the table, or a seat) may see of an event: the cards of a give reach only its giver
    and its receiver, every other seat reads their number."""
    if viewer is None:
        return event
    ev = copy.deepcopy(event)
    if ev.get("hands") is not None:
        ev["hands"] = [h if i == viewer or h is None else len(h) for i, h in enumerate(ev["hands"])]
    if ev.get("type") == "game_created":
        ev["seed"] = None
    outcome = ev.get("outcome", [])
    move = ev.get("move")
    if move and move.get("action") in PRIVATE_KINDS and viewer not in _parties(move, outcome):
        _hide_move(ev, move)
    for item in outcome:
        if item.get("kind") in PRIVATE_KINDS and viewer not in (item.get("from"), item.get("to")):
            item["cards"] = len(item["cards"])
    return ev


def _parties(move: dict, outcome: list) -> set:
    """The seats that see the cards of a give move: its giver and the receiver of that give. One event may hold
    more gives (an exchange's automatic give that follows it): only the giver's own, logged first, counts."""
    own: dict = next((i for i in outcome if i.get("kind") == "give" and i.get("from") == move.get("seat")), {})
    return {move.get("seat"), own.get("to", move.get("seat"))}


def _hide_move(ev: dict, move: dict) -> None:
    """The move's cards as their number, in the move and in the verdict's message (which names them)."""
    move["cards"] = len(move.get("cards", []))
    verdict = ev["verdict"]
    effects = verdict.get("effects") or []
    message = f"seat {move['seat']} {move['action']}s {move['cards']} card(s)"
    ev["verdict"] = {**verdict, "message": message + (": " + ", ".join(effects) if effects else "")}
