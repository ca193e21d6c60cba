"""Legal moves proven equal to the judge, position by position (perft, after chess's exhaustive move counts).

At a position, every proposal a seat could send is judged by the engine's own entry point (``advance``), and what
the judge accepts is compared, both ways, with what ``legal_moves`` lists:

- plays: every set of the seat's cards up to ``bound`` cards, and every larger set that reads as one play (a
  group, a run of one suit stepping by 1 or 2, a double run of two suits); for each, no ``as``, every reading of
  its jokers (whole, by rank alone, one joker of two) that the cards or the cards with the field's may be given,
  every declaration that changes anything (none; every effect; every effect with each sequence shape; then every
  part of the declarations that counted) and every decline (none, each declinable rule, a rule that is not);
- a pass; cards the seat does not hold;
- decisions: every set of the seat's cards a give or discard could name (every size up to one more than asked),
  every card of the deck to take, every rank to request with every count, every set of cards to cut back with;
  the next leader's plays during a cut-back window;
- every other seat: a pass and each of its cards, all of which must be refused (they list nothing).

Two proposals are the same move when they leave the same state (``outcome``), whichever joker stands for which card:
so ``as`` maps that name the same cards, a declaration that counts for nothing, a decline of an effect that does
not fire, a request's count beyond what is owed, are forms of one move. A listed play declaring effects stands for
every part of them (each declared effect fires, the others not: RULES.md §6), keeping its shape and the special play
that admitted it; a choose entry stands for each of its choices. The check fails when an accepted outcome is
listed by no entry, or a listed move is refused.

``legal._cannot_beat`` and every other pre-filter of the listing are covered: a proposal they turn away that the
judge accepts is an unlisted outcome. ``benchmarks/perft.py`` runs it over self-play positions of every preset and
random rule switches (figures in benchmarks/RESULTS.md); ``tests/engine/test_perft.py`` is its bounded run.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterator

from .cards import JOKERS_MASK, NORMAL_MASK, card, cards_of, rank_of
from .engine import actors, advance, apply
from .legal import instantiate, legal_moves
from .moves import Move, move_json, parse_move
from .play import DECLARATIONS, judge_play
from .presets import PRESETS, SEATS
from .rules import ALIASES, DECLARABLE, RULES, SEQUENCES
from .rules.base import Rejection
from .shapes import _readings
from .state import FIELD_NAMES, State
from .verdict import Verdict

ALL_SHAPES = frozenset(SEQUENCES)
EFFECTS = frozenset(DECLARABLE - set(SEQUENCES)) | frozenset(ALIASES)  # every declaration but a shape's
NOTHING: frozenset = frozenset()


def outcome(st: State) -> tuple:
    """What a move leaves, as a value two forms of one move share: the state, its field read without saying which
    joker stands for which card."""
    f = st.field
    field_read = None if f is None else (f.seat, f.reading.shape, f.reading.mask, f.reading.eff)
    return tuple(field_read if name == "field" else value for name, value in zip(FIELD_NAMES, st.values()))


def _as_map(reading_jokers, rank_only: bool = False) -> tuple:
    """A proposal's ``as`` (``moves._as_map``'s form) for stand-ins ((joker, rank, suit), ...)."""
    return tuple(sorted((j, r, -1 if rank_only or s < 0 else s) for j, r, s in reading_jokers))


def joker_readings(st: State, mask: int) -> list[tuple]:
    """Every ``as`` a proposal of ``mask`` could carry that names a reading of its jokers: the readings of the
    cards under every shape, and those of the cards joined to the field's, each whole, by rank alone and (two
    jokers) one joker at a time. The first is no ``as``."""
    out: list[tuple] = [()]
    if not mask & JOKERS_MASK:
        return out
    sources = [r.jokers for r in _readings(mask, ALL_SHAPES, 3)]
    if st.field is not None:
        for r in _readings(mask | st.field.reading.mask, ALL_SHAPES, 3):
            sources.append(tuple(x for x in r.jokers if mask >> x[0] & 1))
    for stand_ins in sources:
        for form in (_as_map(stand_ins), _as_map(stand_ins, True)):
            if form and form not in out:
                out.append(form)
            for one in form if len(form) > 1 else ():
                if (one,) not in out:
                    out.append((one,))
    return out


def card_sets(hand: int, bound: int) -> Iterator[int]:
    """Every set of ``hand``'s cards up to ``bound`` cards, then every larger set that reads as one play: a group
    (one rank and jokers), a run of one suit (step 1 or 2) or a double run (two suits over the same ranks), jokers
    filling or standing in for any of its cards."""
    cards = cards_of(hand)
    for k in range(1, min(bound, len(cards)) + 1):
        for combo in combinations(cards, k):
            yield sum(1 << c for c in combo)
    seen: set[int] = set()
    for mask in _larger_sets(hand, bound):
        if mask not in seen:
            seen.add(mask)
            yield mask


def _larger_sets(hand: int, bound: int) -> Iterator[int]:
    jokers = cards_of(hand & JOKERS_MASK)
    joker_sets = [sum(1 << j for j in js) for k in range(len(jokers) + 1) for js in combinations(jokers, k)]
    for r in range(13):
        held = [c for c in cards_of(hand & NORMAL_MASK) if rank_of(c) == r]
        for k in range(1, len(held) + 1):
            for combo in combinations(held, k):
                for js in joker_sets:
                    mask = sum(1 << c for c in combo) | js
                    if mask.bit_count() > bound:
                        yield mask
    windows = [[card(lo + i * step, s) for i in range(length)]
               for s in range(4) for step in (1, 2) for lo in range(13) for length in range(3, 14)
               if lo + (length - 1) * step <= 12]
    windows += [[card(lo + i, s) for i in range(length) for s in pair]
                for pair in combinations(range(4), 2) for lo in range(13) for length in range(3, 14 - lo)]
    for window in windows:
        if len(window) <= bound:
            continue
        held = [c for c in window if hand >> c & 1]
        for js in joker_sets:
            need = len(window) - js.bit_count()
            if need < 1 or need > len(held):
                continue
            for combo in combinations(held, need):
                yield sum(1 << c for c in combo) | js


def _subsets(names) -> Iterator[frozenset]:
    names = sorted(names)
    for k in range(len(names) + 1):
        for combo in combinations(names, k):
            yield frozenset(combo)


@dataclass
class Report:
    """One position's comparison. ``unlisted``: accepted proposals whose outcome no entry lists (one each);
    ``refused``: listed moves the judge refuses, with its reason."""
    proposals: int = 0
    accepted: int = 0
    outcomes: int = 0
    listed: int = 0
    unlisted: list = field(default_factory=list)
    refused: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.unlisted and not self.refused


class Check:
    """The comparison at one position for one seat."""

    def __init__(self, st: State, seat: int, bound: int = 4) -> None:
        self.st, self.seat, self.bound = st, seat, bound
        self.report = Report()
        self.accepted: dict[tuple, Move] = {}

    def judge(self, mv: Move) -> State | Verdict:
        """The judge's answer: the state after, or the rejecting verdict (kept when accepted)."""
        self.report.proposals += 1
        after = advance(self.st, mv)
        if isinstance(after, State):
            self.report.accepted += 1
            key = outcome(after)
            known = self.accepted.get(key)
            if known is None or _size(mv) < _size(known):
                self.accepted[key] = mv  # the plainest form names the outcome
        return after

    def run(self) -> Report:
        st, seat = self.st, self.seat
        listed = self.listed_outcomes()
        if seat in actors(st):
            self.propose_all()
        else:
            self.propose_elsewhere()
        self.report.outcomes, self.report.listed = len(self.accepted), len(listed)
        for key, mv in self.accepted.items():
            if key not in listed:
                self.report.unlisted.append(_describe(mv))
        return self.report

    # -- what legal_moves lists, as outcomes
    def listed_outcomes(self) -> set:
        out: set = set()
        for entry in legal_moves(self.st, self.seat):
            for concrete in self.expand(entry):
                after = advance(self.st, concrete)
                if isinstance(after, State):
                    out.add(outcome(after))
                else:
                    self.report.refused.append((_describe(concrete), after.reason, after.message))
        return out

    def expand(self, entry: dict) -> Iterator:
        """The moves an entry stands for: a choose entry's every choice; a play declaring effects, every part of
        them (its shape and the special play that admitted it kept)."""
        if "choose" in entry:
            c = entry["choose"]
            for k in range(c["min"], c["max"] + 1):
                for chosen in combinations(c["from"], k):
                    yield instantiate(entry, chosen=list(chosen))
            return
        mv = parse_move(entry)
        if mv.action != "play" or not self.st.rules.declarations or not mv.declare:
            yield mv
            return
        plan = judge_play(self._leading(mv), mv)
        special = {plan.view.special} if not isinstance(plan, Rejection) and plan.view.special else set()
        kept = (mv.declare & frozenset(SEQUENCES)) | special
        for part in _subsets(mv.declare - kept):
            yield Move(mv.seat, "play", mv.cards, mv.as_map, kept | part, mv.decline)

    def _leading(self, mv: Move) -> State:
        """The state a play is judged at: the cut-back window closed when the next leader plays through it."""
        from .engine import close_window, leads_through_window
        return close_window(self.st, []) if leads_through_window(self.st, mv) else self.st

    # -- every proposal the seat could send
    def propose_all(self) -> None:
        st, seat = self.st, self.seat
        head = st.pending[0] if st.pending else None
        self.judge(Move(seat, "pass"))
        for c in cards_of(((1 << 54) - 1) & ~st.hand(seat)):
            self.judge(Move(seat, "play", 1 << c))  # cards it does not hold
        if head is None or head.action == "cut_back" and seat == st.turn:
            self.propose_plays()
        if head is None:
            return
        hand = st.hand(seat)
        if head.action in ("give", "discard", "cut_back") and (head.seat == seat or head.action == "cut_back"):
            for k in range(1, min(head.count, hand.bit_count()) + 1):
                for combo in combinations(cards_of(hand), k):
                    self.judge(Move(seat, head.action, sum(1 << c for c in combo)))
            if hand.bit_count() > head.count:
                self.judge(Move(seat, head.action, sum(1 << c for c in cards_of(hand)[:head.count + 1])))
        for c in range(54):
            self.judge(Move(seat, "take", 1 << c))
        for rank in range(14):
            for n in (None,) + tuple(range(1, head.count + 2)):
                self.judge(Move(seat, "request", 0, (), NOTHING, NOTHING, rank, n))
        for action in ("give", "discard", "take", "cut_back"):
            if action != head.action:
                self.judge(Move(seat, action, hand & -hand))  # the wrong decision

    def propose_plays(self) -> None:
        st, seat = self.st, self.seat
        rules = st.rules
        declines = [NOTHING] + [frozenset({d}) for d in sorted(rules.declinable)]
        refused_declines = [frozenset({d}) for d in sorted(set(RULES) - rules.declinable)[:2]]
        shapes = [frozenset({x}) for x in rules.sequences]
        if rules.declarations:
            bases = [NOTHING, EFFECTS, DECLARATIONS] + [x | EFFECTS for x in shapes]
        else:
            bases = [NOTHING, DECLARATIONS] + shapes
        for mask in card_sets(st.hand(seat), self.bound):
            first = self.judge(Move(seat, "play", mask, (), DECLARATIONS))
            if isinstance(first, Verdict) and not _readings(mask, rules.shapes, rules.min_stairs):
                # no play alone, refused with every special play declared and every joker reading allowed: refused
                # whatever it declares or declines, and whatever 'as' narrows the readings of the field to
                continue
            for as_map in joker_readings(st, mask):
                for decline in declines:
                    counted: set[str] = set()
                    for declare in bases:
                        self._play(mask, as_map, declare, decline, counted)
                    if rules.declarations:
                        for part in _subsets(counted):
                            self._play(mask, as_map, part, decline, None)
            for decline in refused_declines:
                self.judge(Move(seat, "play", mask, (), NOTHING, decline))

    def _play(self, mask: int, as_map: tuple, declare: frozenset, decline: frozenset, counted: set | None) -> None:
        """Judge a play; with ``counted``, add the declarations that counted in it (those not void)."""
        mv = Move(self.seat, "play", mask, as_map, declare, decline)
        if isinstance(self.judge(mv), State) and counted is not None and declare:
            plan = judge_play(self._leading(mv), mv)
            assert not isinstance(plan, Rejection)  # accepted just now
            counted.update(declare - set(plan.void))

    def propose_elsewhere(self) -> None:
        """A seat that must not act: a pass and each of its cards, each refused."""
        st, seat = self.st, self.seat
        head = st.pending[0] if st.pending else None
        action = "play" if head is None else head.action
        self.judge(Move(seat, "pass"))
        for c in cards_of(st.hand(seat)):
            self.judge(Move(seat, action if action in ("play", "give", "discard", "cut_back") else "play", 1 << c))


