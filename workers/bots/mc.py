"""The `mc` bot: determinized Monte-Carlo search over the seat's view.

For a turn with a real choice it keeps the greedy bot's best few plays (and pass), then repeatedly samples a
full deal consistent with what the seat knows — its own hand; the unseen cards are the deck minus its hand,
the field, the beaten cards and the discard pile; every other seat gets as many as its ``hand_count``; cards
this seat gave to another seat this deal (7-pass, exchange) and not seen since stay with that seat — builds
the table state with ``state_from_json`` and plays every candidate out to the end of the deal with the greedy
policy for every seat (the same sampled deal for every candidate: common random numbers). The candidate with
the best mean final place wins. It stops at ``playouts`` playouts or after ``budget_ms``, whichever comes
first; the deadline is checked at every ply of a playout (a world cut short is dropped whole), so a turn
overruns its budget by one ply at most. With a generous budget the playout cap decides, so the choice depends
only on the seed.
Follow-up decisions (gives, discards, takes, requests, cut-back windows) use the greedy rules.
"""
from __future__ import annotations

import gc
import random
import time

from referee import apply, state_from_json
from referee.cards import parse, parse_many
from referee.core import Game
from referee.flow import place_final
from referee.ruleset import ruleset_from_json
from referee.state import State, replace

from . import greedy
from .cards import game_deck, rules_deck
from .observer import Facts, facts, facts_of_view, forced

MAX_PLIES = 2000
# Greedy weighs the cards that cannot be the last one only when few cards are left: in playouts they are asked
# for (forbidden_last, a judgment per card) only from this many cards on, which keeps a playout ply cheap.
NEAR_THE_END = 6


def playout(root: State, seat: int, deadline: float | None = None) -> int | None:
    """Play the deal out with the greedy policy for every seat until ``seat``'s place is final (flow.place_final);
    that place, or None when the ``deadline`` (a time.perf_counter() value) passes first: it is checked at every
    ply, so a budget is overrun by at most one ply. The deal is played on a ``core.Game`` (``root`` is never
    changed). The greedy policy draws no random numbers: a playout depends on its deal alone."""
    game = Game(root)
    for _ in range(MAX_PLIES):
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        acting = game.actors()
        if not acting:
            break
        s = acting[0]
        st = game.live
        moves = game.options(s, noted=True)
        move = forced(moves)
        if move is None:
            move = greedy.act(facts(st, s, st.left(s) <= NEAR_THE_END, moves))
        if game.advance(move) is not None:
            break  # not legal after all (cannot happen with a move from legal_moves): the deal is cut short
        if place_final(game.live, seat):
            break  # the seat's place is final: the rest of the deal cannot change the answer
    place = game.live.players[seat].place
    return place if place is not None else len(game.live.players)


def known_gifts(history, seat: int) -> dict[int, set[str]]:
    """Cards this seat gave to each other seat during the current deal, from its redacted history."""
    known: dict[int, set[str]] = {}
    for ev in history or ():
        if ev.get("type") in ("game_created", "deal_started"):
            known = {}
        for item in ev.get("outcome", ()) or ():
            if item.get("kind") == "give" and item.get("from") == seat and isinstance(item.get("cards"), list):
                to = item.get("to")
                if to is not None and to != seat:
                    known.setdefault(to, set()).update(item["cards"])
    return known


def sample_table(view: dict, seat: int, rng: random.Random, known=None, deck: list[str] | None = None) -> dict:
    """A table JSON (every hand shown) consistent with the seat's view; ``deck`` is ``game_deck(view)`` when the
    caller has it already (it is the same for every world of a decision)."""
    return _table(view, seat, *sample_hands(view, seat, rng, known, deck))


def sample_hands(view: dict, seat: int, rng: random.Random, known=None, deck: list[str] | None = None,
                 barred: dict[int, int] | None = None) -> tuple[dict[int, list[str]], list[str]]:
    """``sample_table``'s draw: the other seats' hands (card codes by seat) and the unseen cards left over.
    ``barred``: by seat, cards (a bitmask) it is known not to hold; such a seat draws first, from the cards it may
    hold (all of them, if too few are left). A seat whose hand the view shows (``observe``'s open_hands) holds it."""
    shown = {p["seat"]: p["hand"] for p in view["players"] if p["seat"] != seat and p["hand"] is not None}
    seen = set(view["players"][seat]["hand"] or [])
    for cards in shown.values():
        seen.update(cards)
    field = view.get("field")
    if field:
        seen.update(field["cards"])
        seen.update(field.get("beneath") or [])
    seen.update(view.get("discard_pile") or [])
    unseen = [c for c in (game_deck(view) if deck is None else deck) if c not in seen]
    need = {p["seat"]: p["hand_count"] for p in view["players"] if p["seat"] != seat}
    hands: dict[int, list[str]] = {s: list(shown.get(s, ())) for s in need}
    pool = set(unseen)
    for s, cards in (known or {}).items():
        if s in need:
            for c in sorted(cards):
                if c in pool and len(hands[s]) < need[s]:
                    hands[s].append(c)
                    pool.discard(c)
    rest = [c for c in unseen if c in pool]  # in the deck's order
    rng.shuffle(rest)
    order = sorted(need)
    if barred:
        order = [s for s in order if barred.get(s)] + [s for s in order if not barred.get(s)]
    for s in order:
        k = need[s] - len(hands[s])
        bar = barred.get(s, 0) if barred else 0
        if bar:
            allowed = [c for c in rest if not (1 << parse(c)) & bar]
            if len(allowed) >= k:
                taken = set(allowed[:k])
                hands[s].extend(allowed[:k])
                rest = [c for c in rest if c not in taken]
                continue
        hands[s].extend(rest[:k])
        rest = rest[k:]
    return hands, rest


