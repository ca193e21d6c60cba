"""A ruleset: a preset plus per-rule overrides, validated, with the lookups the engine needs precomputed."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .contract import HOOKS
from .errors import InputError
from .flow_events import Dealt, FieldCut, Finished, Given, GiveProposed, Passed, PlacesFinal
from .presets import PRESETS, SEATS, TITLES
from .rules import DECLARABLE, DIRECTION_SLOTS, MODULES, ORDER_SLOTS, RULE_SLOTS, RULES, SEQUENCES, SHAPES, VIEW_SLOTS
from .rules.base import flagged
from .slots import DEAL, PASS_RUN, PASSERS, TRICK, defaults, kept, lasting

MAX_PLAYERS = 8  # seats a game may have (2 to 8)
# Ruleset values that rules' ``settings`` hooks may set: how sequences compare, their fewest cards, the jokers and
# whether a joker standing in fires its rank's effects, whether the field's owner gets the turn back (passers sit
# out), what skipping round the table does, the shapes a field may take besides those a play may (a field a rule
# made: an attach revolution's 4-card stairs) and the fewest cards of a sequence there (None: min_stairs); the order
# of suits in which the referee takes equally strong cards when it breaks a tie (breaks_ties); whether every deal's
# first play is a first play (State.first_play: required_cards asked), not only the match's; how a later deal is
# seated (a function of the previous deal's places returning the seats in turn order, referee/seating.py; None: the
# seats' own order).
SETTINGS: dict[str, Any] = {"compare": "shift", "min_stairs": 3, "jokers": 0, "standin_effects": True,
                            "owner_plays_on": True, "skip_round": "combo", "skip_wraps": False,
                            "field_extra_shapes": frozenset(), "field_min_stairs": None, "tie_suits": "SHDC",
                            "first_play_every_deal": False, "seating": None}
# What a rule's ``settings`` may say of the rule itself (true or false; false if it says nothing): the Ruleset keeps
# the ids of the rules that say it. breaks_ties: the referee chooses among equally strong cards of the rule's
# strongest-cards gives; declinable: a play may decline the rule's effect (decline: [its id]); always_asks: the
# referee never makes the rule's gives and discards for the seat, even when it has no choice. Besides, a rule's
# settings may give a label, first_play_on_trust: what a table-mode play of the match's first play (while
# required_cards is asked) by a seat whose hand is partly unknown is taken on trust for.
RULE_FACTS = ("breaks_ties", "declinable", "always_asks")
# The hooks a rule's settings may say its params leave idle (``idle_hooks``: they would answer nothing whatever they
# were asked, so they are not called): a hook every play is judged by costs a call per judged reading otherwise.
IDLE_HOOKS = frozenset(HOOKS) - {"settings", "read", "slots"}


class Ruleset:
    __slots__ = ("preset", "_params", "shapes", "sequences", "compare", "min_stairs", "declarations", "jokers",
                 "field_shapes", "titles", "standin_effects", "owner_plays_on", "skip_round", "skip_wraps",
                 "legality_hooks", "special_hooks", "play_hooks", "finish_hooks", "place_hooks",
                 "special_cand_hooks", "joined_cand_hooks", "required_hooks", "decline_ranks", "declinable",
                 "first_play_trust", "first_play_every_deal", "on_finish_hooks", "finishers", "deal_hooks",
                 "dealt_hooks", "give_hooks", "received_hooks",
                 "tie_breakers", "tie_suits", "asking", "pass_hooks", "cut_hooks", "passers", "pass_run",
                 "flushes_on_finish", "lead_may_pass", "passes_sit_out", "_key", "_hash", "memo", "moves_memo",
                 "effects_memo", "tables", "view_slots", "rule_slots", "view_defaults", "rule_defaults", "order_slots",
                 "direction_slots", "trick_view", "trick_rule", "deal_view", "deal_rule", "seating", "rings")

    def __init__(self, preset: str, given: Mapping[str, Mapping]):
        """``given``: the parameters of each rule switched on, by id. Each rule's reach its hooks read-only (one
        copy per Ruleset, which the memos and cache share: a hook that wrote to it would change every game)."""
        self.preset = preset
        params: dict[str, Mapping] = {rule_id: MappingProxyType(dict(p)) for rule_id, p in given.items()}
        self._params = params
        on = [m for m in MODULES if m.ID in params]

        idle: dict[str, tuple] = {}  # the hooks each rule's settings say its params leave idle (idle_hooks)

        def hooks(name: str) -> tuple:
            """(module, params) of every rule switched on that defines hook ``name`` and does not leave it idle, in
            registry order."""
            return tuple((m, params[m.ID]) for m in on if hasattr(m, name) and name not in idle.get(m.ID, ()))

        def reacting(event: type) -> tuple[tuple[Any, Any], ...]:
            """(react, params) of every rule switched on whose react hook is told ``event`` (REACTS_TO)."""
            return tuple((m.react, p) for m, p in hooks("react") if event in m.REACTS_TO)

        def flag(name: str) -> bool:
            """Does a rule switched on set flag ``name``?"""
            return any(getattr(m, name, False) for m in on)

        settings = dict(SETTINGS)
        said: dict[str, dict] = {}  # each rule's own settings, by id
        for m, p in hooks("settings"):
            said[m.ID] = own = m.settings(p)
            settings.update(own)
            idle[m.ID] = own.get("idle_hooks", ())
            if not set(idle[m.ID]) <= IDLE_HOOKS:
                raise ValueError(f"{m.ID}: idle_hooks names {sorted(set(idle[m.ID]) - IDLE_HOOKS)}, which are no "
                                 f"hooks that may be idle ({', '.join(sorted(IDLE_HOOKS))})")
        facts = {fact: frozenset(rule_id for rule_id, own in said.items() if own.get(fact)) for fact in RULE_FACTS}
        self.compare, self.min_stairs, self.jokers = settings["compare"], settings["min_stairs"], settings["jokers"]
        self.standin_effects, self.owner_plays_on = settings["standin_effects"], settings["owner_plays_on"]
        self.skip_round, self.skip_wraps = settings["skip_round"], settings["skip_wraps"]
        self.seating = settings["seating"]
        self.rings: dict = {}  # seating.seats_after's tables, by previous places
        self.declarations = flag("DECLARATIONS_REQUIRED")
        self.shapes = frozenset(s for s in SHAPES if s in params)
        # in a fixed order: the candidate sets' order (hence legal_moves') must not depend on str hashing
        self.sequences = tuple(s for s in SEQUENCES if s in self.shapes)
        least = settings["field_min_stairs"]
        self.field_shapes = (self.shapes | settings["field_extra_shapes"],
                             self.min_stairs if least is None else min(self.min_stairs, least))
        self.titles = TITLES.get(preset)
        # the hooks asked of every judged play, kept as functions (no module attribute read per call):
        # (legality, params), (rule id, special_play, params), (finish_verdict, params)
        self.legality_hooks = tuple((m.legality, p) for m, p in hooks("legality"))
        self.special_hooks = tuple((m.ID, m.special_play, p) for m, p in hooks("special_play"))
        self.play_hooks = tuple((m.ID, m.after_play, p) for m, p in hooks("after_play"))
        self.finish_hooks = tuple((m.finish_verdict, p) for m, p in hooks("finish_verdict"))
        self.place_hooks = reacting(PlacesFinal)
        # the card sets listed on a field besides those that may beat it: those a special play may admit, and (a
        # rule whose special play joins the cards to the field's, JOINS_FIELD) those that are no play alone
        self.special_cand_hooks = tuple((m.candidates, p) for m, p in hooks("candidates")
                                        if not getattr(m, "JOINS_FIELD", False))
        self.joined_cand_hooks = tuple((m.candidates, p) for m, p in hooks("candidates")
                                       if getattr(m, "JOINS_FIELD", False))
        self.required_hooks = hooks("required_cards")
        finishing = sorted(((m, p) for m, p in hooks("react") if Finished in m.REACTS_TO),
                           key=lambda mp: getattr(mp[0], "ON_FINISH_ORDER", 0))
        self.on_finish_hooks = tuple((m.react, p) for m, p in finishing)
        self.finishers = frozenset(m.ID for m, _ in finishing)  # their events are the play's effects
        self.flushes_on_finish = flag("FLUSHES_ON_FINISH")
        # (rule id, rank) of the rules a play may decline (settings: declinable), each with the rank whose plays
        # legal_moves lists also declined (DECLINE_RANK)
        self.decline_ranks = tuple((m.ID, m.DECLINE_RANK) for m in on
                                   if m.ID in facts["declinable"] and hasattr(m, "DECLINE_RANK"))
        self.declinable = frozenset(rule_id for rule_id, _ in self.decline_ranks)  # what a play may decline
        self.first_play_trust = tuple(own["first_play_on_trust"] for own in said.values() if "first_play_on_trust" in own)
        self.first_play_every_deal = settings["first_play_every_deal"]
        self.lead_may_pass = flag("LEAD_MAY_PASS")
        self.deal_hooks = tuple((m.new_deal, p) for m, p in hooks("new_deal"))  # each part of a new deal in turn
        self.dealt_hooks = reacting(Dealt)  # told of every new deal, its exchange counts worked out
        self.give_hooks = reacting(GiveProposed)  # asked of every give/discard
        self.received_hooks = reacting(Given)  # told of every give made
        self.pass_hooks = reacting(Passed)  # told of every pass
        self.cut_hooks = reacting(FieldCut)
        self.passes_sit_out = flag("PASSES_SIT_OUT")
        # the rule_slots index of the slot a rule switched on keeps the seats that passed in (the turn skips them),
        # and of the one it keeps the passes in a row in (slots.keeps); -1: no rule on keeps it, nobody counts it
        own = tuple(s for m in on for s in getattr(m, "STATE", ()))
        self.passers, self.pass_run = kept(own, PASSERS), kept(own, PASS_RUN)
        self.tie_breakers, self.tie_suits = facts["breaks_ties"], settings["tie_suits"]
        self.asking = facts["always_asks"]  # rules whose gives wait for the seat even when it has no choice
        # the rules' declared state (every registered rule's, switched on or not: a slot keeps its place)
        self.view_slots, self.rule_slots = VIEW_SLOTS, RULE_SLOTS
        self.view_defaults, self.rule_defaults = defaults(VIEW_SLOTS), defaults(RULE_SLOTS)
        self.order_slots, self.direction_slots = ORDER_SLOTS, DIRECTION_SLOTS  # what they turn (slots.turns)
        # the indices of the view and rule slots a flush resets, and those a new deal resets
        self.trick_view, self.trick_rule = lasting(VIEW_SLOTS, (TRICK,)), lasting(RULE_SLOTS, (TRICK,))
        self.deal_view, self.deal_rule = lasting(VIEW_SLOTS, (TRICK, DEAL)), lasting(RULE_SLOTS, (TRICK, DEAL))
        # the memos, keyed by value (view.Table, view.PlayView, card sets), bounded (memo.remember)
        self.memo: dict = {}              # play judgements under these rules (play.judge_on)
        self.moves_memo: dict = {}        # the legal plays a card set yields, and annotations (legal, annotate)
        self.effects_memo: dict = {}      # the after_play answers for a PlayView (play._fired)
        self.tables: dict = {}            # one view.Table per value (view.table_of)
        self._key = (preset, tuple(sorted((k, tuple(sorted(v.items()))) for k, v in params.items())))
        self._hash = hash(self._key)

    @staticmethod
    def flagged(flag: str) -> frozenset:
        """The ids of the rules whose module sets ``flag``: how one rule refers to others without naming them."""
        return flagged(flag)

    def on(self, rule_id: str) -> bool:
        return rule_id in self._params

    def params(self, rule_id: str):
        return self._params.get(rule_id)

    def to_json(self) -> dict:
        return {"preset": self.preset,
                "rules": {m.ID: dict(self._params[m.ID]) if m.ID in self._params else False for m in MODULES}}

    def __eq__(self, other):
        return self is other or (isinstance(other, Ruleset) and self._key == other._key)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"Ruleset({self.preset!r}, {sorted(self._params)})"


def _full(rule_id: str, given: dict) -> dict:
    module = RULES[rule_id]
    out = {}
    for name, spec in module.PARAMS.items():
        out[name] = spec.check(rule_id, name, given[name]) if name in given else spec.default
    unknown = set(given) - set(module.PARAMS)
    if unknown:
        known = ", ".join(module.PARAMS) or "none"
        raise InputError("bad_rules", f"rule {rule_id} has no parameter {', '.join(sorted(unknown))} "
                         f"(its parameters: {known})")
    return out


_cache: dict = {}


def build_ruleset(preset: str = "uecda", overrides=None) -> Ruleset:
    """The ruleset of ``preset`` with ``overrides`` ``{rule_id: bool | {param: value}}`` applied."""
    if preset not in PRESETS:
        raise InputError("bad_rules", f"unknown preset {preset!r}: use one of {', '.join(PRESETS)}")
    overrides = overrides or {}
    if not isinstance(overrides, dict):
        raise InputError("bad_rules", "rules must be an object {rule_id: true | false | {param: value}}")
    key = (preset, repr(sorted(overrides.items(), key=lambda kv: str(kv[0]))))
    hit = _cache.get(key)
    if hit is not None:
        return hit
    chosen: dict[str, dict] = {rid: dict(p) for rid, p in PRESETS[preset].items()}
    for rid, value in overrides.items():
        if rid not in RULES:
            raise InputError("bad_rules", f"unknown rule id {rid!r}: GET /v1/rules lists them")
        if value is False or value is None:
            chosen.pop(rid, None)
        elif value is True:
            chosen.setdefault(rid, {})
        elif isinstance(value, dict):
            chosen[rid] = {**chosen.get(rid, {}), **value}
        else:
            raise InputError("bad_rules", f"rule {rid} must be true, false or an object of parameters, not {value!r}")
    ruleset = Ruleset(preset, {rid: _full(rid, p) for rid, p in chosen.items()})
    if len(_cache) < 512:
        _cache[key] = ruleset
    return ruleset


def ruleset_from_json(obj) -> Ruleset:
    if not isinstance(obj, dict) or "preset" not in obj or not isinstance(obj.get("rules"), dict):
        raise InputError("bad_state", "state.rules must be {preset, rules: {rule_id: params | false}}")
    return build_ruleset(obj["preset"], obj["rules"])


def catalog() -> dict:
    presets = {name: sorted(p) for name, p in PRESETS.items()}
    return {
        "presets": {name: build_ruleset(name).to_json()["rules"] for name in PRESETS},
        "seats": {name: {"min": lo, "max": hi} for name, (lo, hi) in SEATS.items()},
        "rules": [{"id": m.ID, "name_ja": m.NAME_JA, "name_en": m.NAME_EN, "description": m.SUMMARY,
                   "description_ja": m.SUMMARY_JA,
                   "declarable": m.ID in DECLARABLE,
                   "params": {k: v.describe() for k, v in m.PARAMS.items()},
                   "slots": [s.describe(f"{m.ID}: {m.SUMMARY}") for s in getattr(m, "STATE", ())],
                   "presets": [n for n, rs in presets.items() if m.ID in rs]} for m in MODULES],
    }