def _size(mv: Move) -> int:
    return len(mv.as_map) + len(mv.declare) + len(mv.decline) + (mv.count is not None)


def _describe(mv) -> dict:
    return mv if isinstance(mv, dict) else move_json(mv)


def check_position(st: State, bound: int = 4) -> list[tuple[int, Report]]:
    """Every seat's comparison at ``st``."""
    return [(seat, Check(st, seat, bound).run()) for seat in range(len(st.players))]


def random_switches(rng: random.Random) -> dict:
    """Up to 12 rules switched at random: each off, on, or on with parameters drawn from its PARAMS (as the
    property tests draw them), and maybe a variant of the jokers (never off)."""
    switchable = sorted(set(RULES) - {"jokers"})
    out: dict = {}
    for rule_id in rng.sample(switchable, rng.randint(0, 12)):
        params = RULES[rule_id].PARAMS
        choice = rng.randrange(3) if params else rng.randrange(2)
        out[rule_id] = [False, True][choice] if choice < 2 else {name: _draw(p, rng) for name, p in params.items()}
    if rng.random() < 0.3:
        out["jokers"] = {name: _draw(p, rng) for name, p in RULES["jokers"].PARAMS.items()}
    return out


def _draw(param, rng: random.Random):
    if isinstance(param.default, bool):
        return rng.random() < 0.5
    if param.choices is not None:
        return rng.choice(param.choices)
    if isinstance(param.default, int) and param.lo is not None:
        return rng.randint(param.lo, param.hi)
    return param.default


