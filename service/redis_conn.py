"""Redis connections: the configured server or cluster, or the embedded one (service/embedded.py).

Clients retry a failed command briefly and then raise, so that a request during a storage outage is answered
with 503 storage_unavailable quickly, and reconnect on their own once the server is back.
"""
from __future__ import annotations

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from .embedded import EmbeddedRedis, OwnedElsewhere

# Errors that mean "the storage is not there right now" (BusyLoadingError, a subclass of ConnectionError, is a
# server still reading its append-only file); the API answers them with 503 storage_unavailable.
STORAGE_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, redis.exceptions.ClusterDownError,
                redis.exceptions.TryAgainError, redis.exceptions.MasterDownError, redis.exceptions.ReadOnlyError)


def _retry() -> Retry:
    return Retry(ExponentialBackoff(cap=0.25, base=0.02), 3)


def connect(url: str, decode: bool = True) -> redis.Redis:
    return redis.Redis.from_url(url, decode_responses=decode, retry=_retry(), socket_connect_timeout=2,
                                health_check_interval=15)


def connect_cluster(nodes: str, decode: bool = True):
    """A Redis Cluster client from ``host:port[,host:port…]`` (REDIS_CLUSTER_NODES)."""
    from redis.cluster import ClusterNode, RedisCluster

    startup = []
    for item in nodes.split(","):
        host, _, port = item.strip().rpartition(":")
        startup.append(ClusterNode(host or "127.0.0.1", int(port)))
    return RedisCluster(startup_nodes=startup, decode_responses=decode, socket_connect_timeout=2,
                        retry=_retry(), health_check_interval=15)


def connect_store(settings, fallback_url: str):
    """The connection games live on: the cluster when REDIS_CLUSTER_NODES is set, else ``fallback_url``."""
    if getattr(settings, "redis_cluster_nodes", None):
        return connect_cluster(settings.redis_cluster_nodes)
    return connect(fallback_url)


def decoding(conn: redis.Redis) -> redis.Redis:
    """A client on the same server as ``conn`` that decodes replies (RQ hands out raw ones)."""
    pool = conn.connection_pool
    kwargs = dict(pool.connection_kwargs, decode_responses=True)
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class, **kwargs),
                       retry=_retry())


def start_embedded(data_dir: str, appendfsync: str = "everysec", maxmemory_mb: int = 0) -> EmbeddedRedis:
    """The embedded server of ``data_dir``: joined if a live process owns it, else started and owned by this one."""
    server = EmbeddedRedis(data_dir, appendfsync, maxmemory_mb)
    try:
        server.start()
    except OwnedElsewhere:
        server.wait_ready()
    return server


def embedded_url(server: EmbeddedRedis) -> str:
    return server.url


def stop_embedded(server: EmbeddedRedis) -> None:
    """Stop the server if this process owns it; a joined one is left to its owner."""
    server.stop()
