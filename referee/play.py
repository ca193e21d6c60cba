"""Judging a play: which readings of the cards are legal, the one used, and the effects it fires."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .cards import codes, count
from .memo import EFFECTS_SIZE, interned, live_effect_memos, remember
from .effects import Lock, Unlock, ordered
from .moves import Move
from .rules import ALIASES, DECLARABLE, RULES, SEQUENCES, SHAPE_NAMES, SHAPE_PRIORITY
from .rules.base import PlayContext, Rejection
from .shapes import Reading, beats, loose, part, readings, readings_as, strength_key
from .state import State

if TYPE_CHECKING:
    from .ruleset import Ruleset

DECLARATIONS: Final = DECLARABLE.union(ALIASES)  # every name a play may declare
SEQUENCE_SET: Final = frozenset(SEQUENCES)
# Module flags read per judged play, gathered once: a getattr with a default on a module that lacks the name raises
# and catches an AttributeError inside.
JOINING: Final = frozenset(rid for rid, m in RULES.items() if getattr(m, "JOINS_FIELD", False))
ALIAS_OF: Final = {m.ID: alias for alias, m in ALIASES.items()}  # a rule's declaration alias, by its id
# How far a rejected reading got: the furthest one explains the rejection best.
PROGRESS: Final = {"invalid_cards": 0, "shape_mismatch": 1, "undeclared": 2, "too_weak": 3, "locked": 4,
            "must_include_first_card": 4}


class Plan:
    """A judged play (built per judgement: a plain class with slots for the reasons PlayContext gives)."""
    __slots__ = ("ctx", "field_reading", "effects", "void", "alone")
    ctx: PlayContext
    field_reading: Reading        # what the field becomes (the combined cards for an attach revolution)
    effects: tuple
    void: tuple
    alone: bool                   # judged just now: one reading, no special play (declarations chose nothing)

    def __init__(self, ctx: PlayContext, field_reading: Reading, effects: tuple, void: tuple,
                 alone: bool = False) -> None:
        self.ctx, self.field_reading, self.effects, self.void, self.alone = ctx, field_reading, effects, void, alone


def joins_field(special) -> bool:
    """Did the special play that admitted a play join its cards to the field's (JOINS_FIELD: attach revolution)?"""
    return special is not None and special in JOINING


def _declared(rule_id: str, declared: frozenset, state: State) -> bool:
    if rule_id in declared:
        return True
    alias = ALIAS_OF.get(rule_id)
    return alias is not None and alias in declared and ALIASES[alias].alias_applies(state)


class _Recent:
    """What is remembered of the last state asked, by identity. Each entry is one tuple, replaced whole (a thread
    reads a consistent one); they are held by a native object because compiled code writes a module global into
    the module's dictionary.

    ``raw``: (state, {(seat, reading, special play, declines): effects}). The after_play hooks read the state, the
    seat, the reading, the special play and the declines, never the declarations: within one state their answers
    are kept, so the variants legal_moves judges with declarations share them. ``key``: (state, seat, judged_key)."""
    __slots__ = ("raw", "key")
    raw: tuple
    key: tuple

    def __init__(self) -> None:
        self.raw = NO_RAW
        self.key = NO_KEY


NO_RAW: Final[tuple] = (None, {})  # its dict stays empty: no state is None
NO_KEY: Final[tuple] = (None, None, None)
_RECENT: Final = _Recent()


def _raw_effects(ctx: PlayContext) -> tuple:
    if not ctx.state.rules.declarations:
        return _fired(ctx)  # without declarations a state judges each play variant once: nothing to share
    recent = _RECENT
    st, memo = recent.raw
    if st is not ctx.state:
        memo = {}
        recent.raw = (ctx.state, memo)
    key = (ctx.seat, ctx.reading, ctx.special, ctx.declined)
    raw = memo.get(key)
    if raw is None:
        raw = memo[key] = _fired(ctx)
    return raw


def _fired(ctx: PlayContext) -> tuple:
    """(rule id, effects) of every after_play hook that fires, in registry order. The PLAY_ONLY hooks' answers
    depend on the play, the order and the revolution threshold alone: they are memoised per ruleset under those
    (the same cards played on many fields), the others' asked each time."""
    rs = ctx.state.rules
    memo = rs.effects_memo
    key = (ctx.reading, ctx.special, ctx.declined, ctx.reversed, ctx.state.revolution_min)
    shared = memo.get(key)
    if shared is None:
        ranks = ctx.reading.rank_bits()  # a hook that fires only on a rank is not asked of plays without it
        fired = tuple((i, rule_id, effects) for i, rule_id, hook, params, on in rs.play_only
                      if (on < 0 or on & ranks) and (effects := hook(ctx, params)))
        shared = remember(memo, key, (tuple((rule_id, effects) for _, rule_id, effects in fired), fired),
                          EFFECTS_SIZE, live_effect_memos)
    live = [(i, rule_id, effects) for i, rule_id, hook, params in rs.play_live if (effects := hook(ctx, params))]
    if not live:
        return shared[0]
    return tuple((rule_id, effects) for _, rule_id, effects in sorted(shared[1] + tuple(live), key=_first))


