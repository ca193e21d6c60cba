"""Golden playthroughs: seeded self-play of every preset and of random rule switches, as text a reviewer can diff.

    python -m tests.golden.record            # compare the engine with the stored files (exit 1 on a difference)
    python -m tests.golden.record --update   # rewrite them from their specs (a changed golden must be a reviewed fix)

One file per game in tests/golden/games/. Its first line is the game's spec (JSON); then per ply: the actors,
each actor's legal moves (sorted, one line per seat), the chosen move (a seeded pick among the concrete legal
moves), its verdict, the events' outcome (and what each seat may see of them where that differs), a probe (a
seeded, usually illegal, proposal and its verdict), and every seat's view as a delta against the previous ply:
``view *`` holds what all seats see alike, ``view N`` what only seat N sees.

Only the public engine API and the JSON it returns are used, rendered generically, so the recorder works whether
a choice of N cards is listed as every card set or as one ``{"choose": ...}`` entry: the move is picked among the
concrete moves either way, so both forms pick the same moves.
"""
from __future__ import annotations

import argparse
import difflib
import json
import random
import re
import sys
from itertools import combinations
from pathlib import Path

from referee import (InputError, actors, apply, build_ruleset, catalog, judge, legal_moves, new_game, next_deal,
                     redact_event, replay, state_from_json, state_to_json)

GAMES_DIR = Path(__file__).parent / "games"
MAX_PLIES = 4000          # a game whose legal moves never end it stops here (and says so)
MAX_CONCRETE = 50_000     # a choose entry expanded beyond this is sampled from, not enumerated

PRESET_GAMES = [
    {"name": "uecda", "preset": "uecda", "rules": {}, "players": 5, "seed": 101, "deals": 2},
    {"name": "nanko", "preset": "nanko", "rules": {}, "players": 4, "seed": 102, "deals": 2},
    {"name": "gekifugo", "preset": "gekifugo", "rules": {}, "players": 4, "seed": 103, "deals": 2},
    # three seats over five deals: standings repeat (inflation), the bottom wins (gekokujo), the top falls
    {"name": "gekifugo-3p", "preset": "gekifugo", "rules": {}, "players": 3, "seed": 105, "deals": 5},
]
SWITCH_SETS = 5           # games with rule switches drawn at random from the catalogue
# Games whose first deal hands seats the cards of rare rules (the rest of the deal seeded and even); a seat
# able to play one of the ``prefer`` card sets (or to take a preferred action) does it, once; until then its
# other moves keep those cards together (and never play the ``keep`` cards while they can help it), so that
# those rules surely fire.
RIGGED_GAMES = [
    {"name": "gekifugo-bombs", "preset": "gekifugo", "players": 4, "seed": 301, "deals": 2,
     "wants": {0: ["S6", "H6", "D6", "C6", "JK1", "JK2"], 1: ["SK", "HK", "DK", "CK", "HA"],
               2: ["S9", "ST", "SJ", "H9", "HT", "HJ"], 3: ["D9", "DT", "DJ", "DQ", "C4", "C6"]},
     "prefer": [["S6", "H6", "D6", "C6", "JK1", "JK2"], ["SK", "HK", "DK", "CK", "HA"],
                ["S9", "ST", "SJ", "H9", "HT", "HJ"], ["D9", "DT", "DJ", "DQ"]]},
    {"name": "nanko-mary", "preset": "nanko", "players": 4, "seed": 302, "deals": 3,
     "wants": {0: ["S3", "SQ", "HQ", "DQ"], 1: ["JK1", "JK2", "S5"], 2: ["S8", "H8", "D8", "C8"], 3: ["H3", "D3", "C3"]},
     "prefer": [["SQ", "HQ", "DQ"], ["S8"], "cut_back", ["H3", "D3", "C3"]], "keep": ["JK1", "JK2"]},
    {"name": "uecda-revolutions", "preset": "uecda", "players": 5, "seed": 303, "deals": 3,
     "wants": {0: ["D3", "S9", "H9", "D9", "C9"], 1: ["H3", "H4", "H5", "H6", "H7"], 2: ["JK1", "S8", "H8"]},
     "prefer": [["S9", "H9", "D9", "C9"], ["H3", "H4", "H5", "H6", "H7"], ["S8", "H8"], ["JK1"]]},
]

