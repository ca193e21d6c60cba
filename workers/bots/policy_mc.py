"""The `policy_mc` bot: mc's determinized search (workers/bots/mc.py) guided by the learned policy (policy.py).

On a turn with a real choice:

- **candidates**: the policy's most probable plays (one per card set, at most ``candidates``) and pass; a legal
  way out is taken at once, and so is a move the policy gives at least ``confident`` of its mass;
- **worlds**: each hidden deal is drawn as mc draws it (mc.sample_hands: the unseen cards, the cards this seat gave
  away kept with their receiver), less the cards the exchange says a seat does not hold (belief.barred),
  ``proposals`` at a time, and one of them kept with a probability proportional to how likely the other seats'
  answers (passes and plays) to singles and groups seen this deal were with those hands (belief.py); without
  history (or ``proposals=1``) the draw is uniform;
- **playouts**: every candidate is played out in each world to the end of the deal (or until this seat's place is
  final), every seat's turns drawn from the policy at ``temperature`` (its other decisions greedy's), the same
  random numbers for every candidate of a world. The default, 0.3, is sharper than the policy as trained: drawn at
  1 the policy plays about as well as greedy, at 0.3 about as well as its most probable move, and with 0.3 the
  search placed 2.15 against three ``mc`` in uecda where 1 placed 2.57 (120 deals each, the same deals);
- **where the choice is close**: from ``min_worlds`` worlds on (6), a candidate whose places are worse than the
  best one's by more than ``prune_z`` (2) standard errors of their paired difference stops being played out; the
  budget goes to the candidates still in doubt (``prune=False``: every candidate is played in every world until the
  budget or the playout cap ends the search);
- **widening**: when one candidate is left, the policy's next play (up to ``widen`` of them, in its order) joins:
  it is played first in the worlds already searched, from their seeds, so that it is compared with the one left on
  the same worlds, then the search goes on as before; with none left to join, the search ends. The budget a clear
  choice leaves is spent on the plays the policy ranked lower.

The choice is the candidate of the best mean place (ties: the policy's order). ``budget_ms`` and ``playouts`` bound
the search as mc's do; the deadline is checked at every ply of a playout, so a turn overruns its budget by one ply at
most. Follow-up decisions (gives, discards, takes, requests, cut-back windows) are greedy's.
"""
from __future__ import annotations

import gc
import math
import random
import time
from typing import Final

from referee import apply, state_from_json
from referee.cards import parse_many
from referee.core import Game
from referee.flow import place_final
from referee.ruleset import ruleset_from_json
from referee.state import State

from . import greedy
from .belief import Evidence, barred, evidence, likelihood
from .cards import rules_deck
from .features import deck_of, situation_of_state
from .mc import MAX_PLIES, NEAR_THE_END, _key, _table, known_gifts, resampled, sample_hands
from .observer import facts, facts_of_view, forced
from .policy import Policy, load, softmax, turn_of

MIN_WORLDS: Final = 6   # worlds every candidate is played in before any is dropped
PRUNE_Z: Final = 2.0    # standard errors of a paired difference that drop a candidate


def playout(root: State, seat: int, policy: Policy, rng: random.Random, deck: int, temperature: float,
            deadline: float | None = None) -> int | None:
    """Play the deal out, every seat's turns drawn from ``policy`` (its other decisions greedy's), until ``seat``'s
    place is final: that place, or None when the ``deadline`` (a time.perf_counter() value) passes first (checked
    at every ply). ``deck``: every card of the game, a bitmask."""
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
            seen = facts(st, s, st.left(s) <= NEAR_THE_END, moves)
            t = seen.turn
            if seen.decision is None and t is not None:
                move = t.choices[policy.sample(t, situation_of_state(st, s, deck), rng, temperature)]
            else:
                move = greedy.act(seen)
        if game.advance(move) is not None:
            break  # not legal after all (cannot happen with a move from legal_moves): the deal is cut short
        if place_final(game.live, seat):
            break
    place = game.live.players[seat].place
    return place if place is not None else len(game.live.players)


