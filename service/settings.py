"""Service settings, read from the environment once per app or worker.

Every numeric setting below is read from ``REFEREE_<NAME>`` (e.g. ``REFEREE_GAME_TTL_S``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields


MC_DEFAULT_BUDGET_MS = 200.0  # workers/bots/mc.py's default (a test checks they agree): the service cannot import it


@dataclass(frozen=True)
class Settings:
    redis_url: str | None
    data_dir: str
    key_prefix: str
    queue_name: str
    storage_label: str | None = None  # what /healthz reports; set by `serve` for its children
    redis_cluster_nodes: str | None = None  # host:port[,…]: games live in this Redis Cluster, REDIS_URL has the queue
    appendfsync: str = "everysec"  # the embedded Redis's fsync policy (docs/deploy.md)
    # the key of served games' seeds (service/seeds.py); unset: <data_dir>/seed.secret. Never in a repr or a log
    seed_secret: str | None = field(default=None, repr=False)
    # durability of bot turns (docs/store.md)
    reaper_interval_s: float = 2.0      # how often every `referee worker` looks for owed bot turns without a live job
    reaper_grace_s: float = 5.0         # an owed turn younger than this is left to the process that appended it
    bot_max_retries: int = 5            # retries of one bot turn before the reaper gives up on it (and logs it)
    # registered bots' time per move (docs/remote-bots.md); a game may set its own budget up to the cap
    bot_budget_ms: int = 10_000         # a game's default per-move budget of its registered bot seats
    bot_budget_max_ms: int = 300_000    # the largest budget a game may set (400 bad_bot_budget above it)
    bot_away_after: int = 3             # a game's default: fallback moves in a row that mark a registered seat away
    challenge_timeout_s: float = 60.0   # a challenge a bot answers by hand is void after this long unanswered
    deadline_poll_s: float = 0.05       # how often every `referee worker` looks for registered bots' deadlines
    # retention and limits of what a game stores
    game_ttl_s: int = 7 * 24 * 3600     # a game nobody moved in this long expires (refreshed on each write)
    game_ttl_over_s: int = 24 * 3600    # ... and this long after its deal is over (a new deal restores the above)
    audit_max: int = 1000               # rejected proposals kept per game (XADD MAXLEN ~)
    idempotency_keys: int = 200         # Idempotency-Key answers kept per token of a game (its oldest are dropped)
    snapshot_every: int = 200           # a replay snapshot each time a game's seq crosses a multiple of this (0: none)
    # the searching bots (`mc`, `policy_mc`) in served games (None: their defaults, 200 ms and 400 playouts per decision)
    mc_budget_ms: float | None = None
    mc_playouts: int | None = None
    # bot seats under load (docs/deploy.md "Bot workers")
    bot_workers: int = 0                # bot worker processes `referee serve` starts (0: one per CPU core)
    bots_busy_wait_s: float = 0.2       # new games with bot seats get 503 bots_busy while owed turns wait longer
    bot_workers_started: int = 0        # set by `referee serve` for its children: the gate counts them while they register
    http_nice: int = 5                  # the API processes run this much nicer than the bot workers (0: as nice)
    # test hook: sleep this long between a proposal's append and the enqueue (or deadline) of the bot turn it made owed
    fault_pause_after_append_s: float = 0.0
    # --- limits (docs/limits.md); a rate of 0 turns that limit off ---
    max_body_bytes: int = 1_048_576      # larger bodies get 413 body_too_large
    max_json_depth: int = 32             # deeper JSON gets 400 json_too_deep
    max_string_chars: int = 1000         # any JSON string but a record's text
    max_record_chars: int = 1_000_000    # the text of an imported record
    max_name_chars: int = 40             # a player's name (printable, one line)
    max_url_chars: int = 4096            # longer path+query gets 414 url_too_long
    rate_window_s: int = 60              # the rate limits count per window
    rate_create_per_address: int = 120   # POST /v1/games and POST …/deals per client address
    rate_record_bytes: int = 16_384      # a record import counts one more create per started this many body bytes
    rate_moves_per_token: int = 600      # moves and what-ifs per bearer token
    rate_moves_per_address: int = 3000   # moves and judging per client address
    trusted_proxies: int = 0             # X-Forwarded-For hops to trust for the address
    sse_max_streams: int = 16            # open event streams per API process, bots' streams included (503 beyond)
    sse_bot_streams: int = 4             # more stream slots per API process that only bots' streams may take
    sse_streams_per_token: int = 4       # open streams per bearer token and API process (429 beyond)
    sse_streams_per_address: int = 8     # open streams per client address and API process (429 beyond)
    bot_registration: int = 1            # 0: POST /v1/bots is refused (403 bot_registration_closed)
    rate_bots_per_address: int = 10      # POST /v1/bots per client address
    http_threads: int = 8                # gunicorn threads kept for everything but streams
    request_read_timeout_s: float = 30.0  # a request's headers and body must arrive whole within this (408 beyond)
    redis_maxmemory_mb: int = 1024       # the embedded Redis's maxmemory, policy noeviction (0: unbounded)
    storage_full_fraction: float = 0.9   # above this share of maxmemory: 507 storage_full on anything new (0: off)
    storage_cap_mb: int = 0              # the limit that share counts against on a Redis without maxmemory (0: none)
    bot_idle_ttl_s: int = 90 * 24 * 3600  # a registered bot unused this long expires, name and token too (0: never)

    @property
    def mc_turn_budget_ms(self) -> float:
        """A searching seat's (`mc`, `policy_mc`) budget per turn in served games: the setting, else the bots' default."""
        return self.mc_budget_ms if self.mc_budget_ms is not None else MC_DEFAULT_BUDGET_MS

    @property
    def gunicorn_threads(self) -> int:
        """Streams hold a thread each: the caps' worth on top of the threads for ordinary requests."""
        return self.http_threads + self.sse_max_streams + self.sse_bot_streams

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        env = os.environ.get
        values: dict[str, object] = dict(
            redis_url=env("REDIS_URL") or None,
            data_dir=env("REFEREE_DATA_DIR", "./.referee-data"),
            key_prefix=env("REFEREE_KEY_PREFIX", "referee"),
            queue_name=env("REFEREE_QUEUE", "referee-bots"),
            storage_label=env("REFEREE_STORAGE") or None,
            redis_cluster_nodes=env("REDIS_CLUSTER_NODES") or None,
            appendfsync=env("REFEREE_APPENDFSYNC", "everysec"),
            seed_secret=env("REFEREE_SEED_SECRET") or None,
        )
        for f in fields(cls):
            kind = _NUMBER_KINDS.get(f.name) or type(f.default)
            if kind not in (int, float):
                continue
            var = f"REFEREE_{f.name.upper()}"
            raw = env(var)
            if raw in (None, ""):
                continue
            try:
                values[f.name] = kind(float(raw)) if kind is int else kind(raw)
            except ValueError:
                raise ValueError(f"{var}={raw!r} is not a number") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]  # each value read as its field's kind above


_NUMBER_KINDS = {"mc_budget_ms": float, "mc_playouts": int}  # settings whose default (None) says nothing of the kind