def _first(item):
    return item[0]


def _effects(ctx: PlayContext, voids: bool = True) -> tuple[tuple, tuple]:
    rs = ctx.state.rules
    kept = []
    for rule_id, effects in _raw_effects(ctx):
        if rs.declarations and rule_id in DECLARABLE and not _declared(rule_id, ctx.declared, ctx.state):
            effects = [e for e in effects if isinstance(e, Unlock)]
        kept.extend(effects)
    void: tuple = ()
    if rs.declarations and voids:
        fired = {e.rule for e in kept}
        # A shape declaration is void when the play is not that shape (RULES.md §6); for an attach
        # revolution the declared shape may be the combined one, so it is not judged there.
        void = tuple(sorted(d for d in ctx.declared if (
            d not in fired and d not in SEQUENCE_SET and not (
                d in ALIASES and ALIASES[d].ID in fired and ALIASES[d].alias_applies(ctx.state))) or (
            d in SEQUENCE_SET and d != ctx.reading.shape and not joins_field(ctx.special))))
    return tuple(ordered(kept) if len(kept) > 1 else kept), void


def _forms_lock(ctx) -> bool:
    """Does this reading lock the suits (RULES.md §10.9: among equally strong readings, the one that locks)?"""
    for module, params in ctx.state.rules.suit_hooks:
        if any(isinstance(e, Lock) for e in module.after_play(ctx, params)):
            return True
    return False


def _check(ctx: PlayContext, reading: Reading, field: Reading | None, rs: Ruleset) -> Rejection | None:
    if reading.shape == "loose":
        return Rejection("shape_mismatch", f"{' '.join(codes(reading.mask))} is no play by itself; only an attach "
                         "revolution could join it to the field (attach_revolution)", "attach_revolution")
    if field is not None:
        if reading.shape != field.shape or reading.n != field.n:
            return Rejection("shape_mismatch", f"the field holds {SHAPE_NAMES[field.shape]} of {field.n} card(s); "
                             f"this play is {SHAPE_NAMES[reading.shape]} of {reading.n}")
    if rs.declarations and reading.shape in SEQUENCE_SET and reading.shape not in ctx.declared:
        return Rejection("undeclared", f"{SHAPE_NAMES[reading.shape]} must be declared with the play "
                         f"(declare: ['{reading.shape}']; declarations_required)", "declarations_required")
    if field is not None and not beats(reading, field, ctx.reversed, rs.compare):
        how = "the order is reversed" if ctx.reversed else "the order is normal"
        extra = " (a new sequence's weakest card must beat the old one's strongest: stairs.compare above)" \
            if reading.shape in SEQUENCES and rs.compare == "above" else ""
        return Rejection("too_weak", f"{' '.join(codes(reading.mask))} does not beat "
                         f"{' '.join(codes(field.mask))}; {how}{extra}")
    for legality, params in rs.legality_hooks:
        rej = legality(ctx, params)
        if rej is not None:
            return rej
    return None


def _special(ctx: PlayContext, rs):
    for rule_id, special_play, params in rs.special_hooks:
        if rs.declarations and rule_id not in ctx.declared:
            continue
        combined = special_play(ctx, params)
        if combined is not None:
            return rule_id, combined
    return None


def judged_key(state: State, seat: int) -> int:
    """What a play's judgement reads of the state besides the play itself (RULES.md §4-§6 as the rule hooks
    read it): the field, the order, the locks, whether this is the trick's second play, the revolution
    threshold, and while the match's first play is pending the cards the seat's plays must include (first_card
    reads the holder: ``required_cards`` says what it reads). Rule hooks read nothing else:
    tests/engine/test_judged_memo.py checks the claim. The key is a number standing for those parts
    (``memo.interned``): memo keys hash it at once, and hold no copy of the parts per state."""
    recent = _RECENT
    last = recent.key
    if last[0] is state and (last[1] == seat or not state.first_play):
        return last[2]  # listing the moves and applying one both ask (states are immutable)
    f = state.field
    r = None if f is None else f.reading
    key: tuple = (None if r is None else (r.shape, r.mask, r.jokers), state.trick_plays == 1) + _key_fields(state)
    if state.first_play:
        required = 0
        for module, params in state.rules.required_hooks:
            required |= module.required_cards(state, seat, params)
        key += (required,)
    number = interned(key)
    recent.key = (state, seat, number)
    return number