# ---------------------------------------------------------------- compact rendering

SUITS, RANKS = "SHDC", "3456789TJQKA2"
CARD = re.compile(r"^(?:[SHDC][3-9TJQKA2]|JK[12])$")


def card_key(c: str):
    return (13, int(c[2])) if c.startswith("JK") else (RANKS.index(c[1]), SUITS.index(c[0]))


def is_cards(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, str) and CARD.match(x) for x in v)


def fmt(v) -> str:
    """One value in one token: card lists sorted and comma-joined, dicts with sorted keys."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        return str(v)
    if is_cards(v):
        return ",".join(sorted(v, key=card_key))
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(fmt(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + " ".join(f"{k}={fmt(v[k])}" for k in sorted(v)) + "}"
    return repr(v)


def fmt_move(m: dict, seat=False) -> str:
    """``action cards+key=value...``: a move (or a legal-moves entry) in one token."""
    cards = m.get("cards")
    out = m["action"] + (" " + fmt(cards) if cards else "")
    extra = "".join(f"+{k}={fmt(m[k])}" for k in sorted(m) if k not in ("seat", "action", "cards"))
    return (f"{m['seat']}: " if seat else "") + out + extra


def move_key(m: dict):
    cards = m.get("cards") or []
    return (m["action"], len(cards), [card_key(c) for c in sorted(cards, key=card_key)], fmt_move(m))


def fmt_legal(entries: list) -> str:
    """The legal moves of one seat: grouped by action, each group sorted, entries without their action."""
    groups: dict = {}
    for m in entries:
        groups.setdefault(m["action"], []).append(m)
    parts = []
    for action in sorted(groups):
        tokens = []
        for m in sorted(groups[action], key=move_key):
            t = fmt_move(m)[len(action):].strip()
            tokens.append(t or "()")
        parts.append(action if tokens == ["()"] else f"{action}: " + " ".join(tokens))
    return " | ".join(parts)


def fmt_verdict(v: dict, message=False) -> str:
    """``ok``/``no``, then the verdict's non-empty fields (the message only for a rejection)."""
    parts = ["ok" if v.get("legal") else "no"]
    parts += [f"{k}={fmt(v[k])}" for k in sorted(v) if k not in ("legal", "message") and v[k] not in (None, [], {}, "")]
    if message or not v.get("legal"):
        parts.append(f"message={v.get('message')}")
    return " ".join(parts)


def fmt_outcome(ev: dict) -> str:
    """An event without what other lines show (the move, the verdict): its type, then its outcome items."""
    items = []
    if ev.get("type") != "move":
        items.append(fmt({k: v for k, v in ev.items() if k not in ("outcome", "seq")}))
    items += [fmt(x) for x in ev.get("outcome", [])]
    return " ; ".join(items)


def flatten(obj, prefix="") -> dict:
    """A view as path -> one-token value: dicts by key, the per-seat list (items with ``seat`` = index) by
    index, everything else (the pending queue, card lists...) as one value."""
    out = {}
    if isinstance(obj, dict):
        for k in obj:
            out.update(flatten(obj[k], f"{prefix}{k}."))
    elif isinstance(obj, list) and obj and all(isinstance(x, dict) and x.get("seat") == i for i, x in enumerate(obj)):
        for i, x in enumerate(obj):
            out.update(flatten(x, f"{prefix}{i}."))
    else:
        out[prefix[:-1]] = fmt(obj)
    return out


def delta(prev: dict, cur: dict) -> str:
    keys = sorted(set(prev) | set(cur))
    return " ".join(f"{k}={cur.get(k, '~')}" for k in keys if prev.get(k) != cur.get(k))


# ---------------------------------------------------------------- concrete moves and the seeded pick

PROPOSAL = ("seat", "action", "cards", "as", "declare", "decline", "rank", "count")


