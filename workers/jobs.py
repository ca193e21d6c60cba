"""RQ job: play the bot seats that must act at one seq of one game."""
from __future__ import annotations

import random
from functools import lru_cache

import referee as engine
from rq import get_current_job

from service.errors import NotFound
from service.games import GameService
from service.redis_conn import decoding
from service.scheduler import BotScheduler
from service.settings import Settings
from service.store import GameStore

from . import bots


def play_bot_turn(game_id: str, seq: int, key_prefix: str, queue_name: str) -> dict:
    raw = get_current_job().connection
    settings = Settings.from_env(key_prefix=key_prefix, queue_name=queue_name)
    service = GameService(GameStore.from_settings(decoding(raw), settings), BotScheduler(raw, queue_name, key_prefix))
    return play(service, game_id, seq, strategy=lambda name: _bot(name, settings.mc_budget_ms, settings.mc_playouts))


@lru_cache(maxsize=None)
def _bot(name: str, mc_budget_ms: float | None, mc_playouts: int | None):
    options = {k: v for k, v in (("budget_ms", mc_budget_ms), ("playouts", mc_playouts)) if v is not None}
    return bots.make(name, **options) if name == "mc" and options else bots.get(name)


def play(service: GameService, game_id: str, seq: int, strategy=bots.get) -> dict:
    """Submit one bot move through the same conditional append as any client.

    The bot gets the seat's view, the legal moves and (if it wants it) the seat's redacted log; ``mc`` stops
    searching at its time budget (200 ms by default), so the move is proposed well within budget + 1 s.
    On a seq conflict, re-read: if the game moved on, the applier of the newer
    seq scheduled its own job, so this one only retries while it is still current.
    """
    while True:
        try:
            rec = service.load(game_id)
        except NotFound:
            return {"status": "gone", "seq": seq}  # deleted or expired while the turn waited
        if rec.seq != seq:
            return {"status": "superseded", "seq": rec.seq}
        state = service.state_of(rec)
        seats = [s for s in engine.actors(state) if rec.bots[s]]
        if not seats:
            return {"status": "no_bot_to_act", "seq": seq}
        seat = seats[0]
        view = engine.state_to_json(state, viewer=seat)
        legal = engine.legal_moves(state, seat)
        if not legal:
            return {"status": "no_legal_move", "seq": seq, "seat": seat}
        rng = random.Random(f"{game_id}:{seq}:{seat}")
        bot = strategy(rec.bots[seat])
        if getattr(bots, "wants_history", lambda b: False)(bot):
            # the seat's own redacted log: what it could have seen at the table, nothing more
            history = [engine.redact_event(e, seat) for e in service.store.events(game_id)]
            move = bot(view, legal, rng, history=history)
        else:
            move = bot(view, legal, rng)
        try:
            status, body = service.propose(game_id, move, viewer=seat, expected_seq=seq, rec=rec)
        except Exception as exc:  # noqa: BLE001 - a conflict means: re-read and decide again
            if getattr(exc, "code", None) == "stale_seq":
                continue
            if isinstance(exc, NotFound):
                return {"status": "gone", "seq": seq}
            raise
        return {"status": "applied" if status == 200 else "rejected", "seq": body["seq"], "seat": seat,
                "verdict": body["verdict"]}
