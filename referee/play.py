"""Judging a play: which readings of the cards are legal, the one used, and the effects it fires."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .cards import codes, count
from .memo import EFFECTS_SIZE, live_effect_memos, remember
from .moves import Move
from .rules import ALIASES, DECLARABLE, RULES, SEQUENCES, SHAPE_NAMES, SHAPE_PRIORITY
from .rules.base import Rejection
from .shapes import Reading, beats, loose, part, readings, readings_as, strength_key
from .state import State
from .view import PlayView, Table, table_of

if TYPE_CHECKING:
    from .effects import Effect
    from .ruleset import Ruleset

DECLARATIONS: Final = DECLARABLE.union(ALIASES)  # every name a play may declare
SEQUENCE_SET: Final = frozenset(SEQUENCES)
# Module flags read per judged play, gathered once: a getattr with a default on a module that lacks the name raises
# and catches an AttributeError inside.
JOINING: Final = frozenset(rid for rid, m in RULES.items() if getattr(m, "JOINS_FIELD", False))
ALIAS_OF: Final = {m.ID: alias for alias, m in ALIASES.items()}  # a rule's declaration alias, by its id
ALIAS_WHILE: Final = {alias: m.ALIAS_WHILE for alias, m in ALIASES.items()}  # the Table value an alias needs
# How far a rejected reading got: the furthest one explains the rejection best. A rule's legality hook speaks only
# once shape and strength are met: its reasons, whatever they are, count as far as a lock.
PROGRESS: Final = {"invalid_cards": 0, "shape_mismatch": 1, "undeclared": 2, "too_weak": 3, "locked": 4,
            "must_include_first_card": 4}
RULE_SAID: Final = 4


class Plan:
    """A judged legal play: the view its rules saw, who plays it and what it leaves in the hand, the reading the
    field becomes, its effects and its void declarations."""
    __slots__ = ("view", "seat", "left_after", "field_reading", "effects", "void", "alone")
    view: PlayView
    seat: int
    left_after: int               # cards the player holds once the play is made
    field_reading: Reading        # what the field becomes (the combined cards for an attach revolution)
    effects: tuple
    void: tuple
    alone: bool                   # judged just now: one reading, no special play (declarations chose nothing)

    def __init__(self, view: PlayView, seat: int, left_after: int, field_reading: Reading, effects: tuple,
                 void: tuple, alone: bool = False) -> None:
        self.view, self.seat, self.left_after, self.field_reading = view, seat, left_after, field_reading
        self.effects, self.void, self.alone = effects, void, alone


def joins_field(special) -> bool:
    """Did the special play that admitted a play join its cards to the field's (JOINS_FIELD: attach revolution)?"""
    return special is not None and special in JOINING


def alias_holds(alias: str, table: Table) -> bool:
    """Does declaring ``alias`` declare its rule on ``table`` (the Table value its rule names holds)?"""
    return bool(getattr(table, ALIAS_WHILE[alias]))


def _declared(rule_id: str, declared: frozenset, table: Table) -> bool:
    if rule_id in declared:
        return True
    alias = ALIAS_OF.get(rule_id)
    return alias is not None and alias in declared and alias_holds(alias, table)


def _fired(view: PlayView, rs: Ruleset) -> tuple[tuple, tuple]:
    """Every effect the after_play hooks return, in resolution order (``ORDER``; one hook's effects, and hooks in
    registry order, where ORDER ties), and beside each the id of the rule whose hook returned it: a function of
    the view and the ruleset alone, memoised per ruleset under the view (the variants legal_moves judges with
    other declarations, and the same cards played on equal tables, share the answers)."""
    memo = rs.effects_memo
    fired = memo.get(view)
    if fired is None:
        pairs = []
        for rule_id, hook, params in rs.play_hooks:
            effects = hook(view, params)
            if effects:  # most hooks fire nothing on most plays
                pairs.extend([(rule_id, e) for e in effects])
        if len(pairs) > 1:
            pairs.sort(key=_pair_order)
        fired = remember(memo, view, (tuple([e for _, e in pairs]), tuple([rule_id for rule_id, _ in pairs])),
                         EFFECTS_SIZE, live_effect_memos)
    return fired


def _pair_order(pair: tuple) -> int:
    effect: Effect = pair[1]
    return effect.ORDER