def concrete(entry: dict) -> list[dict]:
    """The proposals a legal-moves entry stands for: itself without what only annotates it (the effects it
    would fire...), or every card set a choose entry allows. Picks are made among these, so that annotations
    added to legal moves later change the legal lines only, never which moves are played."""
    if "choose" not in entry:
        return [{k: entry[k] for k in PROPOSAL if k in entry}]
    c = entry["choose"]
    fixed = list(entry.get("cards", []))
    pool = sorted(c["from"], key=card_key)
    limit = c.get("limit") or {}
    capped, room = set(limit.get("cards", [])), limit.get("max")
    out = []
    for k in range(c["min"], c["max"] + 1):
        for combo in combinations(pool, k):
            if room is not None and len(capped.intersection(combo)) > room:
                continue
            out.append({"seat": entry["seat"], "action": entry["action"], "cards": fixed + list(combo)})
            if len(out) > MAX_CONCRETE:
                raise RuntimeError(f"choose entry too large to enumerate: {fmt_move(entry)}")
    return out


def concrete_moves(entries: list) -> list[dict]:
    seen, out = set(), []
    for e in entries:
        for m in concrete(e):
            key = fmt_move(m, seat=True)
            if key not in seen:
                seen.add(key)
                out.append(m)
    return sorted(out, key=move_key)


def weight(m: dict) -> int:
    """Plays of many cards and declared effects are drawn more often than passes and singles, so that rare
    rules (revolutions, Bloody Mary, cut backs...) fire in a few hundred plies."""
    if m["action"] != "play":
        return 1
    return len(m.get("cards", ())) ** 3 + 4 * len(m.get("declare", ()))


def pick(rng: random.Random, options: list, prefer: list, keep=()) -> dict:
    """A seeded weighted draw; but a preferred card set still unplayed (or a preferred action) is played, with
    the most declarations, and other plays do not break up a preferred set."""
    for i, want in enumerate(prefer):
        if isinstance(want, str):
            hits = [m for m in options if m["action"] == want]
        else:
            hits = [m for m in options if m["action"] == "play" and set(m.get("cards", ())) == set(want)]
        if hits:
            del prefer[i]
            return max(hits, key=lambda m: (len(m.get("declare", ())), fmt_move(m)))
    kept = {c for want in prefer if not isinstance(want, str) for c in want} | set(keep)
    whole = [m for m in options if m["action"] != "play" or not kept & set(m.get("cards", ()))]
    options = whole or options
    return rng.choices(options, weights=[weight(m) for m in options])[0]


def probe(rng: random.Random, views: list, acting: list, chosen: dict) -> dict:
    """A seeded proposal that is usually illegal: a few cards of some seat's hand, by that seat."""
    seat = chosen["seat"] if rng.random() < 0.75 else rng.randrange(len(views))
    hand = views[seat]["players"][seat]["hand"] or []
    cards = rng.sample(sorted(hand, key=card_key), rng.randint(1, min(3, len(hand)))) if hand else []
    action = chosen["action"] if seat in acting and chosen["action"] not in ("pass", "request") else "play"
    out = {"seat": seat, "action": action}
    if cards:
        out["cards"] = cards
    return out


# ---------------------------------------------------------------- one game

def draw_switches(index: int) -> dict:
    """A random rule switch set from the catalogue: each rule drawn with its own seeded RNG, so rules added
    to the catalogue later do not change the draws of the others."""
    cat = catalog()
    presets = sorted(cat["presets"])
    for attempt in range(50):
        rng = random.Random(f"golden:{index}:{attempt}")
        preset = rng.choice(presets)
        players = rng.randint(3, 6)
        rules = {}
        for rule in cat["rules"]:
            r = random.Random(f"golden:{index}:{attempt}:{rule['id']}")
            on = cat["presets"][preset].get(rule["id"]) is not False
            if r.random() < 0.3:
                on = not on
            if not on:
                rules[rule["id"]] = False
                continue
            params = {}
            for name in sorted(rule["params"]):
                spec = rule["params"][name]
                if r.random() < 0.5:
                    continue
                if "choices" in spec:
                    params[name] = r.choice(spec["choices"])
                elif spec["type"] == "boolean":
                    params[name] = r.random() < 0.5
                elif spec["type"] == "integer":
                    d = spec["default"]
                    params[name] = r.randint(max(spec.get("min", d), d - 1), min(spec.get("max", d), d + 1))
            rules[rule["id"]] = params or True
        try:
            build_ruleset(preset, rules)
        except InputError:
            continue
        return {"name": f"switches-{index}", "preset": preset, "rules": rules, "players": players,
                "seed": 200 + index, "deals": 2}
    raise RuntimeError(f"no valid rule switch set drawn for index {index}")