def _key_fields(s: State) -> tuple:
    """The State fields of the judged key (the field and the trick's second play aside)."""
    return s.revolution, s.jack_back, s.lock_kind, s.lock_suits, s.rank_lock, s.revolution_min


def carry_key(old: State, new: State) -> State:
    """``new``, which has ``old``'s judged key (a pass that does not flush changes none of the key's parts: it
    writes the turn, the passes and who sat out): the key is not built and hashed again for it."""
    recent = _RECENT
    last = recent.key
    if last[0] is old:
        recent.key = (new, last[1], last[2])
    return new


def forget(state: State, key_holds: bool = False) -> None:
    """``state`` was changed in place (core.Game): what is remembered of it by identity goes, its judged key too
    unless ``key_holds`` (none of the key's parts changed: a pass that does not flush, as in ``carry_key``)."""
    recent = _RECENT
    if recent.raw[0] is state:
        recent.raw = NO_RAW
    if not key_holds and recent.key[0] is state:
        recent.key = NO_KEY


NOT_JUDGED: Final = (None, None, False, None)  # Move.judged of a move no listing judged


def judge_play(state: State, move: Move, with_effects: bool = True, probe: bool = False, fresh: bool = False):
    """A Plan for a legal play, or a Rejection. Without ``with_effects`` (only legality wanted) the plan's
    effects are left empty unless declarations decide the reading. A ``probe`` asks only which effects fire
    (legal_moves declaring everything): a judgement not memoised yet is not memoised (nobody asks for it again),
    and its void declarations are left out unless they choose between readings. ``fresh``: the caller knows of no
    judgement of the move (a listing of cards its memo has not seen), so the memo is not looked up, only filled.

    Judgements are memoised per ruleset under ``judged_key``: the hand only decides whether the cards are held
    and how many are left after the play, which are checked or filled in here."""
    seat, cards = move.seat, move.cards
    if not cards:
        return Rejection("invalid_cards", "a play needs at least one card (to pass, use action pass)")
    p = state.players[seat]
    if cards & ~p.hand:
        missing = state.unheld(seat, cards)
        if missing:
            return not_held(state, seat, missing)
    rs = state.rules
    jkey = judged_key(state, seat)
    effects_missing = False
    judged: tuple = move.judged or NOT_JUDGED
    kept = judged[1] == jkey and judged[0] is rs
    if kept:
        hit = judged[3]  # the listing's judgement, kept on the move
        effects_missing = with_effects and not judged[2]  # listed for legality only
    else:
        key = (jkey, cards, move.as_map, move.declare, move.decline, with_effects)
        memo = rs.memo
        hit = None if fresh else memo.get(key)
        if hit is None:
            # legal_moves judged this play for legality only: its reading stands, only the effects are missing
            hit = memo.get(key[:-1] + (False,)) if with_effects and not fresh else None
            if hit is None:
                plan = _judge(state, move, with_effects, probe)
                if not probe:
                    value = plan if isinstance(plan, Rejection) else (
                        plan.ctx.reading, plan.ctx.special, plan.field_reading, plan.effects, plan.void)
                    if fresh and not rs.declarations:
                        # a listing's move is judged again by whoever makes it (apply, advance): it keeps the
                        # judgement; the memo is for the moves proposed again by value
                        move.judged = (rs, jkey, with_effects, value)
                    else:
                        remember(memo, key, value)
                return plan
            effects_missing = True
    if isinstance(hit, Rejection):
        return hit
    reading, special, field_reading, effects, void = hit
    field = state.field
    ctx = PlayContext(state, seat, reading, None if field is None else field.reading, state.reversed, move.declare,
                      move.decline, special, count(p.hand) + p.unknown - count(cards), move.as_map)
    if effects_missing:
        effects, void = _effects(ctx)
        value = (reading, special, field_reading, effects, void)
        if kept:
            move.judged = (rs, jkey, True, value)
        else:
            remember(rs.memo, (jkey, cards, move.as_map, move.declare, move.decline, True), value)
    return Plan(ctx, field_reading, effects, void, False)


