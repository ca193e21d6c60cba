"""Served games deal from the caller's seed keyed with the server's secret, so a seed reveals no deck.

The engine shuffles deal k of a game from ``daifugo:<seed>:k`` with public code (referee/deals.py): a seed that
can be guessed is a deck anyone can compute, and a seat that sees only its own hand finds a small seed by trying
them all. A served game is therefore dealt from ``HMAC-SHA256(secret, caller's seed)``, cut to 63 bits, instead of
the caller's seed itself. The same caller's seed on servers with the same secret deals the same hands (a replay
is reproducible there); without the secret nobody can compute a deck from a seed. The keyed seed is what the
table sees in the state, the ``game_created`` event and a record (so a record still replays anywhere); a seat
never sees either seed (referee/state_fields.py, referee/serialize.py ``redact_event``).

63 bits: the keyed seed is an int64 for every client of the state JSON (openapi.yaml, orjson's fast path); a
JavaScript Number holds it only approximately, which nothing but a record needs, and records are written here.
Trying every 63-bit seed is out of reach, and the secret is not guessable at all.

The secret is ``REFEREE_SEED_SECRET`` if set (the same on every server that must deal alike), else 32 random bytes
in ``<data dir>/seed.secret``, created 0600 by the first process that starts on the directory and read by every
other one (``referee serve`` creates it before starting its children, and gives them the same data directory).
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import stat
import time
from functools import lru_cache

from .settings import Settings

log = logging.getLogger(__name__)
SECRET_FILE = "seed.secret"
SECRET_BYTES = 32
MIN_SETTING_CHARS = 32  # REFEREE_SEED_SECRET: e.g. `openssl rand -hex 32`
SEED_BITS = 63
WRITER_WAIT_S = 5.0  # how long a process that lost the race to create the file waits for the winner's bytes


def key_seed(secret: bytes, seed: int) -> int:
    """The seed the engine deals from for a caller's ``seed``: HMAC-SHA256(secret, seed), its first 63 bits.

    >>> key_seed(b"k" * 32, 1) == key_seed(b"k" * 32, 1) != key_seed(b"j" * 32, 1)
    True
    """
    mac = hmac.new(secret, f"daifugo-referee seed:{seed}".encode(), hashlib.sha256).digest()
    return int.from_bytes(mac[:8], "big") >> (64 - SEED_BITS)


def engine_seed(settings: Settings, seed: int | None) -> int | None:
    """What a served game created with the caller's ``seed`` is dealt from (None stays None: every deal is then
    shuffled from a fresh secret seed). A service with neither a secret nor a data directory (DEFAULT_SETTINGS: the
    UECda server, which deals its own hands, and unit tests) keeps the caller's seed."""
    if seed is None or isinstance(seed, bool) or not isinstance(seed, int):
        return seed  # the engine refuses it (bad_seed)
    secret = secret_for(settings)
    return seed if secret is None else key_seed(secret, seed)


def secret_for(settings: Settings) -> bytes | None:
    """The server's seed secret (read once per process), or None for a service with no data directory."""
    if not settings.seed_secret and not settings.data_dir:
        return None
    return _load_once(settings.seed_secret, settings.data_dir)


def describe(settings: Settings) -> str:
    """Where the seed secret comes from, for `serve`'s start block (never the secret itself)."""
    if settings.seed_secret:
        return "REFEREE_SEED_SECRET"
    return os.path.join(os.path.realpath(settings.data_dir), SECRET_FILE)


@lru_cache(maxsize=8)
def _load_once(setting: str | None, data_dir: str) -> bytes:
    return load_secret(setting, data_dir)


def load_secret(setting: str | None, data_dir: str) -> bytes:
    """The secret: ``setting`` (REFEREE_SEED_SECRET) if given, else ``<data_dir>/seed.secret``, made if missing."""
    if setting:
        if len(setting) < MIN_SETTING_CHARS:
            raise ValueError(f"REFEREE_SEED_SECRET has {len(setting)} characters; it needs at least "
                             f"{MIN_SETTING_CHARS} (e.g. `openssl rand -hex 32`)")
        return setting.encode()
    return read_or_create(os.path.join(os.path.realpath(data_dir), SECRET_FILE))


def read_or_create(path: str) -> bytes:
    """The secret in ``path``; if there is none, 32 random bytes written there first (mode 0600).

    Several processes may start at once (gunicorn's workers): the file is created with O_EXCL, so exactly one of
    them writes it, and the others re-read it until the winner's bytes are all there."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    deadline = time.monotonic() + WRITER_WAIT_S
    while True:
        try:
            return _create(path)
        except FileExistsError:
            pass
        try:
            with open(path, "rb") as fh:
                secret = fh.read()
                mode = os.fstat(fh.fileno()).st_mode
        except FileNotFoundError:
            continue  # its writer failed and removed it: try to create it again
        if len(secret) >= SECRET_BYTES:
            if mode & (stat.S_IRWXG | stat.S_IRWXO):
                log.warning("%s may be read by other users (mode %o): chmod 600 it", path, stat.S_IMODE(mode))
            return secret
        if time.monotonic() > deadline:
            raise RuntimeError(f"{path} holds {len(secret)} bytes, not {SECRET_BYTES}: a first start that died "
                               "while writing it? No game was dealt from it: remove it and start again")
        time.sleep(0.01)


def _create(path: str) -> bytes:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    secret = secrets.token_bytes(SECRET_BYTES)
    try:
        if os.write(fd, secret) != len(secret):
            raise OSError(f"short write to {path}")
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(path)  # no half-written secret for the next start: whoever comes next creates it whole
        raise
    os.close(fd)
    return secret
