"""Service settings, read from the environment once per app or worker."""
from __future__ import annotations

import os
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Settings:
    redis_url: str | None
    data_dir: str
    key_prefix: str
    queue_name: str
    storage_label: str | None = None  # what /healthz reports; set by `serve` for its children
    # --- limits (README "Limits and reliability"); a rate of 0 turns that limit off ---
    max_body_bytes: int = 1_048_576      # REFEREE_MAX_BODY_BYTES: larger bodies get 413 body_too_large
    max_json_depth: int = 32             # REFEREE_MAX_JSON_DEPTH: deeper JSON gets 400 json_too_deep
    max_string_chars: int = 1000         # REFEREE_MAX_STRING_CHARS: any JSON string but a record's text
    max_record_chars: int = 1_000_000    # REFEREE_MAX_RECORD_CHARS: the text of an imported record
    max_name_chars: int = 40             # REFEREE_MAX_NAME_CHARS: a player's name (printable, one line)
    max_url_chars: int = 4096            # REFEREE_MAX_URL_CHARS: longer path+query gets 414 url_too_long
    rate_window_s: int = 60              # REFEREE_RATE_WINDOW_S: the rate limits count per window
    rate_create_per_address: int = 120   # REFEREE_RATE_CREATE_PER_ADDRESS: POST /v1/games per client address
    rate_moves_per_token: int = 600      # REFEREE_RATE_MOVES_PER_TOKEN: moves and what-ifs per bearer token
    rate_moves_per_address: int = 3000   # REFEREE_RATE_MOVES_PER_ADDRESS: moves and judging per client address
    trusted_proxies: int = 0             # REFEREE_TRUSTED_PROXIES: X-Forwarded-For hops to trust for the address
    sse_max_streams: int = 16            # REFEREE_SSE_MAX_STREAMS: open event streams per API process (503 beyond)
    http_threads: int = 8                # REFEREE_HTTP_THREADS: gunicorn threads kept for everything but streams

    @property
    def gunicorn_threads(self) -> int:
        """Streams hold a thread each: the cap's worth on top of the threads for ordinary requests."""
        return self.http_threads + self.sse_max_streams

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        values = dict(
            redis_url=os.environ.get("REDIS_URL") or None,
            data_dir=os.environ.get("REFEREE_DATA_DIR", "./.referee-data"),
            key_prefix=os.environ.get("REFEREE_KEY_PREFIX", "referee"),
            queue_name=os.environ.get("REFEREE_QUEUE", "referee-bots"),
            storage_label=os.environ.get("REFEREE_STORAGE") or None,
        )
        for f in fields(cls):
            env = f"REFEREE_{f.name.upper()}"
            if f.type == "int" and os.environ.get(env):
                values[f.name] = int(os.environ[env])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)
