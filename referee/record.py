"""Game records: a whole match as readable plain text, and back (docs/record.md).

``export_record(events)`` writes the event log of a match (its ``game_created``
event, every applied ``move`` with its verdict, effects and outcome, every
``deal_started``); ``import_record(text)`` reads the replay-relevant lines back
(the header, each deal's hands, each move line) and rebuilds the event list by
judging the moves again with the engine, so ``replay(import_record(text))``
reproduces the exported game's final state.  Pure: no I/O.

A record exported for a seat (events passed through ``redact_event``) hides the
cards that seat could not see; it says so in its header and cannot be imported.
"""
from __future__ import annotations

import json
import re

from .deals import new_game
from .engine import apply, next_deal
from .errors import InputError
from .narrate import cards_text, outcome_text
from .ruleset import build_ruleset

MAGIC = "# daifugo-referee record v1"
MOVE_KEYS = ("seat", "action", "cards")  # the rest of a move goes into its JSON tail


# --- export ---------------------------------------------------------------------------------------
def export_record(events, viewer=None) -> str:
    """The record of ``events`` (a game's log, seq 0 first).

    ``viewer`` only labels the record: pass the seat the events were redacted for
    (``redact_event(ev, seat)``), or None for the table's full log.
    """
    events = list(events)
    if not events or events[0].get("type") != "game_created":
        raise InputError("bad_log", "a log starts with its game_created event")
    first = events[0]
    players = list(first["players"])
    hidden = viewer is not None or _has_hidden(events)
    out = [MAGIC, "# Plain text; lines starting with # are comments. Format: docs/record.md", ""]
    out.append(f"preset: {first['preset']}")
    out.append(f"rules: {json.dumps(_overrides(first['preset'], first.get('rules')), ensure_ascii=False)}")
    out.append(f"players: {json.dumps(players, ensure_ascii=False)}")
    out.append(f"seed: {'hidden' if first.get('seed') is None and hidden else json.dumps(first.get('seed'))}")
    if first.get("table"):
        out.append("table: true    # table mode: a real table's game, the referee does not know the hands")
        if first.get("leader") is not None:
            out.append(f"leader: {json.dumps(first['leader'])}")
    if viewer is None and not hidden:
        out.append("view: table")
    else:
        who = "table" if viewer is None else f"seat {viewer}"
        out.append(f"view: {who} (redacted: cards this viewer could not see are shown as counts, "
                   "e.g. '13 hidden'; such a record cannot be imported)")
    out.append("")
    out += _deal_lines(1, first["hands"], players)
    for ev in events[1:]:
        if ev.get("type") == "move":
            out += _move_lines(ev, players)
        elif ev.get("type") == "hands_corrected":
            out.append(f"{ev['seq']:>4}  hands corrected {json.dumps(ev['hands'], ensure_ascii=False)}")
        elif ev.get("type") == "deal_started":
            out.append("")
            out += _deal_lines(ev.get("deal", "?"), ev["hands"], players, seq=ev["seq"])
            out += [f"      -> {o}" for o in (outcome_text(o, players) for o in ev.get("outcome", [])) if o]
        else:
            out.append(f"# event {ev.get('seq')}: {json.dumps(ev, ensure_ascii=False)}")
    out.append("")
    out.append(f"end: seq {events[-1]['seq']}")
    return "\n".join(_one_line(line) for line in out) + "\n"


# Characters that would end a line when the record is read back (str.splitlines), other control characters and
# lone surrogates: written as \uXXXX, so a name or a message can never start a line that imports as a move.
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _one_line(text: str) -> str:
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _has_hidden(events) -> bool:
    for ev in events:
        if any(isinstance(h, int) for h in ev.get("hands") or []):
            return True
        mv = ev.get("move") or {}
        if isinstance(mv.get("cards"), int):
            return True
    return False


def _overrides(preset: str, rules) -> dict:
    """The event's full rule settings as overrides of the preset's defaults."""
    if not rules:
        return {}
    try:
        base = build_ruleset(preset).to_json()["rules"]
    except InputError:
        return dict(rules)
    return {rid: val for rid, val in rules.items() if base.get(rid, object()) != val}


