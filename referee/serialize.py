"""The stable JSON form of a state, the per-seat views, and event redaction."""
from __future__ import annotations

import copy

from .cards import cards_of, code, codes, count, deck, parse_many, parse_suits, suit_names, RANKS
from .engine import actors
from .errors import InputError
from .moves import _as_map
from .ruleset import MAX_PLAYERS, ruleset_from_json
from .shapes import matches_as, readings
from .state import After, Field, Pending, Player, State

def titles(n: int, top_bottom) -> list[str]:
    top, bottom = top_bottom or ("大富豪", "大貧民")
    if n == 2:
        return [top, bottom]
    if n == 3:
        return [top, "平民", bottom]
    if n == 4:
        return [top, "富豪", "貧民", bottom]
    return [top, "富豪"] + ["平民"] * (n - 4) + ["貧民", bottom]


def _title(st, seat):
    names = titles(len(st.players), st.rules.titles)
    place = st.players[seat].place
    if place is None and st.previous_places:
        place = st.previous_places[seat]
    return names[place - 1] if place else None


def _pending_json(p: Pending) -> dict:
    out = {"seat": p.seat, "action": p.action, "count": p.count, "rule": p.rule}
    if p.to is not None:
        out["to" if p.action == "give" else "from"] = p.to
    if p.rank is not None:
        out["rank"] = "JK" if p.rank == 13 else RANKS[p.rank]
    if p.strongest:
        out["strongest"] = True
        out["order"] = "reversed" if p.reversed else "normal"
    if p.banned:
        out["not_held"] = ["JK" if r == 13 else RANKS[r] for r in p.banned]
    if p.upto:
        out["upto"] = True
    return out


def state_to_json(st: State, viewer=None) -> dict:
    """The table's view (``viewer=None``) or a seat's: other hands are null there."""
    field = None
    if st.field is not None:
        r = st.field.reading
        field = {"cards": codes(r.mask), "shape": r.shape, "seat": st.field.seat, "as": r.as_map(),
                 "beneath": codes(st.beneath)}
    a = st.after
    return {
        "seq": st.seq, "deal": st.deal, "phase": st.phase, "turn": st.turn, "actors": actors(st),
        "direction": st.direction,
        "order": st.order, "revolution": st.revolution, "jack_back": st.jack_back, "field": field,
        "locks": {"suits": suit_names(st.lock_suits), "kind": st.lock_kind, "rank": st.rank_lock},
        "pending": [_pending_json(p) for p in st.pending],
        "players": [{"seat": p.seat, "name": p.name,
                     "hand": codes(p.hand) if viewer is None or viewer == p.seat else None,
                     "hand_count": p.left, "unknown": p.unknown, "place": p.place, "title": _title(st, p.seat)}
                    for p in st.players],
        "finish_order": list(st.finish_order),
        "discard_pile": codes(st.discard),
        "out_of_play": codes(st.out_of_play) if viewer is None else count(st.out_of_play),
        "revolution_min": st.revolution_min,
        "trick_plays": st.trick_plays,
        "trick_reversed": st.trick_reversed,
        "first_play": st.first_play,
        "dealer": st.dealer,
        "previous_places": list(st.previous_places),
        "exchange_counts": list(st.exchange_counts),
        "days": st.days,
        "ended_by": st.ended_by,
        "after": None if a is None else {"seat": a.seat, "cut": a.cut, "skip": a.skip,
                                         "went_out": [list(w) for w in a.went_out], "window_done": a.window_done,
                                         "cards": a.cards},
        "seed": st.seed if viewer is None else None,
        "table": st.table,
        "hidden_discards": st.hidden_discards,
        "passed": [s for s in range(len(st.players)) if st.passed >> s & 1],
        "idle_turns": st.idle,
        **st.rules.to_json(),
    }


def _field_from_json(obj, rules):
    """The field as the ruleset can make it (an attach revolution makes 4-card stairs whatever the stairs rule)."""
    mask = parse_many(obj["cards"])
    as_map = _as_map(obj.get("as") or {}, mask)
    shapes, min_stairs = rules.field_shapes
    for r in readings(mask, frozenset(shapes), min_stairs):
        if r.shape == obj["shape"] and matches_as(r, as_map):
            return Field(r, int(obj["seat"]))
    raise InputError("bad_state", f"field {obj['cards']} cannot be read as {obj['shape']}")


