"""Idempotency-Key answers, kept per (game, token).

A key names one proposal of one token: the same key sent with another token is another key, so no co-player can
store an answer under the key a bot will use next, nor push someone else's answers out of the window. The stored
digest is ``<owner>:<sha-256 of owner and key>``, ``owner`` being 16 hex digits of the token's hash; the store's
window (service/store.py ``remember``) counts each owner's answers apart by that prefix.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from .errors import ApiError
from .tokens import digest as token_digest

MAX_KEY_CHARS = 255
OWNER_CHARS = 16


@dataclass(frozen=True)
class IdempotencyKey:
    digest: str       # what the store keeps the answer under
    fingerprint: str  # the request the key was first used for: a retry must send the same one


def idempotency_key(key: str, token: str, move: dict, expected_seq: int | None) -> IdempotencyKey:
    """The stored identity of ``key`` sent with ``token`` for ``move`` (400 ``bad_idempotency_key`` if malformed)."""
    if not key or len(key) > MAX_KEY_CHARS or not all(" " <= c <= "~" for c in key):
        raise ApiError(f"an Idempotency-Key is 1 to {MAX_KEY_CHARS} printable ASCII characters",
                       code="bad_idempotency_key")
    owner = token_digest(token)[:OWNER_CHARS]
    keyed = hashlib.sha256(f"{owner}:{key}".encode()).hexdigest()
    request = json.dumps([move, expected_seq], sort_keys=True, separators=(",", ":"), default=str)
    return IdempotencyKey(f"{owner}:{keyed}", hashlib.sha256(request.encode()).hexdigest())


def check_same_request(prior: dict, key: IdempotencyKey) -> None:
    if prior.get("fp") != key.fingerprint:
        raise ApiError("this Idempotency-Key was already used by this token in this game for a different request "
                       "(another body or expected_seq); use a new key", code="idempotency_key_reused", status=422)
