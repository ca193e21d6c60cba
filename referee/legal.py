"""legal_moves: every legal move of a seat, built from candidate card sets and checked by the judge.

Every reading of the jokers that reads some card otherwise (its rank or its suit) is listed, with its 'as' (which
joker stands for which card is no difference); cards an attach revolution joins to the field also with every
reading of their jokers the joined cards may take. Under declarations_required each play comes with its shape
declaration, once declaring every effect that would fire and once declaring none: the first stands for every part
of its declarations too (each declared effect fires, the others do not), its shape and special play kept. An
optional jack_back comes with and without its decline. ``referee/perft.py`` proves the listing equal to what the
judge accepts, position by position (tests/engine/test_perft.py, benchmarks/perft.py).

A decision that asks a seat to choose cards (a 7-pass give, a 10-discard, an exchange give, Bloody Mary ties)
is one *choose entry* rather than every card set (RULES.md §10.13): ``{"seat", "action", "choose": {"from":
[cards], "min": a, "max": b, "limit"?: {"cards": [...], "max": k}}, "cards"?: [always included], "rule"}``.
Its moves are ``{"seat", "action", "cards": cards + a..b of from}`` (at most k of limit.cards); ``instantiate``
makes one.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import TYPE_CHECKING, Final, cast

from .annotate import annotate, note_listed, nothing, play_annotation
from .candidates import Beat, candidates, possible_cards, rule_sets

from .cards import JOKERS_MASK, NORMAL_MASK, cards_of, codes, count
from .decisions import _allowed, strongest_split, window
from .engine import close_window
from .moves import NONE, Move, move_json
from .memo import remember
from .play import SEQUENCE_SET, Plan, alias_holds, joins_field, judge_on, redeclared
from .rules import ALIASES, DECLARABLE, SEQUENCES
from .rules.base import Rejection
from .shapes import Reading, beats, loose, matches_as, readings
from .state import Pending, State
from .view import PlayView, Table, table_of

if TYPE_CHECKING:
    from .ruleset import Ruleset

EFFECT_DECLARATIONS: Final = sorted(DECLARABLE - set(SEQUENCES))


_SETS: Final[dict] = {}


def _names(names) -> frozenset:
    """One shared frozenset per list of names: memo keys and listed moves hold millions of these otherwise."""
    if not names:
        return NONE
    key = tuple(names)
    out = _SETS.get(key)
    if out is None:
        out = _SETS[key] = frozenset(key)
    return out


_OUTCOMES: Final[dict[tuple, tuple]] = {}  # a plain dict: compiled code looks it up in C, an lru_cache by a Python call


def _outcome_readings(mask: int, shapes: frozenset, min_stairs: int) -> tuple:
    """One form per distinct play the cards may be read as (cached), as ``_forms`` gives them: readings are merged
    only when they read every card alike (shape, ranks and suits), differing at most in which joker stands for
    which card. Any rule may read a stand-in's suit (a lock, a color), so readings that differ in one are never
    merged."""
    key = (mask, shapes, min_stairs)
    known = _OUTCOMES.get(key)
    if known is None:
        if len(_OUTCOMES) >= 1 << 15:
            _OUTCOMES.clear()
        known = _OUTCOMES[key] = _distinct_outcomes(mask, shapes, min_stairs)
    return known


def _distinct_outcomes(mask: int, shapes: frozenset, min_stairs: int) -> tuple:
    seen, out = set(), []
    r: Reading
    for r in readings(mask, shapes, min_stairs):
        key = (r.shape, r.lo, r.hi, r.suits, r.eff)
        if key not in seen:
            seen.add(key)
            out.append((r, tuple(sorted(r.jokers)), None))
    return tuple(out)


def _cannot_beat(table: Table, rules: Ruleset, reading: Reading, field: Reading, jokers: tuple) -> bool:
    """A quick no before judging, as the judge would say it (play._check, play._special) of the move listed for
    ``reading`` (its jokers read as ``jokers`` say): a play that does not match or beat the field, or that a rule's
    legality hook rejects (a lock), and that no special play admits. Under locks many candidates on a field are
    rejected: judging each through the memos cost several times this. A quick no the judge would not say is an
    unlisted move for referee/perft.py."""
    view = PlayView(table, reading, None, NONE, jokers)
    if reading.shape == field.shape and reading.n == field.n and beats(reading, field, view.reversed, rules.compare) \
            and not any(legality(view, p) is not None for legality, p in rules.legality_hooks):
        return False
    return not any(special_play(view, p) is not None for _, special_play, p in rules.special_hooks)


def _play_moves(st: State, seat: int, noted: bool = False):
    """Every legal play of ``seat`` as a Move. Outside table mode (unknown cards), what a candidate set yields is
    a function of the seat's Table and the cards, as its judgement is: it is memoised under them. With ``noted``
    (the caller annotates them), a listing judged afresh memoises the annotations it can make at once."""
    rules = st.rules
    p = st.players[seat]
    unknown, left = p.unknown, p.left
    possible = possible_cards(st, seat)
    table = table_of(st, seat)
    attach: frozenset | set = NO_SETS
    if st.field is None:
        beat = None
    else:
        attach = rule_sets(st, possible, rules.joined_cand_hooks) if rules.joined_cand_hooks else NO_SETS
        beat = Beat(st)
    memo = rules.moves_memo
    required = table.required
    cands = candidates(possible, rules, beat=beat)
    if beat is not None and (rules.special_cand_hooks or attach):
        cands |= rule_sets(st, possible, rules.special_cand_hooks) | attach
    out: list = []
    listed: tuple | None
    # the memo keys hold each card set as the object it is (compiled, an int read from the set is unboxed, and put
    # in a key it would be boxed again: an allocation per key)
    boxed: object
    for boxed in cast(set, cands):
        mask = cast(int, boxed)
        if unknown and (count(mask) > left or count(mask & ~p.hand) > unknown):
            continue
        if mask & required != required:
            continue  # the judge would reject it (a rule's legality hook): not worth judging
        attached = boxed in attach if attach else False
        if unknown:
            listed = _listed(table, rules, seat, mask, left - count(mask), attached, noted)
        else:
            # a seat's own copy first: only the seat that listed the cards first reads the shared entry each time
            listed = memo.get((table, seat, boxed, attached))
            if listed is None:
                listed = memo.get((table, boxed, attached))
                if listed is None:
                    # the cards left after it counted only here: most card sets are listed from the memo
                    listed = remember(memo, (table, boxed, attached),
                                      _listed(table, rules, seat, mask, left - count(mask), attached, noted))
                elif listed and cast(Move, listed[0]).seat != seat:
                    # the listing is a function of the table and the cards: another seat's differs only in 'seat'
                    listed = remember(memo, (table, seat, boxed, attached), tuple(move.for_seat(seat) for move in listed))
        if listed:
            out.extend(listed)
    return out


NO_SETS: Final[frozenset] = frozenset()


def _forms(rules: Ruleset, field: Reading | None, mask: int) -> tuple:
    """The forms the cards ``mask`` are listed in when an attach revolution (JOINS_FIELD) may join them to the
    field: (reading, the 'as' of the move listed for it, None or the joined field it is listed for). Each distinct
    reading with its jokers' stand-ins (``_outcome_readings``, the forms of any other cards); also without 'as',
    the combined field deciding their reading (§10.6); then, for each other reading of their jokers the cards
    joined to the field's may take (onto ♠4-5-6 a joker may be ♠3 as well as the stronger ♠7), that reading,
    listed only if no form before leaves that field."""
    forms = _outcome_readings(mask, rules.shapes, rules.min_stairs)
    alone = loose(mask)
    out = list(forms)
    out.append((alone, (), None))
    if field is not None and mask & JOKERS_MASK:
        shapes, least = rules.field_shapes
        known = {jokers for _, jokers, _ in out}
        for joined in readings(field.mask | mask, shapes, least):
            jokers = tuple(sorted(x for x in joined.jokers if mask >> x[0] & 1))
            if jokers and jokers not in known and matches_as(joined, field.jokers):
                known.add(jokers)
                out.append((alone, jokers, joined))
    return tuple(out)


def _listed(table: Table, rules: Ruleset, seat: int, mask: int, left_after: int, attached: bool,
            noted: bool = False) -> tuple:
    """The legal plays of the cards ``mask`` (Moves), each once (``noted``: see ``_play_moves``)."""
    field = table.field
    out, seen = [], set()
    reached: set = set()  # the fields (shape, cards as read) the attached moves listed leave
    reading: Reading
    forms = _forms(rules, field, mask) if attached else _outcome_readings(mask, rules.shapes, rules.min_stairs)
    joined = attached and forms[-1][2] is not None  # forms listed only for a field no other leaves (they come last)
    fresh: Reading | None
    for reading, jokers, fresh in forms:
        if field is not None and not attached and _cannot_beat(table, rules, reading, field, jokers):
            continue
        if fresh is not None and (fresh.shape, fresh.eff) in reached:
            continue  # the same joined field, its effects and so its declarations: listed already
        variants: list[tuple] = []
        shape_decl = [reading.shape] if reading.shape in SEQUENCE_SET else []
        if rules.declarations:
            variants.append((shape_decl + EFFECT_DECLARATIONS, ()))
            variants.append((shape_decl, ()))
        else:
            variants.append(((), ()))
        probe: Plan | None = None
        plan: Plan | Rejection
        for i, (declare, decline) in enumerate(variants):  # the first adds the declines to the list
            declare_names = _names(declare)
            move = Move(seat, "play", mask, jokers, declare_names, _names(decline), None, None)
            if probe is not None and probe.alone:
                plan = redeclared(rules, move, probe)
            else:
                # declaring everything only probes what fires (the move listed declares that): hardly anyone
                # proposes it, so its judgement is not memoised (it was half of gekifugo's judgement memo)
                plan = judge_on(table, rules, move, left_after, with_effects=rules.declarations or noted,
                                probe=rules.declarations and i == 0)
            if rules.declarations and i == 0:
                if isinstance(plan, Rejection):
                    # declaring less never makes a play legal: no rule hook sees declarations, and a special play
                    # admits it only when declared (play._special)
                    break
                probe = plan
            if isinstance(plan, Rejection) or (plan.view.reading.shape != reading.shape
                                               and not joins_field(plan.view.special)):
                continue
            if i == 0 and rules.decline_ranks and not rules.declarations:
                # also declined, when the cards as played hold the rank (attached cards: as the joined field
                # reads them)
                variants.extend(((), (rule_id,)) for rule_id, rank in rules.decline_ranks
                                if plan.view.reading.has_rank(rank))
            if rules.declarations:
                fired = sorted({e.rule for e in plan.effects} & DECLARABLE)
                for alias, module in ALIASES.items():
                    if module.ID in fired and alias_holds(alias, table):
                        fired.append(alias)
                keep = shape_decl + [d for d in fired if d not in shape_decl]
                if plan.view.special and plan.view.special not in keep:
                    keep.append(plan.view.special)
                move = Move(seat, "play", mask, jokers, _names(keep), _names(decline), None, None)
            once = (jokers, move.declare, decline)  # declaring nothing may equal declaring all
            if once not in seen:
                if joined:
                    reached.add((plan.field_reading.shape, plan.field_reading.eff))
                seen.add(once)
                out.append(move)
                if noted and not rules.declarations:
                    note_listed(rules, table, move, plan)  # judged with its effects just now
                elif noted and probe is not None and probe.alone:
                    # its annotation now, from the probe's judgement: judged again later, a play declaring what
                    # fired would miss every memo (self-play, which annotates nothing, does not pay for this)
                    note_listed(rules, table, move,
                                plan if move.declare is declare_names else redeclared(rules, move, probe))
            if rules.declarations and keep == shape_decl:
                break  # declaring everything kept nothing: declaring nothing lists this very move
    return tuple(out)


def _decision_moves(st: State, seat):
    head = st.pending[0]
    if head.action == "cut_back":
        if seat not in {p.seat for p in window(st)}:
            return []
        jokers = cards_of(possible_cards(st, seat) & JOKERS_MASK)
        out = [{"seat": seat, "action": "pass"}]
        for js in combinations(jokers, head.count):
            out.append({"seat": seat, "action": "cut_back", "cards": codes(sum(1 << j for j in js))})
        return out
    if seat != head.seat:
        return []
    listed = head.terms.moves(head) if head.terms is not None else None
    if listed is not None:  # a decision its rule's terms list (exchange_request's request)
        return listed
    if head.action in ("give", "discard"):
        out = [{"seat": seat, "action": "pass"}] if head.upto else []
        return out + [_choose_entry(st, head)]
    if head.action == "take":
        return [{"seat": seat, "action": "take", "cards": codes(1 << c)} for c in cards_of(st.discard & NORMAL_MASK)]
    return []


def _choose_entry(st: State, head: Pending) -> dict:
    """The give/discard decision at the head of the queue as one choose entry."""
    seat = head.seat
    hand, unknown = st.hand(seat), st.players[seat].unknown
    pool = _allowed(head, possible_cards(st, seat))
    fixed, lo, hi = 0, (1 if head.upto else head.count), head.count
    if head.strongest and not unknown:
        fixed, pool, lo = strongest_split(_allowed(head, hand), head.count, head.reversed)
        hi = lo
    choose = {"from": codes(pool), "min": lo, "max": hi}
    unseen = pool & ~hand
    if unseen and min(hi, count(unseen)) > unknown:
        choose["limit"] = {"cards": codes(unseen), "max": unknown}  # table mode: no more than it may hold
    entry = {"seat": seat, "action": head.action, "choose": choose, "rule": head.rule}
    if fixed:
        entry["cards"] = codes(fixed)
    return entry


def instantiate(entry: dict, rng: random.Random | None = None, chosen=None) -> dict:
    """A concrete move from a legal-moves entry: a choose entry's fixed cards plus ``chosen`` (card codes), or
    when ``chosen`` is None a random valid choice (``rng``); any other entry is returned as it is."""
    if "choose" not in entry:
        return entry
    c = entry["choose"]
    if chosen is None:
        rng = rng or random.Random(0)
        limit = c.get("limit") or {"cards": [], "max": 0}
        capped, room = set(limit["cards"]), limit["max"]
        want = rng.randint(c["min"], c["max"])
        chosen = []
        for card_code in rng.sample(c["from"], len(c["from"])):
            if len(chosen) == want:
                break
            if card_code in capped:
                if room == 0:
                    continue
                room -= 1
            chosen.append(card_code)
    return {"seat": entry["seat"], "action": entry["action"], "cards": list(entry.get("cards", [])) + list(chosen)}


def covers(entry: dict, move: dict) -> bool:
    """Is the concrete ``move`` one of the moves ``entry`` stands for (same action and cards)?"""
    if entry["action"] != move.get("action") or entry["seat"] != move.get("seat"):
        return False
    cards = set(move.get("cards", ()))
    if "choose" not in entry:
        return cards == set(entry.get("cards", ())) and entry.get("rank") == move.get("rank")
    c = entry["choose"]
    fixed = set(entry.get("cards", ()))
    rest = cards - fixed
    limit = c.get("limit")
    return (fixed <= cards and rest <= set(c["from"]) and c["min"] <= len(rest) <= c["max"]
            and (limit is None or len(rest & set(limit["cards"])) <= limit["max"]))


def options(st: State, seat: int, noted: bool = False) -> list:
    """``legal_moves`` for self-play and playouts: plays and passes as ``Move`` objects (shared, immutable: pass
    them to ``advance`` or ``apply`` as they are), decisions as their legal-move entries. ``noted``: the caller
    will annotate the plays (``annotate.play_notes``)."""
    if st.pending or st.phase != "play" or st.turn != seat:
        return legal_moves(st, seat)
    moves = _play_moves(st, seat, noted)
    if st.field is not None or st.rules.lead_may_pass:
        moves.insert(0, PASSES[seat] if seat < len(PASSES) else Move(seat, "pass"))
    return moves


PASSES: Final = tuple(Move(seat, "pass") for seat in range(8))  # options' passes, shared like its plays


def legal_moves(st: State, seat: int, annotated: bool = False) -> list[dict]:
    """Every legal move of ``seat`` now (decisions that choose cards as one choose entry); with ``annotated``,
    each with the effects it fires and whether going out with it is forbidden (``annotate``)."""
    if st.pending:
        moves = _decision_moves(st, seat)
        if st.pending[0].action == "cut_back" and seat == st.turn:
            # the next leader may lead at once, closing the cut-back window
            lead = legal_moves(close_window(st, []), seat)
            moves += [m for m in lead if not (moves and m["action"] == "pass")]
        return annotate(st, moves) if annotated else moves
    if st.phase != "play" or st.turn != seat:
        return []
    plays = _play_moves(st, seat, annotated)
    if annotated:
        moves = [{**move_json(move), **play_annotation(st, move)} for move in plays]
    else:
        moves = [move_json(move) for move in plays]
    if st.field is not None or st.rules.lead_may_pass:
        moves.insert(0, {"seat": seat, "action": "pass", **nothing()} if annotated else {"seat": seat, "action": "pass"})
    return moves