def rigged(game: dict) -> dict:
    """A spec whose first-deal hands come from a seeded shuffle, with the wanted cards swapped into their
    seats (each seat keeps its number of cards)."""
    jokers = build_ruleset(game["preset"], game.get("rules")).jokers
    deck = [s + r for r in RANKS for s in SUITS] + [f"JK{i + 1}" for i in range(jokers)]
    random.Random(f"rigged:{game['seed']}").shuffle(deck)
    n = game["players"]
    hands = [deck[i::n] for i in range(n)]
    wanted = {c for cards in game["wants"].values() for c in cards}
    for seat, cards in sorted(game["wants"].items()):
        for c in cards:
            holder = next(h for h in hands if c in h)
            if holder is hands[seat]:
                continue
            give = next(x for x in hands[seat] if x not in wanted)
            holder[holder.index(c)], hands[seat][hands[seat].index(give)] = give, c
    spec = {k: v for k, v in game.items() if k != "wants"}
    return {**spec, "rules": game.get("rules", {}), "hands": [sorted(h, key=card_key) for h in hands]}


def specs() -> list[dict]:
    return PRESET_GAMES + [rigged(g) for g in RIGGED_GAMES] + [draw_switches(i) for i in range(1, SWITCH_SETS + 1)]


def views_of(st, n: int) -> list[dict]:
    return [state_to_json(st, viewer=s) for s in range(n)]


class ViewDelta:
    """Renders the seat views of successive states as deltas: common items once, each seat's own apart."""

    def __init__(self, n):
        self.n = n
        self.common: dict = {}
        self.own: list = [{} for _ in range(n)]

    def lines(self, views: list) -> list[str]:
        flat = [flatten(v) for v in views]
        common = {k: v for k, v in flat[0].items() if all(f.get(k) == v for f in flat[1:])}
        own = [{k: v for k, v in f.items() if k not in common and v != "-"} for f in flat]
        out = []
        d = delta(self.common, common)
        if d:
            out.append(f"view * {d}")
        for s in range(self.n):
            d = delta(self.own[s], own[s])
            if d:
                out.append(f"view {s} {d}")
        self.common, self.own = common, own
        return out


def event_lines(events: list, n: int) -> list[str]:
    out = []
    for ev in events:
        full = fmt_outcome(ev)
        out.append(f"events {full}" if full else "events")
        seen: dict = {}
        for s in range(n):
            r = fmt_outcome(redact_event(ev, s))
            mv = redact_event(ev, s).get("move")
            if mv and mv != ev.get("move"):
                r = f"move={fmt_move(mv, seat=True)} ; {r}"
            if r != full:
                seen.setdefault(r, []).append(str(s))
        for r, seats in sorted(seen.items(), key=lambda kv: kv[1]):
            out.append(f"events@{','.join(seats)} {r}")
    return out


