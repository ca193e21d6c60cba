"""A ruleset: a preset plus per-rule overrides, validated, with the lookups the engine needs precomputed."""
from __future__ import annotations

from .errors import InputError
from .presets import PRESETS
from .rules import DECLARABLE, MODULES, RULES, SHAPES

MAX_PLAYERS = 8  # seats a game may have (2 to 8)


class Ruleset:
    __slots__ = ("preset", "_params", "shapes", "compare", "min_stairs", "declarations", "jokers", "legality_hooks",
                 "special_hooks", "play_hooks", "finish_hooks", "size_hooks", "on_finish_hooks", "flush_on_finish",
                 "extra_hooks", "decline_hooks", "suits_matter", "trust_hooks", "lead_may_pass", "_key", "memo", "moves_memo")

    def __init__(self, preset: str, params: dict):
        self.preset = preset
        self._params = params
        self.shapes = frozenset(s for s in SHAPES if s in params)
        stairs = params.get("stairs") or {"compare": "shift", "min_length": 3}
        self.compare = stairs["compare"]
        self.min_stairs = stairs["min_length"]
        self.declarations = "declarations_required" in params
        self.jokers = params["jokers"]["count"] if "jokers" in params else 0
        on = [m for m in MODULES if m.ID in params]
        self.legality_hooks = tuple((m, params[m.ID]) for m in on if hasattr(m, "legality"))
        self.special_hooks = tuple((m, params[m.ID]) for m in on if hasattr(m, "special_play"))
        self.play_hooks = tuple((m, params[m.ID]) for m in on if hasattr(m, "after_play"))
        self.finish_hooks = tuple((m, params[m.ID]) for m in on if hasattr(m, "finish_verdict"))
        self.size_hooks = tuple((m, params[m.ID]) for m in on if hasattr(m, "candidate_sizes"))
        self.on_finish_hooks = tuple(sorted(((m, params[m.ID]) for m in on if hasattr(m, "on_finish")),
                                            key=lambda mp: getattr(mp[0], "ON_FINISH_ORDER", 0)))
        self.flush_on_finish = any(getattr(m, "FLUSHES_ON_FINISH", False) for m in on)
        self.extra_hooks = tuple((m, params[m.ID]) for m in on if hasattr(m, "extra_candidates"))
        self.decline_hooks = tuple((m, params[m.ID]) for m in on
                                   if hasattr(m, "declines") and m.declinable(params[m.ID]))
        self.suits_matter = any(getattr(m, "SUITS_MATTER", False) for m in on)
        self.trust_hooks = tuple((m, params[m.ID]) for m in on if hasattr(m, "taken_on_trust"))
        self.lead_may_pass = any(getattr(m, "LEAD_MAY_PASS", False) for m in on)
        self.memo: dict = {}              # play judgements under these rules (play.judge_play)
        self.moves_memo: dict = {}        # the legal plays a card set yields (legal._play_moves)
        self._key = (preset, tuple(sorted((k, tuple(sorted(v.items()))) for k, v in params.items())))

    def on(self, rule_id: str) -> bool:
        return rule_id in self._params

    def params(self, rule_id: str):
        return self._params.get(rule_id)

    def to_json(self) -> dict:
        return {"preset": self.preset,
                "rules": {m.ID: dict(self._params[m.ID]) if m.ID in self._params else False for m in MODULES}}

    def __eq__(self, other):
        return isinstance(other, Ruleset) and self._key == other._key

    def __hash__(self):
        return hash(self._key)

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
        "rules": [{"id": m.ID, "name_ja": m.NAME_JA, "description": m.SUMMARY,
                   "declarable": m.ID in DECLARABLE,
                   "params": {k: v.describe() for k, v in m.PARAMS.items()},
                   "presets": [n for n, rs in presets.items() if m.ID in rs]} for m in MODULES],
    }
