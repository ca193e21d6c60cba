"""A registered bot in ten lines: plays a random legal move in every game it is seated in.

    REFEREE_URL=http://127.0.0.1:8000 BOT_TOKEN=bot_… python examples/random_bot.py
"""
import os
import random

from referee_client import concrete, run_bot


def policy(turn):
    return concrete(random.choice(turn.legal_moves.moves))


run_bot(os.environ["BOT_TOKEN"], policy, base_url=os.environ.get("REFEREE_URL", "http://127.0.0.1:8000"))