def play(spec: dict) -> list[str]:
    """Play the game a spec describes and render it."""
    n = spec["players"]
    names = [f"p{i}" for i in range(n)]
    st, created = new_game(spec["preset"], spec["rules"], names, spec["seed"], hands=spec.get("hands"))
    rng = random.Random(f"pick:{spec['seed']}")
    prefer = [list(cards) for cards in spec.get("prefer", [])]
    log = list(created)
    lines = ["spec " + json.dumps(spec, sort_keys=True, ensure_ascii=False)]
    vd = ViewDelta(n)
    views = views_of(st, n)
    lines.append("start")
    lines += vd.lines(views)
    deals, ply = 1, 0
    while True:
        acting = actors(st)
        if not acting:
            lines.append(f"deal {deals} over")
            if deals >= spec["deals"]:
                break
            st, evs = next_deal(st)
            deals += 1
            log += evs
            lines += event_lines(evs, n)
            views = views_of(st, n)
            lines += vd.lines(views)
            continue
        ply += 1
        if ply > MAX_PLIES:
            lines.append(f"stopped: {MAX_PLIES} plies without the game ending")
            break
        acting = sorted(acting)
        lines.append(f"# ply {ply} seq={views[0]['seq']} actors={fmt(acting)}")
        legal = {s: legal_moves(st, s) for s in acting}
        for s in acting:
            lines.append(f"legal {s}: {fmt_legal(legal[s])}")
        seat = rng.choice(acting)
        options = concrete_moves(legal[seat])
        if not options:
            lines.append(f"stopped: seat {seat} acts but has no legal move")
            break
        move = pick(rng, options, prefer, spec.get("keep", ()))
        lines.append(f"move {fmt_move(move, seat=True)}")
        prb = probe(rng, views, acting, move)
        verdict, new, evs = apply(st, move)
        lines.append(f"verdict {fmt_verdict(verdict.to_json())}")
        lines += event_lines(evs, n)
        lines.append(f"probe {fmt_move(prb, seat=True)} -> {fmt_verdict(judge(st, prb).to_json(), message=True)}")
        if not verdict.legal:
            lines.append("stopped: a listed legal move was rejected")
            break
        st = new
        log += evs
        views = views_of(st, n)
        lines += vd.lines(views)
        table = state_to_json(st)
        if state_to_json(state_from_json(table)) != table:
            lines.append("ROUNDTRIP DIFFERS: state_from_json(state_to_json(state)) is not the same state")
    final = state_to_json(st)
    lines.append(f"replay of {len(log)} events " + ("matches" if state_to_json(replay(log)) == final else "DIFFERS"))
    return lines


# ---------------------------------------------------------------- files

def path_of(name: str) -> Path:
    return GAMES_DIR / f"{name}.txt"


def read_spec(path: Path) -> dict:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    if not first.startswith("spec "):
        raise ValueError(f"{path}: the first line must be the game's spec")
    return json.loads(first[5:])


def first_difference(expected: list[str], actual: list[str], name: str) -> str | None:
    """A readable report of the first differing ply: where, the first differing token, and a diff of that ply."""
    i = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b), min(len(expected), len(actual)))
    if i == len(expected) == len(actual):
        return None
    start = max((j for j in range(min(i, len(expected) - 1) + 1) if expected[j].startswith("# ply")), default=0)

    def end(lines):
        return next((j for j in range(i + 1, len(lines)) if lines[j].startswith("# ply")), len(lines))

    header = expected[start] if start else "the game's start"
    out = [f"{name}: first difference at line {i + 1}, in {header}"]
    if i < len(expected) and i < len(actual):
        a, b = expected[i].split(" "), actual[i].split(" ")
        k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        out.append(f"first differing token: stored {' '.join(a[k:k + 1]) or '(end)'!r}, "
                   f"now {' '.join(b[k:k + 1]) or '(end)'!r}")
    else:
        out.append("stored has more lines" if i < len(expected) else "the engine now writes more lines")
    diff = difflib.unified_diff(expected[start:end(expected)][:60], actual[start:end(actual)][:60],
                                f"{name} (stored)", f"{name} (engine now)", lineterm="", n=60)
    return "\n".join(out + list(diff))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the golden files from the engine")
    parser.add_argument("--only", action="append", help="only these game names")
    parser.add_argument("--redraw", action="store_true", help="draw the switch sets again instead of replaying the "
                        "specs the files hold (rules added since change the draws)")
    args = parser.parse_args(argv)
    GAMES_DIR.mkdir(exist_ok=True)
    differ = 0
    for spec in specs():
        if args.only and spec["name"] not in args.only:
            continue
        path = path_of(spec["name"])
        if path.exists() and not args.redraw:
            spec = read_spec(path)  # a stored game stays the same game when the catalogue grows
        lines = play(spec)
        if args.update:
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            print(f"wrote {path} ({len(lines)} lines, {path.stat().st_size // 1024} KiB)")
            continue
        if not path.exists():
            print(f"{spec['name']}: no golden file (run with --update)")
            differ += 1
            continue
        report = first_difference(path.read_text(encoding="utf-8").splitlines(), lines, spec["name"])
        if report:
            print(report)
            differ += 1
        else:
            print(f"{spec['name']}: same")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
