"""The `random` bot: a uniformly random legal entry; a choose entry gets a random valid choice of cards."""
from __future__ import annotations

import random

from referee import instantiate


def choose(view: dict, legal: list[dict], rng: random.Random, history=None, forbidden_last=()) -> dict:
    return instantiate(rng.choice(legal), rng)