def positions(preset: str, switches: dict | None, seed: int, players: int, deals: int = 2) -> Iterator[State]:
    """Every position of a random self-play game of ``deals`` deals (the moves drawn from legal_moves)."""
    from .engine import next_deal
    from .deals import new_game
    st, _ = new_game(preset, switches, [f"p{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    for _ in range(3000):
        acting = actors(st)
        if not acting:
            if st.deal >= deals:
                return
            st, _ = next_deal(st)
            continue
        yield st
        seat = rng.choice(acting)
        st = apply(st, instantiate(rng.choice(legal_moves(st, seat)), rng))[1]


def sample(states: list[State], rng: random.Random, k: int) -> list[State]:
    """``k`` positions of one game, in order: its pending decisions (exchanges, gives, cut backs…) up to a third,
    the rest drawn from its other positions, both deals alike."""
    decisions = [s for s in states if s.pending]
    chosen = rng.sample(decisions, min(len(decisions), k // 3))
    others = [s for s in states if not s.pending]
    chosen += rng.sample(others, min(len(others), k - len(chosen)))
    return sorted(chosen, key=lambda s: s.seq)


def games(rng: random.Random, presets=tuple(PRESETS), switched: bool = True) -> Iterator[tuple[str, dict | None, int, int]]:
    """(preset, switches, seed, players) of games to draw positions from: each preset plain, then with switches."""
    while True:
        for preset in presets:
            lo, hi = SEATS[preset]
            yield preset, None, rng.randrange(10 ** 6), rng.randint(max(lo, 3), min(hi, 6))
            if switched:
                yield preset, random_switches(rng), rng.randrange(10 ** 6), rng.randint(max(lo, 2), min(hi, 6))


@dataclass
class Totals:
    positions: int = 0
    decisions: int = 0            # positions with a pending decision
    seat_checks: int = 0
    proposals: int = 0
    accepted: int = 0
    outcomes: int = 0
    mismatches: list = field(default_factory=list)
    by_preset: dict = field(default_factory=dict)


def run(count: int, seed: int = 0, bound: int = 4, per_game: int = 12, presets=tuple(PRESETS),
        switched: bool = True) -> Totals:
    """Check ``count`` positions (``per_game`` from each game) of self-play games of ``presets``, plain and with
    random switches."""
    totals = Totals()
    rng = random.Random(seed)
    for preset, switches, game_seed, players in games(rng, presets, switched):
        for st in sample(list(positions(preset, switches, game_seed, players)), rng, per_game):
            if totals.positions >= count:
                return totals
            totals.positions += 1
            kind = f"{preset}{' + switches' if switches else ''}"
            totals.by_preset[kind] = totals.by_preset.get(kind, 0) + 1
            totals.decisions += bool(st.pending)
            for seat, report in check_position(st, bound):
                totals.seat_checks += 1
                totals.proposals += report.proposals
                totals.accepted += report.accepted
                totals.outcomes += report.outcomes
                if not report.ok:
                    totals.mismatches.append({"preset": preset, "switches": switches, "seed": game_seed,
                                              "players": players, "seq": st.seq, "seat": seat,
                                              "unlisted": report.unlisted[:5], "refused": report.refused[:5]})
    return totals