def _effects(view: PlayView, declared: frozenset, rs: Ruleset, voids: bool = True) -> tuple[tuple, tuple]:
    """The effects a play fires, in resolution order (its declarations kept to: RULES.md §6), and its void
    declarations."""
    effects, rules = _fired(view, rs)
    if not rs.declarations:
        return effects, ()
    kept = tuple([e for e, rule_id in zip(effects, rules)
                  if e.QUIET or rule_id not in DECLARABLE or _declared(rule_id, declared, view.table)])
    void: tuple = ()
    if voids:
        fired = {e.rule for e in kept}
        # A shape declaration is void when the play is not that shape (RULES.md §6); for an attach
        # revolution the declared shape may be the combined one, so it is not judged there.
        void = tuple(sorted(d for d in declared if (
            d not in fired and d not in SEQUENCE_SET and not (
                d in ALIASES and ALIASES[d].ID in fired and alias_holds(d, view.table))) or (
            d in SEQUENCE_SET and d != view.reading.shape and not joins_field(view.special))))
    return kept, void


def _forms_lock(view: PlayView, rs: Ruleset) -> bool:
    """Does this reading lock the suits (RULES.md §10.9: among equally strong readings, the one that locks)? Any
    rule's effect of the kind ``lock`` says so: no rule declares that it reads suits."""
    for e in _fired(view, rs)[0]:
        effect: Effect = e
        if effect.KIND == "lock":
            return True
    return False


def _check(view: PlayView, declared: frozenset, rs: Ruleset) -> Rejection | None:
    reading, field = view.reading, view.field
    if reading.shape == "loose":
        return Rejection("shape_mismatch", f"{' '.join(codes(reading.mask))} is no play by itself; only an attach "
                         "revolution could join it to the field (attach_revolution)", "attach_revolution")
    if field is not None:
        if reading.shape != field.shape or reading.n != field.n:
            return Rejection("shape_mismatch", f"the field holds {SHAPE_NAMES[field.shape]} of {field.n} card(s); "
                             f"this play is {SHAPE_NAMES[reading.shape]} of {reading.n}")
    if rs.declarations and reading.shape in SEQUENCE_SET and reading.shape not in declared:
        return Rejection("undeclared", f"{SHAPE_NAMES[reading.shape]} must be declared with the play "
                         f"(declare: ['{reading.shape}']; declarations_required)", "declarations_required")
    if field is not None and not beats(reading, field, view.reversed, rs.compare):
        how = "the order is reversed" if view.reversed else "the order is normal"
        extra = " (a new sequence's weakest card must beat the old one's strongest: stairs.compare above)" \
            if reading.shape in SEQUENCES and rs.compare == "above" else ""
        return Rejection("too_weak", f"{' '.join(codes(reading.mask))} does not beat "
                         f"{' '.join(codes(field.mask))}; {how}{extra}")
    for legality, params in rs.legality_hooks:
        rej = legality(view, params)
        if rej is not None:
            return rej
    return None


def _special(view: PlayView, declared: frozenset, rs: Ruleset):
    for rule_id, special_play, params in rs.special_hooks:
        if rs.declarations and rule_id not in declared:
            continue
        combined = special_play(view, params)
        if combined is not None:
            return rule_id, combined
    return None


def judge_play(state: State, move: Move, with_effects: bool = True, probe: bool = False):
    """A Plan for a legal play, or a Rejection: whether the seat holds the cards, then ``judge_on`` its Table."""
    seat, cards = move.seat, move.cards
    if not cards:
        return Rejection("invalid_cards", "a play needs at least one card (to pass, use action pass)")
    p = state.players[seat]
    if cards & ~p.hand:
        missing = state.unheld(seat, cards)
        if missing:
            return not_held(state, seat, missing)
    return judge_on(table_of(state, seat), state.rules, move, p.left - count(cards), with_effects, probe)


def judge_on(table: Table, rs: Ruleset, move: Move, left_after: int, with_effects: bool = True,
             probe: bool = False):
    """The judgement of the play ``move`` on ``table`` under ``rs`` (cards held: checked by ``judge_play``).

    It reads nothing but the table, the move without its seat, and the ruleset: it is memoised per ruleset under
    (the table, the move's cards, joker readings, declarations and declines). Without ``with_effects`` (only legality
    wanted) the plan's effects are left empty unless declarations decide the reading. A ``probe`` asks only which
    effects fire (legal_moves declaring everything): a judgement not memoised yet is not memoised (nobody asks for
    it again), and its void declarations are left out unless they choose between readings."""
    key = (table, move.cards, move.as_map, move.declare, move.decline, with_effects)
    memo = rs.memo
    hit = memo.get(key)
    effects_missing = False
    if hit is None and with_effects:
        # judged for legality only (a listing): its reading stands, only the effects are missing
        hit = memo.get(key[:-1] + (False,))
        effects_missing = hit is not None
    if hit is None:
        plan = _judge(table, rs, move, left_after, with_effects, probe)
        if not probe:
            remember(memo, key, plan if isinstance(plan, Rejection) else
                     (plan.view, plan.field_reading, plan.effects, plan.void))
        return plan
    if isinstance(hit, Rejection):
        return hit
    view, field_reading, effects, void = hit
    if effects_missing:
        effects, void = _effects(view, move.declare, rs)
        remember(memo, key, (view, field_reading, effects, void))
    return Plan(view, move.seat, left_after, field_reading, effects, void, False)


