"""A small Python client for the Daifugō referee's HTTP API. It imports nothing of the server.

    from referee_client import Referee, run_bot
"""
from .bot import Report, arun_bot, concrete, first_legal, run_bot
from .client import Referee
from .errors import RefereeError
from .models import BotAccount, BotEvent, CreatedGame, Judged, LegalMoves, SeqState, Turn, Verdict

__all__ = ["Referee", "RefereeError", "run_bot", "arun_bot", "Report", "concrete", "first_legal", "BotAccount",
           "BotEvent", "CreatedGame", "Judged", "LegalMoves", "SeqState", "Turn", "Verdict"]
