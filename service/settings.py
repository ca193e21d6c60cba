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
    redis_cluster_nodes: str | None = None  # host:port[,…]: games live in this Redis Cluster, REDIS_URL has the queue
    appendfsync: str = "everysec"  # the embedded Redis's fsync policy (docs/deploy.md)
    # durability of bot turns (docs/store.md)
    reaper_interval_s: float = 2.0      # how often every `referee worker` looks for owed bot turns without a live job
    reaper_grace_s: float = 5.0         # an owed turn younger than this is left to the process that appended it
    bot_max_retries: int = 5            # retries of one bot turn before the reaper gives up on it (and logs it)
    # retention and limits of what a game stores
    game_ttl_s: int = 7 * 24 * 3600     # a game nobody moved in this long expires (refreshed on each write)
    game_ttl_over_s: int = 24 * 3600    # ... and this long after its deal is over (a new deal restores the above)
    audit_max: int = 1000               # rejected proposals kept per game (XADD MAXLEN ~)
    idempotency_keys: int = 200         # Idempotency-Key answers kept per game (the oldest are dropped)
    # the `mc` bot in served games (None: its defaults, 200 ms and 400 playouts per decision)
    mc_budget_ms: float | None = None
    mc_playouts: int | None = None
    # test hook: sleep this long between a proposal's append and the enqueue of the bot turn it made owed
    fault_pause_after_append_s: float = 0.0

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        env = os.environ.get
        values = dict(
            redis_url=env("REDIS_URL") or None,
            data_dir=env("REFEREE_DATA_DIR", "./.referee-data"),
            key_prefix=env("REFEREE_KEY_PREFIX", "referee"),
            queue_name=env("REFEREE_QUEUE", "referee-bots"),
            storage_label=env("REFEREE_STORAGE") or None,
            redis_cluster_nodes=env("REDIS_CLUSTER_NODES") or None,
            appendfsync=env("REFEREE_APPENDFSYNC", "everysec"),
        )
        kinds = {"mc_budget_ms": float, "mc_playouts": int} | {f.name: type(f.default) for f in fields(cls)
                                                               if isinstance(f.default, (int, float))}
        for name, var in _NUMERIC.items():
            raw = env(var)
            if raw not in (None, ""):
                kind = kinds[name]
                try:
                    values[name] = kind(float(raw)) if kind is int else kind(raw)
                except ValueError:
                    raise ValueError(f"{var}={raw!r} is not a number") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


_NUMERIC = {
    "reaper_interval_s": "REFEREE_REAPER_INTERVAL_S",
    "reaper_grace_s": "REFEREE_REAPER_GRACE_S",
    "bot_max_retries": "REFEREE_BOT_MAX_RETRIES",
    "game_ttl_s": "REFEREE_GAME_TTL_S",
    "game_ttl_over_s": "REFEREE_GAME_TTL_OVER_S",
    "audit_max": "REFEREE_AUDIT_MAX",
    "idempotency_keys": "REFEREE_IDEMPOTENCY_KEYS",
    "fault_pause_after_append_s": "REFEREE_FAULT_PAUSE_AFTER_APPEND_S",
    "mc_budget_ms": "REFEREE_MC_BUDGET_MS",
    "mc_playouts": "REFEREE_MC_PLAYOUTS",
}
