"""The rule registry: every rule id of RULES.md maps to exactly one module here. Importing it checks every module
against the rule contract (referee/contract.py): a module that breaks it is refused here, by name."""
from ..contract import check
from ..shapes import PLAIN_SHAPES
from ..slots import DIRECTION, MADE, ORDER, number, turning
from . import (attach_revolution, bloody_mary, capital_fall, color_lock, cut_back, declarations_required,
               double_stairs, eight_cut, emperor, exchange, exchange_request, first_card, five_skip, flush_on_finish,
               forbidden_finish, gekokujo, great_revolution, inflation, jack_back, jokers, lead_pass, nine_cut, nine_reverse,
               nuclear_bomb, partial_suit_lock, pass_abort, pass_until_flush, rank_lock, reseat, resurrection,
               revolution, sandstorm, seven_pass, six_cut, skip_emperor, skip_stairs, spade3, stairs, suit_lock, ten_discard)

# Registry order is the order hooks are called in; effects are then sorted by effects.ORDER.
MODULES = (jokers, first_card, stairs, skip_stairs, double_stairs, emperor, skip_emperor,
           suit_lock, partial_suit_lock, rank_lock, color_lock,
           revolution, great_revolution, nuclear_bomb, attach_revolution, jack_back, nine_reverse,
           bloody_mary, resurrection, seven_pass, ten_discard,
           spade3, sandstorm, eight_cut, six_cut, nine_cut, cut_back, five_skip,
           pass_until_flush, lead_pass, pass_abort, reseat,
           flush_on_finish, declarations_required, forbidden_finish, capital_fall, gekokujo,
           exchange, exchange_request, inflation)
# before anything reads them: hooks and flags known, every slot made in a STATE, every effect compared by its fields
check(MODULES, MADE)
RULES = {m.ID: m for m in MODULES}
# The rules' declared state (referee/slots.py), numbered: the slots the play rules see, and the others.
VIEW_SLOTS, RULE_SLOTS = number(tuple(s for m in MODULES for s in getattr(m, "STATE", ())))
# The terms a rule's decisions carry (referee/terms.py), by (rule id, action): how a pending's JSON is read back.
DECISION_TERMS = {(m.ID, t.ACTION): t for m in MODULES for t in getattr(m, "TERMS", ())}
ORDER_SLOTS = turning(VIEW_SLOTS, ORDER)                         # they turn the order (jack back)
DIRECTION_SLOTS = turning(VIEW_SLOTS + RULE_SLOTS, DIRECTION)    # they turn the direction (a trick's 9-reverse)
# Every shape a rule adds is a sequence (single and group are built in: shapes.PLAIN_SHAPES); a shape module has
# its reader (``read``), its candidate table (``RUN_STEP`` for one suit's runs, or ``slots``), PRIORITY and LABEL.
SHAPE_MODULES = tuple(m for m in MODULES if getattr(m, "SHAPE", False))
SHAPES = SEQUENCES = tuple(m.ID for m in SHAPE_MODULES)
SHAPE_PRIORITY = {**{s: p for s, (p, _) in PLAIN_SHAPES.items()}, **{m.ID: m.PRIORITY for m in SHAPE_MODULES}}
SHAPE_NAMES = {**{s: name for s, (_, name) in PLAIN_SHAPES.items()}, **{m.ID: m.LABEL for m in SHAPE_MODULES}}
DECLARABLE = frozenset(m.ID for m in MODULES if getattr(m, "DECLARABLE", False))
# declaration names that stand for a rule while a value of the Table (view.Table) holds (ALIAS_WHILE names it)
ALIASES = {m.ALIAS: m for m in MODULES if hasattr(m, "ALIAS")}
