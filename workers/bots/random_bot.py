"""The `random` bot: a uniformly random legal move."""
from __future__ import annotations

import random


def choose(view: dict, legal: list[dict], rng: random.Random, history=None) -> dict:
    return rng.choice(legal)