def _table(view: dict, seat: int, hands: dict[int, list[str]], rest: list[str]) -> dict:
    table = dict(view)
    table["players"] = [dict(p, hand=(p["hand"] if p["seat"] == seat else hands[p["seat"]]))
                        for p in view["players"]]
    out = view.get("out_of_play")
    table["out_of_play"] = rest if isinstance(out, int) else (out or [])
    return table


def resampled(first: State, view: dict, hands: dict[int, list[str]], rest: list[str]) -> State:
    """The table state of another draw from the same view: ``first`` (read from the view's first sampled table,
    which ``state_from_json`` checked) with these hands and leftover cards; nothing else differs between draws."""
    players = tuple(replace(p, hand=parse_many(hands[p.seat])) if p.seat in hands else p for p in first.players)
    if isinstance(view.get("out_of_play"), int):
        return replace(first, players=players, out_of_play=parse_many(rest))
    return replace(first, players=players)


def _key(move: dict):
    return tuple(sorted(move.get("cards", ())))


class MonteCarloBot:
    uses_history = True

    def __init__(self, budget_ms: float = 200.0, playouts: int = 400, candidates: int = 3):
        self.budget_ms = budget_ms
        self.playouts = playouts
        self.candidates = candidates
        self.last_stats: dict = {}

    def __call__(self, view: dict, legal: list[dict], rng: random.Random, history=None, forbidden_last=()) -> dict:
        # The playouts allocate millions of short-lived objects that refcounting frees and no cycles; the cyclic
        # collector would walk the young ones and the memos' survivors again and again (3-4% of the instructions
        # of a search, more of its time). It is paused for one bounded search and then runs as before.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self.choose(view, legal, rng, history=history, forbidden_last=forbidden_last)
        finally:
            if collecting:
                gc.enable()

    def candidates_for(self, seen: Facts) -> list[dict]:
        """The greedy policy's best plays (one per card set, at most ``candidates``) and pass, best first."""
        t = seen.turn
        assert t is not None
        ranked = greedy.ranking(t)
        if ranked[0][0] <= -1000:  # it can go out legally now
            return [t.choices[ranked[0][1]]]
        out: list[dict] = []
        keys = set()
        for _, i in ranked:
            m = t.choices[i]
            k = _key(m)
            if k in keys:
                continue
            keys.add(k)
            if len(out) < self.candidates or m["action"] == "pass":
                out.append(m)
        return out

    def choose(self, view: dict, legal: list[dict], rng: random.Random, history=None, forbidden_last=()) -> dict:
        deadline = time.perf_counter() + self.budget_ms / 1000.0
        seat = legal[0]["seat"]
        seen = facts_of_view(view, legal, forbidden_last)
        if view.get("pending") or len(legal) == 1:
            return greedy.act(seen)
        cands = self.candidates_for(seen)
        if len(cands) == 1:
            return cands[0]
        known = known_gifts(history, seat)
        try:
            rules = ruleset_from_json(view)  # every table sampled from the view has its rules
        except Exception:  # noqa: BLE001 - a view without readable rules: the greedy choice
            return cands[0]
        deck = rules_deck(rules)
        totals = [0.0] * len(cands)
        worlds = done = 0
        first: State | None = None
        while done + len(cands) <= max(self.playouts, len(cands)) and time.perf_counter() < deadline:
            hands, rest = sample_hands(view, seat, rng, known, deck)
            if first is None:
                try:
                    root = first = state_from_json(_table(view, seat, hands, rest), rules)
                except Exception:  # noqa: BLE001 - an inconsistent sample: fall back to the greedy choice
                    break
            else:
                root = resampled(first, view, hands, rest)
            world: list = []
            for m in cands:
                verdict, st, _ = apply(root, m)
                world.append(playout(st, seat, deadline) if verdict.legal else 99)
                if world[-1] is None:
                    break
            if None in world:
                break  # out of time mid-world: a world counts only when every candidate was played in it
            for i, place in enumerate(world):
                totals[i] += place
            done += len(cands)
            worlds += 1
        self.last_stats = {"worlds": worlds, "playouts": done, "candidates": len(cands)}
        if not worlds:
            return cands[0]
        best = min(range(len(cands)), key=lambda i: (totals[i], i))
        return cands[best]
