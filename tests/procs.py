"""Real processes for fault tests: `referee serve`, gunicorn, workers, redis-server; waits with deadlines."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import requests


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(check, timeout: float, what: str, every: float = 0.05):
    """Poll ``check()`` until it returns something truthy; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = check()
            if value:
                return value
        except Exception as exc:  # noqa: BLE001 - keep polling; report the last failure
            last_error = exc
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}" + (f" (last: {last_error!r})" if last_error else ""))


def answers(base: str) -> bool:
    """The server at ``base`` answers ``GET /healthz`` with a 200 (within 2 s)."""
    try:
        return requests.get(f"{base}/healthz", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def children(pid: int) -> list[int]:
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                out += [int(p) for p in fh.read().split()]
    except OSError:
        pass
    return out


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def child_matching(pid: int, needle: str) -> int | None:
    for child in children(pid):
        if needle in cmdline(child) and alive(child):
            return child
    return None


def kill9(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


def serve_env(data_dir: str | None = None, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "REDIS_CLUSTER_NODES", "PROMETHEUS_MULTIPROC_DIR")}
    if data_dir:
        env["REFEREE_DATA_DIR"] = str(data_dir)
    env.update({k: str(v) for k, v in extra.items() if v is not None})
    return env


class Serve:
    """`python -m cli serve` on a free port; its stderr goes to a file the test can read."""

    def __init__(self, env: dict, log_path, *args: str):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = str(log_path)
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(self.port), *args], env=env,
                                     stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def text(self) -> str:
        with open(self.log_path, errors="replace") as fh:
            return fh.read()

    def healthy(self, timeout: float = 40.0) -> "Serve":
        def ok():
            assert self.proc.poll() is None, f"serve exited with {self.proc.returncode}: {self.text()[-2000:]}"
            try:
                return requests.get(f"{self.base}/healthz", timeout=2).status_code == 200
            except requests.RequestException:
                return False
        wait_until(ok, timeout, "serve to answer /healthz 200")
        wait_until(lambda: "Ctrl-C to stop" in self.text(), timeout, "serve's start block")
        return self

    def child(self, needle: str, timeout: float = 30.0) -> int:
        return wait_until(lambda: child_matching(self.pid, needle), timeout, f"a child of serve running {needle!r}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                for pid in descendants(self.pid):
                    try:
                        kill9(pid)
                    except ProcessLookupError:
                        pass
                self.proc.kill()
                self.proc.wait()
        self.log.close()
