"""Plain-language lines for what a move caused (an event's ``outcome``): the record, simulate and demo share them."""
from __future__ import annotations

import json

from .rules import RULES

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def seat_name(seat, players=()) -> str:
    if not players:
        return f"seat {seat}"
    name = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"
    return f"seat {seat} ({name})"


def cards_text(cards) -> str:
    if isinstance(cards, int):
        return f"{cards} hidden"
    return " ".join(cards) if cards else "-"


def ordinal(place) -> str:
    return ORDINALS.get(place, f"{place}th")


def outcome_lines(outcome, players=()) -> list[str]:
    """An event's outcome as lines in the order a reader expects: the end of the deal comes last, after the flush
    or give the same move also set off."""
    items = sorted(outcome or (), key=lambda o: o.get("kind") == "deal_over")
    return [text for text in (outcome_text(o, players) for o in items) if text]


def places_text(places) -> str:
    """``(place, name, title or None)`` triples as "1. ann (大富豪), 2. bo (富豪), ..." in place order."""
    return ", ".join(f"{place}. {name}" + (f" ({title})" if title else "") for place, name, title in sorted(places))


def outcome_text(o: dict, players=()) -> str | None:
    kind = o.get("kind")
    rule = RULES.get(kind)
    if rule is not None and hasattr(rule, "narrate"):  # an event a rule names after itself
        return rule.narrate(o, lambda seat: seat_name(seat, players), cards_text)
    if kind in ("play", "pass"):
        return None  # the move line says it
    if kind == "flush":
        return "the field is flushed (流れ)"
    if kind == "finish":
        return f"{seat_name(o.get('seat'), players)} finishes {ordinal(o.get('place'))}"
    if kind == "deal_over":
        return "the deal is over"
    if kind == "give":
        return f"{seat_name(o.get('from'), players)} gives {cards_text(o.get('cards'))} to {seat_name(o.get('to'), players)} ({o.get('rule')})"
    if kind == "discard":
        return f"{seat_name(o.get('seat'), players)} discards {cards_text(o.get('cards'))} ({o.get('rule')})"
    if kind == "take":
        return f"{seat_name(o.get('seat'), players)} takes {cards_text(o.get('cards'))} ({o.get('rule')})"
    if kind == "skip":
        return "skipped: " + ", ".join(seat_name(s, players) for s in o.get("seats", []))
    if kind == "play_starts":
        return f"play starts, {seat_name(o.get('leader'), players)} leads"
    if kind == "combo":
        return f"{seat_name(o.get('seat'), players)} plays on (combo)"
    if kind == "decline":
        return f"{seat_name(o.get('seat'), players)} declines ({o.get('rule')})"
    if kind == "request":
        held = "held" if o.get("held") else "not held"
        return f"{seat_name(o.get('seat'), players)} requests rank {o.get('rank')} ({held})"
    if kind == "abort":
        places = ", ".join(f"{seat_name(p.get('seat'), players)} {ordinal(p.get('place'))}" for p in o.get("places", []))
        return f"{o.get('passes')} passes in a row: the deal is aborted ({o.get('rule')}); {places}"
    return f"{kind}: {json.dumps({k: v for k, v in o.items() if k != 'kind'}, ensure_ascii=False)}"
