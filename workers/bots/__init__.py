"""Bot strategies. A bot sees only its seat's view and the engine's legal moves.

Interface: ``choose(view: dict, legal: list[dict], rng: random.Random) -> dict``,
returning one of ``legal`` (the engine computes legality, the bot only chooses).
"""
from __future__ import annotations

from . import random_bot

STRATEGIES = {
    "random": random_bot.choose,
}


def names() -> list[str]:
    return sorted(STRATEGIES)


def get(name: str):
    return STRATEGIES[name]
