"""Train the policy's weights (workers/bots/policy.json) from self-play, deterministically under a seed.

    nice -n 10 python -m workers.bots.train_policy --seed 2026 --out workers/bots/policy.json

1. **Positions**: self-play deals (matches of ``--match-deals`` deals, so exchanges and the previous places count)
   cycle through the uecda, nanko and gekifugo presets (or ``--presets``) and each with random rule switches; every seat
   plays greedy's move, or a random legal move with probability ``--explore``, so the positions vary. A turn to
   play or pass with at least two card sets to choose from is kept with probability ``--keep``, until
   ``--positions`` are kept.
2. **Imitation of search**: each kept position is labelled with the move the ``--teacher`` chooses there with
   ``--label-playouts`` playouts (no time limit: the label depends on the seed alone), from what the observer shows
   that seat and its redacted history. The teacher is ``mc``, or ``policy_mc`` guided by the policy trained before
   (``--teacher-weights``), so that each version learns from a search stronger than the one before it. Labelling
   runs in ``--processes`` processes and gives the same labels for any number of them. The weights are fitted to
   those labels by the softmax's cross-entropy (full batch, Adam, ``--steps`` steps, L2 ``--l2``).
3. **Improvement by self-play**: ``--rounds`` rounds of REINFORCE. In a round's ``--deals`` deals two seats play the
   policy being trained, the other two an earlier version (the imitation one, or a later one kept), every move drawn
   from its policy; each trained seat's moves are reinforced by its place (2.5 - place: above the table's mean place
   is good), and the imitation loss is kept in the objective (weight ``--anchor``) so that the policy does not drift
   from search where the rewards say little. A round's weights are kept only if, over ``--eval-deals`` deals (the
   most probable move for every seat, two seats each), they place better on average than the version they started
   from; else that version stays.

The file written records its ``version``, the command (``trained.command``), the seed, the CPU seconds of the run,
the positions, the loss and each round's outcome. ``tests/bots/test_learned_policy.py`` trains a tiny model twice on
one seed and checks the weights are identical.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
from pathlib import Path
from typing import Callable

import numpy as np

from referee import InputError, actors, apply, instantiate, new_game, next_deal, redact_event
from referee.presets import PRESETS

from .features import SIZE, deck_of, features, situation_of_state, situation_of_view
from .mc import MonteCarloBot, NEAR_THE_END
from .observer import facts, facts_of_view, forced, observe
from .policy import WEIGHTS, Policy, way_out
from . import greedy
from ..tournament import random_switches

VERSION = 1
SEATS = ["a", "b", "c", "d"]


def tables(rng: random.Random, presets=tuple(PRESETS)):
    """Endless (preset, rules): each of ``presets`` as it is, then with random rule switches, in turn."""
    while True:
        for preset in presets:
            yield preset, None
            yield preset, random_switches(rng)


def matches(rng: random.Random, match_deals: int, presets=tuple(PRESETS)):
    """Endless self-play matches: (state at a deal's start, its events so far), deal by deal; the caller plays each
    deal to its end before asking for the next one (``send`` the finished state)."""
    for preset, rules in tables(rng, presets):
        try:
            st, events = new_game(preset, rules, SEATS, rng.randrange(1 << 30))
        except InputError:
            continue  # switches that contradict each other: the next table
        for deal in range(match_deals):
            if deal:
                st, events = next_deal(st)
            st = yield st, events
            if st is None or st.phase != "deal_over":
                break


def real_choice(legal: list[dict]) -> bool:
    """Two card sets (or a card set and the pass) to choose from."""
    return len({tuple(sorted(m.get("cards", ()))) for m in legal}) > 1


def teacher(args):
    """The search whose choices label the positions: ``mc``, or ``policy_mc`` guided by ``--teacher-weights`` (the
    committed policy by default), each with ``--label-playouts`` playouts and no time limit."""
    if args.teacher == "policy_mc":
        from .policy_mc import PolicySearchBot
        return PolicySearchBot(budget_ms=1e12, playouts=args.label_playouts, weights=args.teacher_weights)
    return MonteCarloBot(budget_ms=1e12, playouts=args.label_playouts)


def collect(args, rng: random.Random) -> list[tuple[np.ndarray, int]]:
    """Positions labelled by the teacher: (features of every legal move, the index of its choice). The positions
    are drawn first, then labelled (by ``--processes`` processes): a label depends on its position and seed alone."""
    asked: list[tuple[np.ndarray, dict, list[dict], list, tuple, int]] = []
    games = matches(rng, args.match_deals, args.presets)
    st, events = next(games)
    while len(asked) < args.positions:
        history = [[redact_event(ev, s) for ev in events] for s in range(len(SEATS))]
        while actors(st) and len(asked) < args.positions:
            s = actors(st)[0]
            seen = observe(st, s)
            move = forced(seen.legal)
            if move is None and not st.pending and real_choice(seen.legal) and rng.random() < args.keep:
                at = facts_of_view(seen.view, seen.legal, seen.forbidden_last).turn
                assert at is not None
                rows = features(at, situation_of_view(seen.view, s, deck_of(st.rules.jokers)))
                if way_out(rows) < 0:
                    asked.append((np.array(rows, dtype=np.float64), seen.view, seen.legal, list(history[s]),
                                  tuple(seen.forbidden_last), rng.getrandbits(32)))
            if move is None:
                if rng.random() < args.explore:
                    move = instantiate(rng.choice(seen.legal), rng)
                else:
                    move = greedy.choose(seen.view, seen.legal, rng, forbidden_last=seen.forbidden_last)
            _, st, evs = apply(st, move)
            for s2 in range(len(SEATS)):
                history[s2] += [redact_event(ev, s2) for ev in evs]
        st, events = games.send(st)
    questions = [(view, legal, history, last, seed) for _, view, legal, history, last, seed in asked]
    labels: list[int] = []
    with multiprocessing.get_context("fork").Pool(args.processes, _start_labelling, (args,)) as pool:
        for label in pool.imap(_label, questions, chunksize=8):
            labels.append(label)
            if args.verbose and len(labels) % 100 == 0:
                print(f"positions labelled {len(labels)}/{len(questions)}", file=sys.stderr, flush=True)
    return [(rows, label) for (rows, *_), label in zip(asked, labels)]


_teacher: Callable[..., dict] | None = None  # the labelling process's teacher


def _start_labelling(args) -> None:
    global _teacher
    _teacher = teacher(args)


def _label(question) -> int:
    view, legal, history, last, seed = question
    assert _teacher is not None
    chosen = _teacher(view, legal, random.Random(seed), history=history, forbidden_last=last)
    return next(i for i, m in enumerate(legal) if m is chosen)


class Batch:
    """Positions as one matrix: every legal move's features, the position each row belongs to, the chosen rows,
    and each row's weight in the gradient (one per position, or a self-play move's reward)."""

    def __init__(self, positions: list[tuple[np.ndarray, int]], weights: list[float] | None = None):
        self.x = np.concatenate([rows for rows, _ in positions]) if positions else np.zeros((0, SIZE))
        sizes = np.array([len(rows) for rows, _ in positions], dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self.of_row = np.repeat(np.arange(len(positions)), sizes)
        self.chosen = self.starts + np.array([label for _, label in positions], dtype=np.int64)
        self.weights = np.ones(len(positions)) if weights is None else np.array(weights, dtype=np.float64)
        self.count = len(positions)

    def probabilities(self, w: np.ndarray) -> np.ndarray:
        scores = self.x @ w
        top = np.maximum.reduceat(scores, self.starts)
        e = np.exp(scores - top[self.of_row])
        return e / np.add.reduceat(e, self.starts)[self.of_row]

    def loss_and_gradient(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        """The weighted mean cross-entropy of the chosen moves and its gradient."""
        if not self.count:
            return 0.0, np.zeros_like(w)
        p = self.probabilities(w)
        loss = -float(np.sum(self.weights * np.log(p[self.chosen] + 1e-12))) / self.count
        residual = p * self.weights[self.of_row]
        residual[self.chosen] -= self.weights
        return loss, self.x.T @ residual / self.count

    def accuracy(self, w: np.ndarray) -> float:
        p = self.probabilities(w)
        best = np.array([self.starts[i] + int(np.argmax(p[self.starts[i]:self.starts[i] + n]))
                         for i, n in enumerate(np.diff(np.append(self.starts, len(p))))])
        return float(np.mean(best == self.chosen)) if self.count else 0.0


class Adam:
    def __init__(self, lr: float):
        self.lr, self.t = lr, 0
        self.m: np.ndarray | float = 0.0
        self.v: np.ndarray | float = 0.0

    def step(self, w: np.ndarray, g: np.ndarray) -> np.ndarray:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * g
        self.v = 0.999 * self.v + 0.001 * g * g
        m, v = self.m / (1 - 0.9 ** self.t), self.v / (1 - 0.999 ** self.t)
        return w - self.lr * m / (np.sqrt(v) + 1e-8)


def fit(batch: Batch, w: np.ndarray, steps: int, lr: float, l2: float) -> tuple[np.ndarray, float]:
    opt = Adam(lr)
    loss = 0.0
    for _ in range(steps):
        loss, g = batch.loss_and_gradient(w)
        w = opt.step(w, g + l2 * w)
    return w, loss


def play_deals(policies: list[Policy], deals: int, rng: random.Random, match_deals: int, sample: bool,
               record: set[int], presets=tuple(PRESETS)
               ) -> tuple[list[tuple[np.ndarray, int]], list[float], list[float]]:
    """Self-play of ``deals`` deals, seat i playing ``policies[i]`` (drawn from it with ``sample``, else its most
    probable move; other decisions greedy's). The moves of the seats in ``record``: (features, chosen) with the
    reward of the deal's place, and every seat's places added up."""
    moves: list[tuple[np.ndarray, int]] = []
    rewards: list[float] = []
    places = [0.0] * len(policies)
    games = matches(rng, match_deals, presets)
    st, _ = next(games)
    for _ in range(deals):
        mine: list[tuple[int, tuple[np.ndarray, int]]] = []
        while actors(st):
            s = actors(st)[0]
            options = _options(st, s)
            move = forced(options)
            if move is None:
                seen = facts(st, s, st.left(s) <= NEAR_THE_END, options)
                t = seen.turn
                if seen.decision is None and t is not None:
                    situation = situation_of_state(st, s, deck_of(st.rules.jokers))
                    policy = policies[s]
                    i = policy.sample(t, situation, rng) if sample else policy.best(t, situation)
                    if s in record and real_choice_moves(t.moves):
                        rows = features(t, situation)
                        if way_out(rows) < 0:
                            mine.append((s, (np.array(rows, dtype=np.float64), i)))
                    move = t.choices[i]
                else:
                    move = greedy.act(seen)
            verdict, st, _ = apply(st, move)
            assert verdict.legal
        for s, p in enumerate(st.players):
            places[s] += p.place or len(st.players)
        for s, position in mine:
            moves.append(position)
            rewards.append((2.5 - (st.players[s].place or 4)) / 1.5)
        st, _ = games.send(st)
    return moves, rewards, places


def _options(st, seat: int) -> list:
    from referee.legal import options
    return options(st, seat, noted=True)


def real_choice_moves(moves: list) -> bool:
    return len({m.cards for m in moves}) > 1 or (len(moves) > 1 and any(m.action == "pass" for m in moves))


def evaluate(new: Policy, old: Policy, deals: int, rng: random.Random, match_deals: int,
             presets=tuple(PRESETS)) -> float:
    """``new``'s mean place at a table with ``old`` (two seats each, both arrangements), most probable moves."""
    half = max(1, deals // 2)
    seed = rng.getrandbits(32)  # the same deals in both arrangements
    _, _, a = play_deals([new, old, new, old], half, random.Random(seed), match_deals, False, set(), presets)
    _, _, b = play_deals([old, new, old, new], half, random.Random(seed), match_deals, False, set(), presets)
    return (a[0] + a[2] + b[1] + b[3]) / (4 * half)


def cpu_seconds() -> float:
    """This process's CPU time and that of its finished children (the labelling processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def train(args) -> tuple[Policy, dict]:
    started = cpu_seconds()
    rng = random.Random(args.seed)
    positions = collect(args, rng)
    imitation = Batch(positions)
    w, loss = fit(imitation, np.zeros(SIZE), args.steps, args.lr, args.l2)
    report: dict = {"positions": len(positions), "imitation_loss": round(loss, 4),
                    "imitation_accuracy": round(imitation.accuracy(w), 4), "rounds": []}
    kept = [Policy(list(w), VERSION)]
    for r in range(args.rounds):
        current = Policy(list(w), VERSION)
        earlier = kept[rng.randrange(len(kept))]
        moves, rewards, _ = play_deals([current, earlier, current, earlier], args.deals, rng, args.match_deals,
                                       True, {0, 2}, args.presets)
        reinforce = Batch(moves, rewards)
        w_new = w
        opt = Adam(args.rl_lr)
        for _ in range(args.rl_steps):
            _, g_rl = reinforce.loss_and_gradient(w_new)
            _, g_im = imitation.loss_and_gradient(w_new)
            w_new = opt.step(w_new, g_rl + args.anchor * g_im + args.l2 * w_new)
        candidate = Policy(list(w_new), VERSION)
        place = evaluate(candidate, current, args.eval_deals, rng, args.match_deals, args.presets)
        better = place < 2.5
        report["rounds"].append({"round": r + 1, "moves": len(moves), "against": kept.index(earlier),
                                 "eval_mean_place": round(place, 4), "kept": better})
        if better:
            w = w_new
            kept.append(candidate)
        if args.verbose:
            print(f"round {r + 1}: mean place {place:.3f} against the version it started from "
                  f"({'kept' if better else 'dropped'})", file=sys.stderr, flush=True)
    report["cpu_seconds"] = round(cpu_seconds() - started, 1)
    return Policy(list(w), VERSION, report), report


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m workers.bots.train_policy", description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--positions", type=int, default=3000, help="positions labelled by the teacher")
    p.add_argument("--label-playouts", type=int, default=12, help="the teacher's playouts per label")
    p.add_argument("--teacher", choices=("mc", "policy_mc"), default="mc", help="the search that labels positions")
    p.add_argument("--teacher-weights", default=None,
                   help="policy_mc's weights as a teacher (default: the committed policy.json)")
    p.add_argument("--processes", type=int, default=1, help="processes that label positions")
    p.add_argument("--keep", type=float, default=0.2, help="share of the turns with a choice that are labelled")
    p.add_argument("--explore", type=float, default=0.2, help="share of random moves in the self-play of positions")
    p.add_argument("--match-deals", type=int, default=3)
    p.add_argument("--steps", type=int, default=600, help="Adam steps of the imitation fit")
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--l2", type=float, default=1e-4)
    p.add_argument("--rounds", type=int, default=3, help="rounds of self-play improvement")
    p.add_argument("--deals", type=int, default=1500, help="self-play deals per round")
    p.add_argument("--rl-steps", type=int, default=50)
    p.add_argument("--rl-lr", type=float, default=0.005)
    p.add_argument("--anchor", type=float, default=1.0, help="weight of the imitation loss in the improvement")
    p.add_argument("--eval-deals", type=int, default=600, help="deals that decide whether a round is kept")
    p.add_argument("--presets", type=lambda v: tuple(v.split(",")), default=tuple(PRESETS),
                   help="the presets played (each as it is and with random switches; default: all)")
    p.add_argument("--out", default=str(WEIGHTS))
    p.add_argument("--verbose", action="store_true")
    return p


def dump(data: dict) -> str:
    """The weights file's text: one key a line."""
    return "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items()) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    policy, report = train(args)
    report["command"] = "python -m workers.bots.train_policy " + " ".join(argv)
    report["seed"] = args.seed
    policy.trained = {"command": report.pop("command"), "seed": report.pop("seed"), **report}
    Path(args.out).write_text(dump(policy.to_json()))
    print(json.dumps(policy.trained))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
