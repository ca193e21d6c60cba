"""Service settings, read from the environment once per app or worker."""
from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    redis_url: str | None
    data_dir: str
    key_prefix: str
    queue_name: str
    storage_label: str | None = None  # what /healthz reports; set by `serve` for its children
    redis_cluster_nodes: str | None = None  # host:port[,…]: games live in this Redis Cluster, REDIS_URL has the queue
    appendfsync: str = "everysec"  # the embedded Redis's fsync policy (docs/deploy.md)

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        values = dict(
            redis_url=os.environ.get("REDIS_URL") or None,
            data_dir=os.environ.get("REFEREE_DATA_DIR", "./.referee-data"),
            key_prefix=os.environ.get("REFEREE_KEY_PREFIX", "referee"),
            queue_name=os.environ.get("REFEREE_QUEUE", "referee-bots"),
            storage_label=os.environ.get("REFEREE_STORAGE") or None,
            redis_cluster_nodes=os.environ.get("REDIS_CLUSTER_NODES") or None,
            appendfsync=os.environ.get("REFEREE_APPENDFSYNC", "everysec"),
        )
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)