def _pending_from_json(p):
    rank = p.get("rank")
    to = p.get("to", p.get("from"))
    return Pending(int(p["seat"]), p["action"], int(p["count"]), p["rule"], to=to,
                   rank=None if rank is None else (13 if rank == "JK" else RANKS.index(rank)),
                   strongest=bool(p.get("strongest")), reversed=p.get("order") == "reversed",
                   banned=tuple(13 if r == "JK" else RANKS.index(r) for r in p.get("not_held", [])),
                   upto=bool(p.get("upto")))


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


def state_from_json(obj) -> State:
    """The inverse of ``state_to_json(state)`` (the table's view)."""
    if not isinstance(obj, dict):
        raise InputError("bad_state", "state must be an object as GET /v1/games/{id} returns to the table")
    try:
        rules = ruleset_from_json(obj)
        players = []
        for p in obj["players"]:
            if p.get("hand") is None:
                raise InputError("bad_state", "the state must show every hand (the table's view), "
                                 f"but seat {p.get('seat')}'s hand is hidden")
            players.append(Player(int(p["seat"]), str(p["name"]), parse_many(p["hand"]), p.get("place"),
                                  int(p.get("unknown", 0))))
        a = obj.get("after")
        after = None if a is None else After(a["seat"], a.get("cut"), a.get("skip", 0),
                                            tuple((w[0], w[1]) for w in a.get("went_out", [])),
                                            a.get("window_done", False), int(a.get("cards", 0)))
        locks = obj.get("locks") or {}
        field = _field_from_json(obj["field"], rules) if obj.get("field") else None
        out = obj.get("out_of_play", [])
        return _consistent(State(
            rules=rules, players=tuple(players), seq=int(obj["seq"]), deal=int(obj["deal"]), phase=obj["phase"],
            turn=obj.get("turn"), direction=int(obj["direction"]), revolution=bool(obj["revolution"]),
            jack_back=bool(obj["jack_back"]), field=field,
            beneath=parse_many(obj["field"].get("beneath", [])) if obj.get("field") else 0,
            lock_suits=parse_suits(locks.get("suits", [])), lock_kind=locks.get("kind"),
            rank_lock=bool(locks.get("rank")), trick_plays=int(obj.get("trick_plays", 0)),
            trick_reversed=bool(obj.get("trick_reversed")), revolution_min=int(obj.get("revolution_min", 0)),
            pending=tuple(_pending_from_json(p) for p in obj.get("pending", [])), after=after,
            finish_order=tuple(obj.get("finish_order", [])), discard=parse_many(obj.get("discard_pile", [])),
            out_of_play=parse_many(out) if isinstance(out, list) else 0,
            first_play=bool(obj.get("first_play", False)), dealer=int(obj.get("dealer", 0)), seed=obj.get("seed"),
            previous_places=tuple(obj.get("previous_places", [])),
            exchange_counts=tuple(obj.get("exchange_counts", (2, 1))), days=int(obj.get("days", 0)),
            ended_by=obj.get("ended_by"), table=bool(obj.get("table")),
            hidden_discards=int(obj.get("hidden_discards", 0)),
            passed=sum(1 << int(s) for s in obj.get("passed", [])), idle=int(obj.get("idle_turns", 0))))
    except InputError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise InputError("bad_state", f"state is not in the form GET /v1/games/{{id}} returns: {e!r}") from None


PRIVATE_KINDS = ("give",)


def redact_event(event: dict, viewer=None) -> dict:
    """What ``viewer`` (None = the table, or a seat) may see of an event."""
    if viewer is None:
        return event
    ev = copy.deepcopy(event)
    if ev.get("hands") is not None:
        ev["hands"] = [h if i == viewer or h is None else len(h) for i, h in enumerate(ev["hands"])]
    if ev.get("type") == "game_created":
        ev["seed"] = None
    for item in ev.get("outcome", []):
        if item.get("kind") in PRIVATE_KINDS and viewer not in (item.get("from"), item.get("to")):
            item["cards"] = len(item["cards"])
    mv = ev.get("move")
    if mv and mv.get("action") == "give" and mv.get("seat") != viewer:
        receivers = {i.get("to") for i in ev.get("outcome", []) if i.get("kind") == "give"}
        if viewer not in receivers:
            mv["cards"] = len(mv.get("cards", []))
            ev["verdict"] = {**ev["verdict"], "message": f"seat {mv['seat']} gives {mv['cards']} card(s)"}
    return ev