def _judge(table: Table, rs: Ruleset, move: Move, left_after: int, with_effects: bool,
           probe: bool = False) -> Plan | Rejection:
    declared = move.declare
    if declared and not declared <= DECLARATIONS:  # a subset test: no new set for the usual answer
        unknown = declared - DECLARATIONS
        return Rejection("invalid_declaration", f"unknown declaration(s) {', '.join(sorted(unknown))}: declare "
                         "rule ids of effects or shapes (GET /v1/rules)")
    for d in move.decline:
        if d not in rs.declinable:
            return Rejection("not_allowed", f"{d} cannot be declined under these rules (only an optional "
                             "jack_back can)", d if d in RULES else None)
    cands = (readings_as(move.cards, rs.shapes, rs.min_stairs, move.as_map) if move.as_map
             else readings(move.cards, rs.shapes, rs.min_stairs))
    field = table.field
    if not cands and field is not None and rs.joined_cand_hooks:
        cands = (loose(move.cards),)  # attached cards need only form a shape together with the field
    if not cands:
        names = ", ".join(SHAPE_NAMES[s] for s in ("single", "group") + tuple(sorted(rs.shapes)))
        why = " with the joker readings given in 'as'" if move.as_map else ""
        return Rejection("invalid_cards", f"{' '.join(codes(move.cards))} is not one play{why}: a play is "
                         f"{names}")
    declared_shapes = declared & SEQUENCE_SET if declared else None
    if declared_shapes and any(r.shape in declared_shapes for r in cands):
        cands = tuple(r for r in cands if r.shape in declared_shapes)
    best, best_rej = [], None
    for reading in cands:
        view = PlayView(table, reading, None, move.decline, move.as_map)
        rej = _check(view, declared, rs)
        special = None
        if field is not None and (rej is not None or rs.declarations):
            special = _special(view, declared, rs)
        if special is not None:
            rule_id, combined = special
            if combined.mask != reading.mask:
                # attach revolution: the new cards are judged as the combined field reads them (RULES.md §10.6)
                reading = part(combined, reading.mask)
            best.append((PlayView(table, reading, rule_id, move.decline, move.as_map), combined))
        elif rej is None:
            best.append((view, reading))
        elif best_rej is None or PROGRESS.get(rej.reason, RULE_SAID) > PROGRESS.get(best_rej.reason, RULE_SAID):
            best_rej = rej
    if not best:
        if move.as_map and all(r.shape == "loose" for r in cands):
            return Rejection("invalid_cards", f"{' '.join(codes(move.cards))} cannot be read with the joker "
                             "readings given in 'as'", "attach_revolution")
        assert best_rej is not None  # every reading was either kept or rejected
        return best_rej

    def rank(option) -> tuple:
        """How a play's readings are chosen among: the shape's priority, then strength in the order in force,
        then a reading that locks."""
        v: PlayView = option[0]
        return -SHAPE_PRIORITY[v.reading.shape], strength_key(v.reading, v.reversed), _forms_lock(v, rs)

    if len(best) > 1 and rs.declarations and declared:
        # the reading that makes the most declarations valid wins, then the usual order
        scored = [(option, _effects(option[0], declared, rs)) for option in best]
        option, (effects, void) = max(scored, key=lambda oe: (-len(oe[1][1]), rank(oe[0])))
    else:
        option = best[0] if len(best) == 1 else max(best, key=rank)
        effects, void = _effects(option[0], declared, rs, not probe) if with_effects else ((), ())
    return Plan(option[0], move.seat, left_after, option[1], effects, void,
                len(cands) == 1 and option[0].special is None)


def redeclared(rs: Ruleset, move: Move, plan: Plan) -> Plan:
    """The judgement of ``move``, the cards of ``plan`` (a Plan judged just now: ``alone``) with other declarations
    and no other change: declarations decide only which effects it keeps (no rule hook sees them; only the
    choice between readings and special plays does), so the effects are picked again and the rest stands."""
    effects, void = _effects(plan.view, move.declare, rs)
    key = (plan.view.table, move.cards, move.as_map, move.declare, move.decline, True)
    remember(rs.memo, key, (plan.view, plan.field_reading, effects, void))
    return Plan(plan.view, move.seat, plan.left_after, plan.field_reading, effects, void, False)


def not_held(state: State, seat, missing) -> Rejection:
    if state.table and state.players[seat].unknown:
        return Rejection("not_in_hand", f"seat {seat} cannot hold {' '.join(codes(missing))}: "
                         f"{'already seen elsewhere' if missing & state.seen() else 'more cards than it has'}")
    return Rejection("not_in_hand", f"seat {seat} does not hold {' '.join(codes(missing))}")
