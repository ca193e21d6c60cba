"""The learned policy: a softmax over a turn's plays and pass, linear in their features (workers/bots/features.py).

A move's score is the dot product of its features with the weights; its probability is the softmax of the scores
divided by a temperature (1: the policy as trained; lower: sharper). One rule is kept outside the model: a play that
empties the hand without a forbidden finish is always taken (it ends the seat's deal at the best place it can get).
The policy covers turns to play or pass; every other decision (gives, discards, takes, requests, cut-back windows)
is the greedy bot's (``probabilities`` puts all the mass on greedy's entry there).

The weights live beside this module in ``policy.json``: ``version``, the feature ``names`` they were trained on (a
file whose names differ from ``features.NAMES`` is refused), the ``weights``, and under ``trained`` the exact
command that wrote them, its seed, the CPU time it took and what it did (workers/bots/train_policy.py). ``load()``
reads them once.

The ``policy`` strategy (``PolicyBot``) plays the policy without search: its most probable move, or one sampled
(``sample=True``), in well under a millisecond of its own.
"""
from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Final

from referee import build_ruleset

from . import greedy
from .features import NAMES, SIZE, Situation, deck_of, situation_of_view
from .features import scores as move_scores
from .observer import Turn, facts_of_view, forced

WEIGHTS: Final = Path(__file__).with_name("policy.json")
GOES_OUT: Final = NAMES.index("goes_out")


class Policy:
    """Weights over ``features.NAMES``, and what the file says of them (``version``, ``trained``)."""
    __slots__ = ("weights", "version", "trained")
    weights: list[float]
    version: int
    trained: dict

    def __init__(self, weights: list[float], version: int = 0, trained: dict | None = None) -> None:
        if len(weights) != SIZE:
            raise ValueError(f"a policy has {SIZE} weights, not {len(weights)}")
        self.weights = [float(w) for w in weights]
        self.version = version
        self.trained = trained or {}

    def scores(self, rows: list[list[float]]) -> list[float]:
        """Each feature row's score (the logits of the softmax)."""
        w = self.weights
        out: list[float] = []
        for row in rows:
            total = 0.0
            for k in range(SIZE):
                v = row[k]
                if v != 0.0:
                    total += w[k] * v
            out.append(total)
        return out

    def scores_of(self, t: Turn, s: Situation) -> tuple[list[float], int]:
        """Each move's score (``scores`` of its features, without building them) and the index of the first legal
        way out (-1: none)."""
        return move_scores(t, s, self.weights)

    def distribution(self, t: Turn, s: Situation, temperature: float = 1.0) -> list[float]:
        """The probability of each move of ``t``, in its order (a legal way out: all of it)."""
        scores, out = self.scores_of(t, s)
        return softmax(scores, temperature, out)

    def sample(self, t: Turn, s: Situation, rng: random.Random, temperature: float = 1.0) -> int:
        """The index of a move of ``t`` drawn from the policy."""
        scores, out = self.scores_of(t, s)
        if out >= 0:
            return out
        probs = softmax(scores, temperature, -1)
        x = rng.random()
        for i in range(len(probs)):
            x -= probs[i]
            if x < 0.0:
                return i
        return len(probs) - 1

    def best(self, t: Turn, s: Situation) -> int:
        """The index of the policy's most probable move of ``t`` (the first of equals)."""
        scores, out = self.scores_of(t, s)
        if out >= 0:
            return out
        best = 0
        for i in range(len(scores)):
            if scores[i] > scores[best]:
                best = i
        return best

    def to_json(self) -> dict:
        return {"version": self.version, "names": list(NAMES), "weights": [round(w, 6) for w in self.weights],
                "trained": self.trained}


def way_out(rows: list[list[float]]) -> int:
    """The index of the first move that empties the hand without a forbidden finish, or -1."""
    for i in range(len(rows)):
        if rows[i][GOES_OUT] == 1.0:
            return i
    return -1


def softmax(scores: list[float], temperature: float, certain: int) -> list[float]:
    """The softmax of ``scores / temperature``; ``certain`` (an index, or -1) takes all the mass."""
    if certain >= 0:
        return [1.0 if i == certain else 0.0 for i in range(len(scores))]
    top = max(scores)
    exps = [math.exp((x - top) / temperature) for x in scores]
    total = sum(exps)
    return [e / total for e in exps]


def from_json(data: dict) -> Policy:
    names = tuple(data.get("names") or ())
    if names != NAMES:
        raise ValueError("the policy's weights were trained on other features than features.NAMES: retrain "
                         "(python -m workers.bots.train_policy)")
    return Policy(list(data["weights"]), int(data.get("version", 0)), data.get("trained") or {})


_loaded: dict[str, Policy] = {}


def load(path: str | None = None) -> Policy:
    """The policy in ``path`` (default: the committed ``policy.json``), read once."""
    where = str(WEIGHTS) if path is None else path
    hit = _loaded.get(where)
    if hit is None:
        hit = _loaded[where] = from_json(json.loads(Path(where).read_text()))
    return hit


def turn_of(view: dict, legal: list[dict], forbidden_last=()) -> tuple[Turn, Situation] | None:
    """The Turn and Situation of a turn to play or pass, from what a bot is given (None for any other decision)."""
    if view.get("pending"):
        return None
    seen = facts_of_view(view, legal, forbidden_last)
    if seen.turn is None:
        return None
    seat = legal[0]["seat"]
    return seen.turn, situation_of_view(view, seat, _deck(view))


def _deck(view: dict) -> int:
    return deck_of(build_ruleset(view["preset"], view["rules"]).jokers)


def probabilities(view: dict, legal: list[dict], forbidden_last=(), policy: Policy | None = None,
                  temperature: float = 1.0) -> list[float]:
    """The probability of each entry of ``legal`` under the policy (summing to 1). On a turn to play or pass it is
    the softmax; for any other decision all of it goes to the entry the greedy bot chooses."""
    policy = load() if policy is None else policy
    at = turn_of(view, legal, forbidden_last)
    if at is None:
        chosen = greedy.choose(view, legal, random.Random(0), forbidden_last=forbidden_last)
        index = next((i for i, m in enumerate(legal) if m is chosen), None)
        if index is None:  # an instantiated choose entry: the entry it came from
            index = next((i for i, m in enumerate(legal) if "choose" in m and m["action"] == chosen["action"]), 0)
        return [1.0 if i == index else 0.0 for i in range(len(legal))]
    t, s = at
    return policy.distribution(t, s, temperature)


class PolicyBot:
    """The ``policy`` strategy: the policy's most probable move, or with ``sample`` one drawn from it (at
    ``temperature``); the greedy bot's answer to every decision that is not a turn to play or pass."""

    def __init__(self, sample: bool = False, temperature: float = 1.0, weights: str | None = None):
        self.sample, self.temperature, self.weights = sample, temperature, weights

    def __call__(self, view: dict, legal: list[dict], rng: random.Random, history=None, forbidden_last=()) -> dict:
        move = forced(legal)
        if move is not None:
            return move
        at = turn_of(view, legal, forbidden_last)
        if at is None:
            return greedy.act(facts_of_view(view, legal, forbidden_last))
        t, s = at
        policy = load(self.weights)
        i = policy.sample(t, s, rng, self.temperature) if self.sample else policy.best(t, s)
        return t.choices[i]