def _deal_lines(deal, hands, players, seq=None) -> list[str]:
    head = f"deal {deal}" + (f"  (seq {seq})" if seq is not None else "  (seq 0)")
    lines = [head]
    if hands is None:
        return lines + ["  hands: unknown    # table mode"]
    for seat, hand in enumerate(hands):
        n = hand if isinstance(hand, int) else len(hand)
        lines.append(f"  hand {seat}: {cards_text(hand)}    # {players[seat] if seat < len(players) else '?'}, {n} cards")
    return lines


def _move_lines(ev, players) -> list[str]:
    mv = dict(ev["move"])
    seat, action = mv.pop("seat"), mv.pop("action")
    cards = mv.pop("cards", None)
    line = f"{ev['seq']:>4}  seat {seat} {action}"
    if cards is not None:
        line += f" {cards_text(cards)}"
    if mv:
        line += "  " + json.dumps(mv, ensure_ascii=False, sort_keys=True)
    name = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"
    lines = [f"{line}    # {name}"]
    verdict = ev.get("verdict") or {}
    if verdict.get("message"):
        lines.append(f"      = {verdict['message']}")
    if verdict.get("effects"):
        lines.append(f"      effects: {', '.join(str(e) for e in verdict['effects'])}")
    if verdict.get("reading"):
        lines.append(f"      jokers: {', '.join(f'{k} as {v}' for k, v in verdict['reading'].items())}")
    if verdict.get("void_declarations"):
        lines.append(f"      void declarations: {json.dumps(verdict['void_declarations'], ensure_ascii=False)}")
    if verdict.get("unchecked"):
        lines.append(f"      unchecked: {', '.join(str(u) for u in verdict['unchecked'])}")
    for item in ev.get("outcome", []):
        text = outcome_text(item, players)
        if text:
            lines.append(f"      -> {text}")
    return lines


# --- import ---------------------------------------------------------------------------------------
_MOVE = re.compile(r"^\s*(\d+)\s+seat\s+(\d+)\s+([a-z_]+)\b(.*)$")
_HAND = re.compile(r"^\s*hand\s+(\d+)\s*:(.*)$")
_DEAL = re.compile(r"^\s*deal\s+(\d+)\b")
_CORRECTED = re.compile(r"^\s*(\d+)\s+hands corrected\s+(.*)$")
_HEADER = re.compile(r"^([a-z_]+):\s*(.*)$")
_ANNOTATION = re.compile(r"^\s+(=|->|effects:|jokers:|void declarations:|unchecked:)")


