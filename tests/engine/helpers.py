"""Small helpers so engine scenario tests read like the table: build a deal, play, pass, inspect."""
from __future__ import annotations

from referee import apply, new_game, next_deal, state_from_json, state_to_json
from referee.presets import PRESETS

# Rules that only shape the game, kept on by ``only``.
BASE = ("jokers", "stairs")


def only(preset: str, *keep: str, **params) -> dict:
    """Overrides that switch off every rule of ``preset`` except ``keep`` (and jokers/stairs); ``params``
    sets rule parameters (and switches those rules on)."""
    every = {rid for rules in PRESETS.values() for rid in rules}
    out = {rid: False for rid in every if rid not in keep and rid not in BASE and rid not in params}
    for rid in keep:
        out[rid] = True
    for rid, p in params.items():
        out[rid] = p
    return out


def game(preset: str, hands, rules=None):
    """A first deal with explicit (partial) hands, one list of codes per seat."""
    st, _ = new_game(preset, rules, [f"p{i}" for i in range(len(hands))], seed=0, hands=hands)
    return st


def move(seat, action, cards=None, declare=None, as_=None, decline=None, **kw):
    m = {"seat": seat, "action": action}
    if cards is not None:
        m["cards"] = list(cards)
    if declare:
        m["declare"] = list(declare)
    if as_:
        m["as"] = dict(as_)
    if decline:
        m["decline"] = list(decline)
    m.update(kw)
    return m


def ok(st, m):
    """Apply a move that must be legal: (verdict, new state)."""
    verdict, new, events = apply(st, m)
    assert verdict.legal, f"expected legal, got {verdict.reason}: {verdict.message}"
    assert len(events) == 1
    return verdict, new


def bad(st, m, reason):
    """Apply a move that must be rejected with ``reason``; the state must not change."""
    verdict, new, events = apply(st, m)
    assert not verdict.legal, f"expected {reason}, but it was legal: {verdict.message}"
    assert verdict.reason == reason, f"expected {reason}, got {verdict.reason}: {verdict.message}"
    assert new is st and events == []
    return verdict


def play(st, seat, *cards, declare=None, as_=None, decline=None):
    return ok(st, move(seat, "play", cards, declare=declare, as_=as_, decline=decline))


def refuse(st, seat, cards, reason, declare=None, as_=None, decline=None):
    return bad(st, move(seat, "play", cards, declare=declare, as_=as_, decline=decline), reason)


def pass_(st, seat):
    return ok(st, move(seat, "pass"))[1]


def passes(st, *seats):
    for s in seats:
        st = pass_(st, s)
    return st


def give(st, seat, *cards):
    return ok(st, move(seat, "give", cards))[1]


def discard(st, seat, *cards):
    return ok(st, move(seat, "discard", cards))[1]


def js(st) -> dict:
    return state_to_json(st)


def hand(st, seat) -> set:
    return set(js(st)["players"][seat]["hand"])


def places(st) -> list:
    return [p["place"] for p in js(st)["players"]]


def field(st):
    f = js(st)["field"]
    return None if f is None else set(f["cards"])


def pending(st) -> list:
    return [(p["seat"], p["action"], p["count"], p["rule"]) for p in js(st)["pending"]]


def deal_again(st, hands):
    """The next deal with explicit hands (the current deal must be over)."""
    new, _ = next_deal(st, hands=hands)
    return new


def with_other_hands_swapped(st, seat, rng):
    """The same table except that the other seats' hands are reshuffled among them (same counts)."""
    table = state_to_json(st)
    others = [p for p in table["players"] if p["seat"] != seat]
    pool = [c for p in others for c in p["hand"]]
    rng.shuffle(pool)
    for p in others:
        k = len(p["hand"])
        p["hand"], pool = pool[:k], pool[k:]
    return state_from_json(table)


def deal_in_seat_order(preset: str, rules, n: int = 4):
    """A first deal of ``n`` players in which seats finish 0, 1, 2, …: seat 0 is top, seat n-1 bottom."""
    cards = ["S4", "S5", "S6", "S7", "S8", "S9", "ST", "SJ"][:n]
    st = game(preset, [[c] for c in cards], rules)
    for seat in range(n - 1):
        _, st = play(st, seat, cards[seat])
    assert places(st) == list(range(1, n + 1))
    return st