class PolicySearchBot:
    uses_history = True

    def __init__(self, budget_ms: float = 200.0, playouts: int = 400, candidates: int = 3, temperature: float = 0.3,
                 proposals: int = 4, confident: float = 0.95, prune: bool = True, weights: str | None = None,
                 widen: int = 4, prune_z: float = PRUNE_Z, min_worlds: int = MIN_WORLDS):
        self.budget_ms, self.playouts, self.candidates, self.widen = budget_ms, playouts, candidates, widen
        self.temperature, self.proposals, self.confident, self.weights = temperature, proposals, confident, weights
        self.prune, self.prune_z, self.min_worlds = prune, prune_z, min_worlds
        self.last_stats: dict = {}

    def __call__(self, view: dict, legal: list[dict], rng: random.Random, history=None, forbidden_last=()) -> dict:
        collecting = gc.isenabled()  # paused for one bounded search, as mc does (mc.MonteCarloBot.__call__)
        gc.disable()
        try:
            return self.choose(view, legal, rng, history=history, forbidden_last=forbidden_last)
        finally:
            if collecting:
                gc.enable()

    def choose(self, view: dict, legal: list[dict], rng: random.Random, history=None, forbidden_last=()) -> dict:
        deadline = time.perf_counter() + self.budget_ms / 1000.0
        self.last_stats = {}
        move = forced(legal)
        if move is not None:
            return move
        at = turn_of(view, legal, forbidden_last)
        if at is None:
            return greedy.act(facts_of_view(view, legal, forbidden_last))
        t, situation = at
        policy = load(self.weights)
        scores, out = policy.scores_of(t, situation)
        if out >= 0:
            return t.choices[out]
        probs = softmax(scores, 1.0, -1)
        cands, reserve = self.candidates_of(t.choices, probs)
        if len(cands) == 1 or probs[cands[0]] >= self.confident:
            return t.choices[cands[0]]
        seat = legal[0]["seat"]
        try:
            rules = ruleset_from_json(view)
        except Exception:  # noqa: BLE001 - a view without readable rules: the policy's choice
            return t.choices[cands[0]]
        tried = cands + reserve
        places = self.search(view, seat, [t.choices[i] for i in tried], len(cands), rules, history, rng, deadline)
        if places is None:
            return t.choices[cands[0]]
        best = min(range(len(places)), key=lambda i: (places[i], i))
        return t.choices[tried[best]]

    def candidates_of(self, choices: list, probs: list[float]) -> tuple[list[int], list[int]]:
        """The indexes of the policy's most probable plays (one per card set, at most ``candidates``) and of the
        pass, most probable first; then the next ``widen`` plays, held in reserve."""
        order = sorted(range(len(choices)), key=lambda i: (-probs[i], i))
        out: list[int] = []
        reserve: list[int] = []
        keys = set()
        for i in order:
            m = choices[i]
            if m["action"] == "pass":
                out.append(i)
                continue
            k = _key(m)
            if k in keys:
                continue
            keys.add(k)
            if len(keys) <= self.candidates:
                out.append(i)
            elif len(reserve) < self.widen:
                reserve.append(i)
        return out, reserve

    def search(self, view: dict, seat: int, cands: list[dict], start: int, rules, history, rng: random.Random,
               deadline: float) -> list[float] | None:
        """Each candidate's mean place over the worlds searched (inf for one dropped or never tried), or None if no
        world was searched. The first ``start`` candidates are searched from the first world; each later one joins
        when a single candidate is left (played first in the worlds already searched, from their seeds)."""
        policy = load(self.weights)
        deck_codes = rules_deck(rules)
        deck = deck_of(rules.jokers)
        known = known_gifts(history, seat)
        bars = barred(history, seat, view) if history is not None else {}
        hidden = any(p["hand"] is None for p in view["players"])  # none with open hands: no deal to weigh
        seen = evidence(history, seat, view) if history is not None and self.proposals > 1 and hidden \
            else Evidence([], 0)
        counts = {p["seat"]: p["hand_count"] for p in view["players"]}
        placed: list[list[int]] = [[] for _ in cands]
        active = list(range(start))
        waiting = list(range(start, len(cands)))
        searched: list[tuple[State, int]] = []  # each world's root and playout seed, for a candidate that joins
        first: State | None = None
        worlds = done = drawn = 0
        while done + len(active) <= max(self.playouts, len(active)) and time.perf_counter() < deadline:
            if len(active) == 1 and waiting and worlds >= self.min_worlds:
                joining = waiting.pop(0)
                for root, seed in searched:
                    place = self.place_of(root, cands[joining], seat, policy, seed, deck, deadline)
                    if place is None:
                        break
                    placed[joining].append(place)
                    done += 1
                if len(placed[joining]) < worlds:
                    break  # out of time before it caught up: it is not compared
                active = _close(placed, sorted(active + [joining]), self.prune_z)
                continue
            hands, rest, tries = self.draw(view, seat, rng, known, bars, deck_codes, seen, counts, deck, policy)
            drawn += tries
            if first is None:
                try:
                    root = first = state_from_json(_table(view, seat, hands, rest), rules)
                except Exception:  # noqa: BLE001 - an inconsistent sample: the policy's choice
                    return None
            else:
                root = resampled(first, view, hands, rest)
            seed = rng.getrandbits(64)
            world: list[int | None] = []
            for i in active:
                place = self.place_of(root, cands[i], seat, policy, seed, deck, deadline)
                world.append(place)
                if place is None:
                    break
            if None in world:
                break  # out of time mid-world: a world counts only when every candidate still in was played in it
            for i, place in zip(active, world):
                assert place is not None
                placed[i].append(place)
            done += len(active)
            worlds += 1
            if waiting:
                searched.append((root, seed))
            if self.prune and worlds >= self.min_worlds and len(active) > 1:
                active = _close(placed, active, self.prune_z)
            if len(active) == 1 and not waiting:
                break
        self.last_stats = {"worlds": worlds, "playouts": done, "candidates": len(cands) - len(waiting),
                           "left": len(active), "drawn": drawn, "answers": len(seen.answers)}
        if not worlds:
            return None
        return [sum(placed[i]) / len(placed[i]) if i in active else math.inf for i in range(len(cands))]

    def place_of(self, root: State, move: dict, seat: int, policy: Policy, seed: int, deck: int,
                 deadline: float) -> int | None:
        """``seat``'s place after ``move`` in the world ``root``, played out from ``seed`` (None: out of time)."""
        verdict, st, _ = apply(root, move)
        if not verdict.legal:
            return 99
        return playout(st, seat, policy, random.Random(seed), deck, self.temperature, deadline)

    def draw(self, view: dict, seat: int, rng: random.Random, known, bars: dict[int, int], deck_codes: list[str],
             seen: Evidence, counts: dict[int, int], deck: int, policy: Policy
             ) -> tuple[dict[int, list[str]], list[str], int]:
        """One world's hidden hands (and the unseen cards left over): drawn as ``sample_hands`` draws them (uniform
        but for the ``bars``) without evidence, else the pick of ``proposals`` such draws by their likelihood. The
        number of draws made is the third value."""
        if not seen.answers:
            hands, rest = sample_hands(view, seat, rng, known, deck_codes, bars)
            return hands, rest, 1
        drawn: list[tuple[dict[int, list[str]], list[str]]] = []
        weights: list[float] = []
        for _ in range(self.proposals):
            hands, rest = sample_hands(view, seat, rng, known, deck_codes, bars)
            drawn.append((hands, rest))
            masks = {s: parse_many(cards) for s, cards in hands.items()}
            weights.append(likelihood(seen, masks, counts, deck, policy))
        x = rng.random() * sum(weights)
        for i, w in enumerate(weights):
            x -= w
            if x < 0:
                return drawn[i][0], drawn[i][1], len(drawn)
        return drawn[-1][0], drawn[-1][1], len(drawn)


def _close(placed: list[list[int]], active: list[int], z: float) -> list[int]:
    """The candidates still in doubt: those not worse than the best by more than ``z`` standard errors of their
    paired difference of places (every candidate still in has been played in the same worlds)."""
    best = min(active, key=lambda i: (sum(placed[i]), i))
    keep = [best]
    for i in active:
        if i == best:
            continue
        diffs = [a - b for a, b in zip(placed[i], placed[best])]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        if mean - z * math.sqrt(var / n) <= 0.0:
            keep.append(i)
    return sorted(keep)