def _judge(state: State, move: Move, with_effects: bool, probe: bool = False) -> Plan | Rejection:
    rs = state.rules
    seat = move.seat
    if move.declare and not move.declare <= DECLARATIONS:  # a subset test: no new set for the usual answer
        unknown = move.declare - DECLARATIONS
        return Rejection("invalid_declaration", f"unknown declaration(s) {', '.join(sorted(unknown))}: declare "
                         "rule ids of effects or shapes (GET /v1/rules)")
    for d in move.decline:
        if d not in rs.declinable:
            return Rejection("not_allowed", f"{d} cannot be declined under these rules (only an optional "
                             "jack_back can)", d if d in RULES else None)
    cands = (readings_as(move.cards, rs.shapes, rs.min_stairs, move.as_map) if move.as_map
             else readings(move.cards, rs.shapes, rs.min_stairs))
    if not cands and state.field is not None and rs.extra_hooks:
        cands = (loose(move.cards),)  # attached cards need only form a shape together with the field
    if not cands:
        names = ", ".join(SHAPE_NAMES[s] for s in ("single", "group") + tuple(sorted(rs.shapes)))
        why = " with the joker readings given in 'as'" if move.as_map else ""
        return Rejection("invalid_cards", f"{' '.join(codes(move.cards))} is not one play{why}: a play is "
                         f"{names}")
    declared_shapes = move.declare & SEQUENCE_SET if move.declare else None
    if declared_shapes and any(r.shape in declared_shapes for r in cands):
        cands = tuple(r for r in cands if r.shape in declared_shapes)
    field = state.field.reading if state.field else None
    reversed_order = state.reversed
    left_after = state.left(seat) - count(move.cards)
    best, best_rej = [], None
    for reading in cands:
        ctx = PlayContext(state, seat, reading, field, reversed_order, move.declare, move.decline, None, left_after,
                          move.as_map)
        rej = _check(ctx, reading, field, rs)
        special = None
        if field is not None and (rej is not None or rs.declarations):
            special = _special(ctx, rs)
        if special is not None:
            rule_id, combined = special
            if combined.mask != reading.mask:
                # attach revolution: the new cards are judged as the combined field reads them (RULES.md §10.6)
                reading = part(combined, reading.mask)
            ctx = PlayContext(state, seat, reading, field, reversed_order, move.declare, move.decline, rule_id,
                              left_after, move.as_map)
            best.append((ctx, combined))
        elif rej is None:
            best.append((ctx, reading))
        elif best_rej is None or PROGRESS.get(rej.reason, 0) > PROGRESS.get(best_rej.reason, 0):
            best_rej = rej
    if not best:
        if move.as_map and all(r.shape == "loose" for r in cands):
            return Rejection("invalid_cards", f"{' '.join(codes(move.cards))} cannot be read with the joker "
                             "readings given in 'as'", "attach_revolution")
        assert best_rej is not None  # every reading was either kept or rejected
        return best_rej

    if len(best) > 1 and rs.declarations and move.declare:
        # the reading that makes the most declarations valid wins, then the usual order
        scored = [(option, _effects(option[0])) for option in best]
        option, (effects, void) = max(scored, key=lambda oe: (-len(oe[1][1]), _rank(oe[0])))
    else:
        option = best[0] if len(best) == 1 else max(best, key=_rank)
        effects, void = _effects(option[0], not probe) if with_effects else ((), ())
    return Plan(option[0], option[1], effects, void, len(cands) == 1 and option[0].special is None)


def _rank(option) -> tuple:
    """How ``_judge`` chooses among the readings a play allows (an (PlayContext, reading) option): the shape's
    priority, then strength in the order in force, then a reading that locks."""
    ctx = option[0]
    return -SHAPE_PRIORITY[ctx.reading.shape], strength_key(ctx.reading, ctx.reversed), _forms_lock(ctx)


def redeclared(state: State, move: Move, plan: Plan) -> Plan:
    """The judgement of ``move``, the cards of ``plan`` (a Plan judged just now: ``alone``) with other declarations
    and no other change: declarations decide only which effects it keeps (no rule hook reads them; only the
    choice between readings and special plays does), so the effects are picked again and the rest stands."""
    ctx = plan.ctx.declaring(move.declare)
    effects, void = _effects(ctx)
    key = (judged_key(state, move.seat), move.cards, move.as_map, move.declare, move.decline, True)
    remember(state.rules.memo, key, (ctx.reading, None, plan.field_reading, effects, void))
    return Plan(ctx, plan.field_reading, effects, void, False)


def not_held(state: State, seat, missing) -> Rejection:
    if state.table and state.players[seat].unknown:
        return Rejection("not_in_hand", f"seat {seat} cannot hold {' '.join(codes(missing))}: "
                         f"{'already seen elsewhere' if missing & state.seen() else 'more cards than it has'}")
    return Rejection("not_in_hand", f"seat {seat} does not hold {' '.join(codes(missing))}")
