"""The move played for a registered bot seat that did not answer in time (docs/remote-bots.md)."""
from __future__ import annotations

from . import bots
from .bots.observer import ask


def fallback_move(kind: str, state, seat: int, rng, legal: list[dict]) -> dict:
    """``pass`` where a pass is legal, else what the greedy policy plays (``kind`` "greedy": greedy always)."""
    if kind == "pass":
        for move in legal:
            if move["action"] == "pass":
                return {"seat": seat, "action": "pass"}
    return ask(bots.get("greedy"), state, seat, rng, legal=legal)