def parse_record(text: str) -> dict:
    """The record's content: ``{preset, rules, players, seed, deals: [{deal, seq, hands, moves}]}``.

    Each move is ``(seq, move dict, line number)``. Raises InputError(code="bad_record").
    """
    if not isinstance(text, str) or not text.strip():
        raise _bad(0, "the record is empty")
    header: dict = {}
    deals: list[dict] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw)
        if not line.strip() or _ANNOTATION.match(line):
            continue
        if m := _DEAL.match(line):
            deals.append({"deal": int(m.group(1)), "seq": None, "hands": {}, "moves": [], "line": no})
            sm = re.search(r"\(seq\s+(\d+)\)", raw)
            deals[-1]["seq"] = int(sm.group(1)) if sm else None
            continue
        if m := _HAND.match(line):
            if not deals:
                raise _bad(no, "a hand line before any 'deal N' line")
            seat, cards = int(m.group(1)), m.group(2).split()
            if re.fullmatch(r"\s*\d+\s+hidden\s*", m.group(2)):
                raise _bad(no, "this record is redacted (a hand is hidden): only a table record can be imported")
            if deals[-1]["hands"] is None:
                raise _bad(no, "hand lines in a deal whose hands are unknown")
            if seat in deals[-1]["hands"]:
                raise _bad(no, f"hand {seat} appears twice in deal {deals[-1]['deal']}")
            deals[-1]["hands"][seat] = [] if cards == ["-"] else cards
            continue
        if re.fullmatch(r"\s*hands:\s*unknown\s*", line):
            if not deals:
                raise _bad(no, "a hands line before any 'deal N' line")
            deals[-1]["hands"] = None
            continue
        if m := _CORRECTED.match(line):
            if not deals:
                raise _bad(no, "a hands correction before the first 'deal N' block")
            hands = _json(m.group(2), no, "hands corrected")
            deals[-1]["moves"].append((int(m.group(1)), {"hands_corrected": hands}, no))
            continue
        if m := _MOVE.match(line):
            if not deals:
                raise _bad(no, "a move before the first 'deal N' block")
            deals[-1]["moves"].append((int(m.group(1)), _parse_move(no, int(m.group(2)), m.group(3),
                                                                    m.group(4)), no))
            continue
        if (m := _HEADER.match(line.strip())) and not deals:
            key, value = m.group(1), m.group(2).strip()
            if key in header:
                raise _bad(no, f"'{key}:' appears twice")
            header[key] = (value, no)
            continue
        if line.strip().startswith("end:"):
            continue
        raise _bad(no, f"cannot read this line: {raw.strip()[:80]!r}")
    return _checked(header, deals)


def _strip_comment(raw: str) -> str:
    """Drop a '#' comment unless it is inside a JSON string (names may contain '#')."""
    if "#" not in raw:
        return raw
    in_str = esc = False
    for i, ch in enumerate(raw):
        if esc:
            esc = False
        elif ch == "\\":
            esc = in_str
        elif ch == '"':
            in_str = not in_str
        elif ch == "#" and not in_str:
            return raw[:i]
    return raw


def _parse_move(no: int, seat: int, action: str, rest: str) -> dict:
    move: dict = {"seat": seat, "action": action}
    rest = rest.strip()
    extra = None
    if "{" in rest:
        i = rest.index("{")
        rest, tail = rest[:i].strip(), rest[i:].strip()
        try:
            extra = json.loads(tail)
        except json.JSONDecodeError as exc:
            raise _bad(no, f"the move's JSON part does not parse: {exc.msg}") from None
        if not isinstance(extra, dict):
            raise _bad(no, "the move's JSON part must be an object")
    if rest:
        if re.fullmatch(r"\d+\s+hidden", rest):
            raise _bad(no, "this record is redacted (the cards given are hidden): only a table record can be imported")
        move["cards"] = [] if rest == "-" else rest.split()
    if extra:
        clash = set(extra) & set(MOVE_KEYS)
        if clash:
            raise _bad(no, f"the move's JSON part may not set {sorted(clash)}")
        move.update(extra)
    return move


