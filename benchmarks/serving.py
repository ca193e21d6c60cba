"""`referee serve` for the HTTP benchmarks (api.py, load.py): started on a free port, waited for until it answers."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
# one address at full speed: the rate limits (docs/limits.md) would measure themselves
NO_RATE_LIMITS = {"REFEREE_RATE_CREATE_PER_ADDRESS": "0", "REFEREE_RATE_MOVES_PER_TOKEN": "0",
                  "REFEREE_RATE_MOVES_PER_ADDRESS": "0"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_serve(port: int, data_dir: str, redis_url: str | None = None, **env: str) -> subprocess.Popen:
    """``referee serve`` in a session of its own (stop it with ``os.killpg``), without rate limits."""
    environ = dict(os.environ, REFEREE_DATA_DIR=data_dir, PYTHONPATH=str(ROOT), **NO_RATE_LIMITS, **env)
    environ.pop("REDIS_URL", None)
    if redis_url:
        environ["REDIS_URL"] = redis_url
    return subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)], env=environ, cwd=str(ROOT),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def wait_healthy(base: str, proc: subprocess.Popen | None = None, timeout: float = 60.0) -> None:
    """Until ``base`` answers /healthz; ``proc`` (the serve started here, if any) must not exit meanwhile."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"referee serve exited with {proc.returncode}")
        try:
            if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{base} did not answer /healthz within {timeout:.0f} s")
