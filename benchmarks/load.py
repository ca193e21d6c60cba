"""Load benchmark: whole games played by N client threads against a running `referee serve`.

Each client thread plays one game after another, cycling through three kinds: ``human`` (four human seats, the
client plays every move), ``mixed`` (seat 0 human, three bots) and ``bot`` (four bots; the client only watches);
the bots are `mc`, or ``--bot``'s strategy. New games start for --seconds; then the clients finish the games they
hold (at most --drain seconds more), so every game that started within the run has had the time to finish. A
create answered 503 `bots_busy` is counted as refused (not started) and retried after its Retry-After.

Reports requests/s over the run, p50/p99 per request kind, errors, games started/finished per kind, and the
bot-turn latency (from the write that made a bot's turn owed to the bot's move applied, queueing included)
p50/p99 from the service's own histogram (`referee_bot_turn_latency_seconds` in /metrics, before and after
the run, interpolated within buckets), and the largest bot queue depth seen.

Starts `referee serve` as the README does (embedded store under a temporary data dir, rate limits off: one
address sends everything) unless --url names a running one.

    python benchmarks/load.py [--clients 16,64] [--seconds 45] [--drain 60] [--url URL] [--preset uecda] [--bot mc]
"""
from __future__ import annotations

import argparse
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import requests  # noqa: E402
from referee import instantiate  # noqa: E402
from referee.compiled import build  # noqa: E402

from benchmarks.serving import free_port, start_serve, wait_healthy  # noqa: E402

KINDS = ("human", "mixed", "bot")
BOT_POLL_S = 0.5  # a client waiting on bot seats looks again this often
LATENCY = "referee_bot_turn_latency_seconds"
QUEUED = "referee_bot_job_wait_seconds"


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.started: dict[str, int] = defaultdict(int)
        self.finished: dict[str, int] = defaultdict(int)
        self.refused = 0
        self.requests = 0

    def timed(self, kind: str, session: requests.Session, method: str, url: str, **kw):
        t0 = time.perf_counter()
        try:
            r = session.request(method, url, timeout=60, **kw)
        except requests.RequestException as exc:
            with self.lock:
                self.errors[f"{kind}: {type(exc).__name__}"] += 1
            return None
        with self.lock:
            self.latency[kind].append(time.perf_counter() - t0)
            self.requests += 1
        return r

    def error(self, kind: str, r) -> None:
        code = ""
        try:
            code = r.json()["error"]["code"]
        except Exception:  # noqa: BLE001 - any body will do for the tally
            pass
        with self.lock:
            self.errors[f"{kind}: {r.status_code} {code}".strip()] += 1


class Client:
    def __init__(self, base: str, preset: str, tally: Tally, start_until: float, stop_at: float, seed: int,
                 bot: str = "mc"):
        self.base, self.preset, self.tally, self.bot = base, preset, tally, bot
        self.start_until, self.stop_at = start_until, stop_at
        self.s = requests.Session()
        self.rng = random.Random(seed)

    def run(self, first: int) -> None:
        n = first
        while time.monotonic() < self.start_until:
            kind = KINDS[n % len(KINDS)]
            n += 1
            game = self.create(kind)
            if game is None:
                continue
            with self.tally.lock:
                self.tally.started[kind] += 1
            if self.play(game, kind):
                with self.tally.lock:
                    self.tally.finished[kind] += 1

    def create(self, kind: str) -> dict | None:
        bots = {"human": (), "mixed": (1, 2, 3), "bot": (0, 1, 2, 3)}[kind]
        players = [{"name": f"p{i}", **({"bot": self.bot} if i in bots else {})} for i in range(4)]
        body = {"preset": self.preset, "seed": self.rng.randrange(1 << 30), "players": players}
        r = self.tally.timed("create", self.s, "POST", f"{self.base}/v1/games", json=body)
        if r is None:
            return None
        if r.status_code == 201:
            return dict(r.json(), bots=bots)
        if r.status_code == 503 and r.headers.get("Retry-After"):
            with self.tally.lock:
                self.tally.refused += 1
            time.sleep(min(float(r.headers["Retry-After"]), max(0.0, self.start_until - time.monotonic())))
            return None
        self.tally.error("create", r)
        time.sleep(0.5)
        return None

    def play(self, game: dict, kind: str) -> bool:
        """Play the human seats until nobody can act (True) or the run ends (False)."""
        url = f"{self.base}/v1/games/{game['game_id']}"
        auth = {"Authorization": f"Bearer {game['table_token']}"}
        bots = game["bots"]
        while time.monotonic() < self.stop_at:
            r = self.tally.timed("legal", self.s, "GET", f"{url}/legal-moves?seat=0", headers=auth)
            if r is None or r.status_code != 200:
                if r is not None:
                    self.tally.error("legal", r)
                time.sleep(0.2)
                continue
            probe = r.json()
            humans = [s for s in probe["actors"] if s not in bots]
            if not probe["actors"]:
                return True
            if not humans:
                time.sleep(BOT_POLL_S)
                continue
            seat = humans[0]
            if seat != 0:
                r = self.tally.timed("legal", self.s, "GET", f"{url}/legal-moves?seat={seat}", headers=auth)
                if r is None or r.status_code != 200:
                    continue
                probe = r.json()
            if not probe["moves"]:
                continue
            move = dict(instantiate(self.rng.choice(probe["moves"]), self.rng), expected_seq=probe["seq"])
            r = self.tally.timed("move", self.s, "POST", f"{url}/moves", json=move, headers=auth)
            if r is not None and r.status_code not in (200, 409):  # 409: a bot acted first; look again
                self.tally.error("move", r)
        return False