def _checked(header: dict, deals: list[dict]) -> dict:
    def need(key):
        if key not in header:
            raise _bad(0, f"the record has no '{key}:' line")
        return header[key]

    preset, _ = need("preset")
    rules_text, no = header.get("rules", ("{}", 0))
    rules = _json(rules_text, no, "rules")
    if rules is not None and not isinstance(rules, dict):
        raise _bad(no, "'rules:' must be a JSON object of overrides")
    players_text, no = need("players")
    players = _json(players_text, no, "players")
    if not (isinstance(players, list) and players and all(isinstance(p, str) for p in players)):
        raise _bad(no, "'players:' must be a JSON list of names")
    seed_text, no = header.get("seed", ("null", 0))
    if seed_text.startswith("hidden"):
        raise _bad(no, "this record is redacted (the seed is hidden): only a table record can be imported")
    seed = _json(seed_text, no, "seed")
    if seed is not None and not isinstance(seed, int):
        raise _bad(no, "'seed:' must be an integer or null")
    view, no = header.get("view", ("table", 0))
    if not view.startswith("table") or "redacted" in view:
        raise _bad(no, "this record is redacted (view: " + view.split(" (")[0] + "): only a table record "
                   "(exported with the table token) can be imported")
    table = _json(header.get("table", ("false", 0))[0], header.get("table", ("", 0))[1], "table")
    leader = _json(header.get("leader", ("null", 0))[0], header.get("leader", ("", 0))[1], "leader")
    unknown = sorted(set(header) - {"preset", "rules", "players", "seed", "view", "table", "leader"})
    if unknown:
        raise _bad(header[unknown[0]][1], f"unknown header line '{unknown[0]}:'")
    if not deals:
        raise _bad(0, "the record has no 'deal 1' block")
    for i, d in enumerate(deals):
        if d["deal"] != i + 1:
            raise _bad(d["line"], f"expected 'deal {i + 1}', found 'deal {d['deal']}'")
        if d["hands"] is None:
            if not table:
                raise _bad(d["line"], "'hands: unknown' is only for table-mode records ('table: true')")
            continue
        if table:
            raise _bad(d["line"], "a table-mode record's deals have 'hands: unknown'")
        seats = sorted(d["hands"])
        if seats != list(range(len(players))):
            raise _bad(d["line"], f"deal {d['deal']} must list one hand per seat 0..{len(players) - 1}")
        d["hands"] = [d["hands"][s] for s in seats]
    return {"preset": preset, "rules": rules or None, "players": players, "seed": seed, "deals": deals,
            "table": bool(table), "leader": leader}


def _json(text: str, no: int, key: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _bad(no, f"'{key}:' is not JSON ({exc.msg})") from None


def _bad(no: int, message: str) -> InputError:
    return InputError("bad_record", f"record line {no}: {message}" if no else f"record: {message}")


def import_record(text: str) -> list[dict]:
    """The event log the record describes, every move judged again by the engine.

    Raises InputError(code="bad_record") for a record that does not parse, is
    redacted, or whose moves do not replay (an illegal move names its line and
    the engine's verdict).
    """
    try:
        return _import(text)
    except InputError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        # a record is untrusted text: whatever slipped past the checks above is still a bad record
        raise _bad(0, f"the record could not be read ({type(exc).__name__}: {str(exc)[:120]})") from None


def _import(text: str) -> list[dict]:
    rec = parse_record(text)
    table = {"table": True, "leader": rec["leader"]} if rec["table"] else {}  # only table records need them
    try:
        state, events = new_game(rec["preset"], rec["rules"], rec["players"], rec["seed"], rec["deals"][0]["hands"],
                                 **table)
    except TypeError:
        raise _bad(0, "this engine has no table mode; the record needs it") from None
    except InputError as exc:
        raise _bad(0, f"the game cannot be created: {exc.message}") from None
    for d in rec["deals"]:
        if d["deal"] > 1:
            if state.phase != "deal_over":
                raise _bad(d["line"], f"deal {d['deal']} starts before deal {d['deal'] - 1} is over")
            try:
                state, evs = next_deal(state, d["hands"])
            except InputError as exc:
                raise _bad(d["line"], f"deal {d['deal']} cannot start: {exc.message}") from None
            if d["seq"] is not None and evs and evs[0]["seq"] != d["seq"]:
                raise _bad(d["line"], f"deal {d['deal']} is at seq {evs[0]['seq']}, the record says {d['seq']}")
            events += evs
        for seq, move, no in d["moves"]:
            if seq != state.seq + 1:
                raise _bad(no, f"move numbered {seq}, expected {state.seq + 1}")
            if "hands_corrected" in move:
                from .deals import correct_hands  # table mode

                try:
                    state, evs = correct_hands(state, move["hands_corrected"])
                except InputError as exc:
                    raise _bad(no, f"the hands correction is refused: {exc.message}") from None
                events += evs
                continue
            try:
                verdict, state, evs = apply(state, move)
            except InputError as exc:
                raise _bad(no, f"malformed move: {exc.message}") from None
            if not verdict.legal:
                raise _bad(no, f"the move is illegal: {verdict.reason}: {verdict.message}")
            events += evs
    return events
