"""run_bot: answer every turn a registered bot owes with what ``policy`` chooses."""
from __future__ import annotations

import logging
import random
import uuid
from typing import Callable

from .client import Referee
from .errors import RefereeError
from .models import Turn

log = logging.getLogger("referee_client")
Policy = Callable[[Turn], dict]


def concrete(entry: dict, rng: random.Random | None = None) -> dict:
    """A move the referee accepts from a legal-moves entry: a ``choose`` entry gets a valid random choice."""
    if "choose" not in entry:
        return {k: v for k, v in entry.items() if k not in ("effects", "kinds", "forbidden_finish")}
    c, rng = entry["choose"], rng or random.Random(0)
    limit = c.get("limit") or {"cards": [], "max": 0}
    capped, room, want, chosen = set(limit["cards"]), limit["max"], rng.randint(c["min"], c["max"]), []
    for card in rng.sample(c["from"], len(c["from"])):
        if len(chosen) == want:
            break
        if card in capped:
            if room == 0:
                continue
            room -= 1
        chosen.append(card)
    return {"seat": entry["seat"], "action": entry["action"], "cards": list(entry.get("cards", [])) + chosen}


def first_legal(turn: Turn) -> dict:
    """The simplest policy: the first legal move served."""
    return concrete(turn.legal_moves.moves[0])


def run_bot(token: str, policy: Policy = first_legal, base_url: str = "http://127.0.0.1:8000",
            client: Referee | None = None, should_stop=lambda: False) -> None:
    """Play every turn the bot owes, in every game, until ``should_stop()``. Each answer is sent with
    ``expected_seq`` and an Idempotency-Key naming the turn, so a retried or repeated answer applies at most once.
    A policy that fails or picks an illegal move is covered by the first legal move."""
    ref = client or Referee(base_url)
    for turn in ref.turns(token, should_stop=should_stop):
        try:
            move = policy(turn)
        except Exception:  # noqa: BLE001 - a broken policy must not lose the game: fall back
            log.exception("policy failed on %s; playing the first legal move", turn.id)
            move = first_legal(turn)
        try:
            judged = _send(ref, token, turn, move, f"turn-{turn.id}")
            if not judged.verdict.legal:
                log.warning("%s: %s; playing the first legal move", turn.id, judged.verdict.message)
                _send(ref, token, turn, first_legal(turn), f"turn-{turn.id}-fallback")
        except RefereeError as exc:
            if exc.code not in ("stale_seq", "unknown_game"):  # the game moved on or is gone: nothing owed
                log.warning("%s: %s", turn.id, exc)
        if should_stop():
            return


def _send(ref: Referee, token: str, turn: Turn, move: dict, key: str):
    """Answer ``turn`` under ``key``; a key this token already used for another answer (a restarted bot whose
    policy chose otherwise) is retried once under a fresh key: ``expected_seq`` still makes it apply at most once."""
    try:
        return ref.move(turn.game_id, token, move, expected_seq=turn.seq, idempotency_key=key)
    except RefereeError as exc:
        if exc.code != "idempotency_key_reused":
            raise
        log.info("%s: key %s was used for another answer; sending under a fresh key", turn.id, key)
        return ref.move(turn.game_id, token, move, expected_seq=turn.seq, idempotency_key=f"{key}-{uuid.uuid4().hex}")
