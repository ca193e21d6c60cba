"""Bearer tokens: random, handed out once, stored only as SHA-256 hashes."""
from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token(kind: str) -> str:
    return f"{kind}_{secrets.token_urlsafe(24)}"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str, hashed: str) -> bool:
    return hmac.compare_digest(digest(token), hashed)
