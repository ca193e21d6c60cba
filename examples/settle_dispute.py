"""A table app settles a dispute: is this play legal on the table as the app holds it? Nothing is stored.

    REFEREE_URL=http://127.0.0.1:8000 python examples/settle_dispute.py
"""
import os

from referee_client import Referee

ref = Referee(os.environ.get("REFEREE_URL", "http://127.0.0.1:8000"))
# the app's own copy of the table: here, the state a new game shows its table token
game = ref.create_game(["Ann", "Ben", "Cho", "Dai"], preset="uecda", seed=7)
state = game.state
lead = next(p for p in state["players"] if p.get("hand"))  # any seat holding cards
seat = state["players"].index(lead)
claim = {"seat": seat, "action": "play", "cards": lead["hand"][:1]}
answer = ref.judge_detached(state, claim, preset="uecda")
print("legal" if answer.verdict.legal else f"not legal: {answer.verdict.message}")