def histograms(base: str) -> dict[str, dict[float, float]]:
    text = requests.get(f"{base}/metrics", timeout=30).text
    return {name: histogram(text, name) for name in (LATENCY, QUEUED)}


def histogram(text: str, name: str) -> dict[float, float]:
    """The cumulative bucket counts of histogram ``name`` in a /metrics text, summed over processes."""
    out: dict[float, float] = defaultdict(float)
    for m in re.finditer(rf'^{name}_bucket{{[^}}]*le="([^"]+)"[^}}]*}} (\S+)$', text, re.M):
        out[float(m.group(1))] += float(m.group(2))
    return dict(out)


def queue_depth(base: str) -> float:
    m = re.search(r"^referee_bot_queue_depth (\S+)$", requests.get(f"{base}/metrics", timeout=30).text, re.M)
    return float(m.group(1)) if m else 0.0


def quantile(buckets: dict[float, float], q: float) -> float | None:
    """Quantile ``q`` of a cumulative histogram, linear within a bucket (the last finite bound past it)."""
    bounds = sorted(buckets)
    total = buckets[bounds[-1]] if bounds else 0
    if total <= 0:
        return None
    want, below, prev_bound = q * total, 0.0, 0.0
    for b in bounds:
        if buckets[b] >= want:
            if b == float("inf"):
                return prev_bound
            share = (want - below) / max(buckets[b] - below, 1e-9)
            return prev_bound + share * (b - prev_bound)
        below, prev_bound = buckets[b], b
    return prev_bound


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def run(base: str, clients: int, seconds: float, drain: float, preset: str, bot: str = "mc") -> dict:
    tally = Tally()
    before = histograms(base)
    t0 = time.monotonic()
    start_until, stop_at = t0 + seconds, t0 + seconds + drain
    depths: list[float] = []
    done = threading.Event()

    def watch():
        while not done.is_set():
            try:
                depths.append(queue_depth(base))
            except requests.RequestException:
                pass
            done.wait(1.0)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    threads = [threading.Thread(target=Client(base, preset, tally, start_until, stop_at, seed=i, bot=bot).run,
                                args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    done.set()
    watcher.join()
    after = histograms(base)
    delta, queued = ({b: after[n].get(b, 0) - before[n].get(b, 0) for b in after[n]} for n in (LATENCY, QUEUED))
    return {"clients": clients, "wall": wall, "tally": tally, "bot_p50": quantile(delta, 0.5),
            "bot_p99": quantile(delta, 0.99), "bot_turns": delta.get(float("inf"), 0), "max_depth": max(depths or [0]),
            "queued_p50": quantile(queued, 0.5), "queued_p99": quantile(queued, 0.99)}


def report(res: dict) -> str:
    t: Tally = res["tally"]
    started, finished = sum(t.started.values()), sum(t.finished.values())
    ms = lambda v: "–" if v is None else f"{v * 1000:.0f} ms"  # noqa: E731
    lines = [f"## {res['clients']} clients: {res['wall']:.0f} s (start window + drain), "
             f"{t.requests / res['wall']:.0f} req/s, {t.refused} creates refused (503 bots_busy)",
             "", "| request | count | p50 | p99 |", "|---|---|---|---|"]
    for kind in ("create", "legal", "move"):
        xs = t.latency.get(kind, [])
        lines.append(f"| {kind} | {len(xs)} | {pct(xs, 0.5) * 1000:.1f} ms | {pct(xs, 0.99) * 1000:.1f} ms |")
    lines += ["", "| games | started | finished |", "|---|---|---|"]
    for kind in KINDS:
        lines.append(f"| {kind} | {t.started[kind]} | {t.finished[kind]} |")
    share = f"{100 * finished / started:.0f}%" if started else "–"
    lines += [f"| all | {started} | {finished} ({share}) |", "",
              f"bot turns: {res['bot_turns']:.0f}, latency p50 {ms(res['bot_p50'])}, p99 {ms(res['bot_p99'])}; "
              f"(of which in the queue: p50 {ms(res['queued_p50'])}, p99 {ms(res['queued_p99'])}); "
              f"largest queue depth seen {res['max_depth']:.0f}",
              "errors: " + (", ".join(f"{k} ×{v}" for k, v in sorted(t.errors.items())) or "none")]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", default="16,64", help="comma-separated client thread counts, one run each")
    ap.add_argument("--seconds", type=float, default=45.0, help="new games start during this long")
    ap.add_argument("--drain", type=float, default=60.0, help="then the games held may finish for this long")
    ap.add_argument("--preset", default="uecda")
    ap.add_argument("--bot", default="mc", help="the bot seats' strategy (mc, policy_mc, ...)")
    ap.add_argument("--url", default=None, help="a running `referee serve` (default: start one)")
    args = ap.parse_args()
    print(f"engine: {build()[1]}", flush=True)
    proc, base = None, args.url
    if base is None:
        port = free_port()
        proc = start_serve(port, tempfile.mkdtemp(prefix="referee-load-"))
        base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc)
        for n in (int(x) for x in args.clients.split(",")):
            print(report(run(base, n, args.seconds, args.drain, args.preset, args.bot)), flush=True)
            print(flush=True)
    finally:
        if proc is not None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
