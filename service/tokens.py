"""Bearer tokens: random, handed out once, stored only as SHA-256 hashes."""
from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token(kind: str) -> str:
    return f"{kind}_{secrets.token_urlsafe(24)}"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matching(token: str, hashes: list[str]) -> int | None:
    """The index of ``token``'s hash among ``hashes`` (hashed once, compared in constant time), else None."""
    mine = digest(token)
    return next((i for i, hashed in enumerate(hashes) if hmac.compare_digest(mine, hashed)), None)
