"""Leagues: a tournament played on a running referee, so that registered bots (``@name``) sit at the table.

    referee tournament --server http://127.0.0.1:8000 --seat @mybot --seat greedy --seat mc --seat random --deals 40

Each match is one game on the server (``POST /v1/games``): a registered bot's seat is ``{"bot": "@name"}`` (its
author's process plays it over the bot's stream), a built-in bot's seat is a worker seat (``random``, ``greedy``,
``mc``: the server's RQ workers play it, with the server's settings, e.g. REFEREE_MC_BUDGET_MS). As in an
in-process tournament the deals are cut into matches of ``match_deals`` deals (``POST …/deals`` starts the next
deal of a match, the exchange carrying over) and match *i* rotates the seats by *i*. The league follows each
game's event stream (table token) until the deal is over, then reads the deal's result from the server: the
places from the game's state, the forbidden finishes from its events. Nothing is computed locally but the
summary (workers/tournament.summarize: mean place with a 95% interval and UECda points, referee/scoring.py), the
fallback moves the server played per seat (``timeout``, ``away``, ``resigned``: read from the events) and each
seat's rating over the league's deals (``league_ratings``: OpenSkill, as the server rates registered bots).

The client speaks plain HTTP (requests): it imports nothing of the service.
"""
from __future__ import annotations

import json
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests
from openskill.models import PlackettLuce

from .tournament import match_seed, progress, summarize

RETRIES = 8  # lost connections and 429/502/503/504 (a busy server): retried after Retry-After, then given up
STREAM_WAIT_S = 20  # the event stream closes after this long without an event; the league reconnects
MAX_NAME = 40
SEED_BITS = 63  # a league's seed and its matches' seeds: int64, and too many to try
FALLBACK_KINDS = ("timeout", "away", "resigned")  # why the server played a registered bot's move (docs/remote-bots.md)


def draw_seed() -> int:
    """A league's seed when none is given: unguessable, so no one can create games with its matches' seeds on the
    server to look their deals up (the server keys a seed with its secret, but deals the same seed alike)."""
    return secrets.randbits(SEED_BITS)


class LeagueError(Exception):
    """A league could not go on: the server refused something, or a deal did not end in time."""


def player_names(seats: list[str]) -> list[str]:
    """The players' names at the table: the seat labels (``@mybot``, ``greedy``), numbered when repeated."""
    out = []
    for i, label in enumerate(seats):
        k = seats[:i].count(label)
        name = label[:MAX_NAME - 3]  # a player's name has at most 40 characters (REFEREE_MAX_NAME_CHARS)
        out.append(name if not k else f"{name} #{k + 1}")
    return out


class Server:
    """The few calls a league makes, with retries on a busy or briefly unreachable server."""

    def __init__(self, base_url: str, session: requests.Session | None = None, timeout: float = 30.0):
        self.base = base_url.rstrip("/")
        self.http = session or requests.Session()
        self.timeout = timeout

    def call(self, method: str, path: str, token: str | None = None, body=None, ok=(200, 201, 204)):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for attempt in range(RETRIES + 1):
            try:
                r = self.http.request(method, self.base + path, json=body, headers=headers, timeout=self.timeout)
            except requests.RequestException as exc:
                # a lost connection is retried; a timeout only for a read (a new game might exist already)
                if attempt == RETRIES or not (isinstance(exc, requests.ConnectionError) or method == "GET"):
                    raise LeagueError(f"{method} {path}: the referee at {self.base} did not answer: {exc}") from None
                time.sleep(min(5.0, 0.2 * 2 ** attempt))
                continue
            if r.status_code in ok:
                return r.json() if r.content else None
            if r.status_code in (429, 502, 503, 504) and attempt < RETRIES:
                time.sleep(_retry_after(r, attempt))
                continue
            raise LeagueError(f"{method} {path}: {r.status_code} {_error_text(r)}")
        raise AssertionError("unreachable")

    def wait_deal_over(self, gid: str, token: str, after: int, deadline: float, stop: threading.Event) -> None:
        """Follow the game's event stream (after ``after``) until an event ends the deal, or ``deadline``."""
        last = after
        while time.monotonic() < deadline:
            if stop.is_set():
                raise LeagueError("stopped")
            if self.call("GET", f"/v1/games/{gid}", token)["phase"] == "deal_over":
                return  # also covers a deal that ended before the stream opened
            wait = max(0.0, min(STREAM_WAIT_S, deadline - time.monotonic()))
            try:
                with self.http.get(f"{self.base}/v1/games/{gid}/stream", params={"after": last, "wait": wait},
                                   headers={"Authorization": f"Bearer {token}"}, stream=True,
                                   timeout=(self.timeout, wait + 30)) as r:
                    if r.status_code != 200:
                        if r.status_code in (429, 503):
                            time.sleep(_retry_after(r, 0))  # no stream slot now: the state check above goes on
                            continue
                        raise LeagueError(f"GET /v1/games/{gid}/stream: {r.status_code} {_error_text(r)}")
                    for event in _sse_events(r):
                        if stop.is_set():
                            raise LeagueError("stopped")
                        if event is None:
                            continue
                        last = max(last, event.get("seq", last))
                        if any(o.get("kind") == "deal_over" for o in event.get("outcome") or ()):
                            return
            except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError):
                time.sleep(0.5)  # the stream broke: look at the state, reconnect from the last event seen


def _sse_events(resp):
    """The data of each message, decoded; None for every other line (comments, keep-alives)."""
    data = []
    for line in resp.iter_lines(decode_unicode=True):
        if line == "" and data:
            try:
                yield json.loads("\n".join(data))
            except ValueError:
                yield None
            data = []
        elif line and line.startswith("data:"):
            data.append(line[5:].lstrip())
        else:
            yield None


def _retry_after(r, attempt: int) -> float:
    try:
        return min(10.0, max(0.1, float(r.headers.get("Retry-After", ""))))
    except ValueError:
        return min(5.0, 0.2 * 2 ** attempt)


def _error_text(r) -> str:
    try:
        err = r.json()["error"]
        return f"{err['code']}: {err['message']}"
    except (ValueError, KeyError, TypeError):
        return r.text[:200]


def play_match(server: Server, task: dict, on_deal=None, stop: threading.Event | None = None) -> dict:
    """One game on the server: ``task["deals"]`` deals with the seats rotated by the match index. Returns its
    index, game id and one record per deal: places and forbidden finishes read from the server. A match that
    fails or is stopped deletes its game, so no worker or bot plays on for nothing."""
    stop = stop or threading.Event()
    seats, index = task["seats"], task["index"]
    n = len(seats)
    rot = index % n
    labels = [seats[(s + rot) % n] for s in range(n)]
    names = player_names(labels)
    players = [{"name": name, "bot": label} for name, label in zip(names, labels)]
    body = {"preset": task["preset"], "players": players, "seed": match_seed(task["seed"], index, SEED_BITS),
            "deals": task["deals"]}
    if task.get("rules"):
        body["rules"] = task["rules"]
    if stop.is_set():
        raise LeagueError("stopped")
    created = server.call("POST", "/v1/games", body=body)
    gid, token = created["game_id"], created["table_token"]
    try:
        return {"index": index, "game_id": gid,
                "records": _play_deals(server, task, gid, token, created["seq"], labels, names, on_deal, stop)}
    except BaseException:
        try:
            server.call("DELETE", f"/v1/games/{gid}", token)
        except Exception:  # noqa: BLE001 - best effort: the game expires anyway (REFEREE_GAME_TTL_S)
            pass
        raise


def _play_deals(server, task, gid, token, start, labels, names, on_deal, stop) -> list[dict]:
    n = len(labels)
    records = []
    for d in range(task["deals"]):
        if d:
            start = server.call("POST", f"/v1/games/{gid}/deals", token)["seq"]
        deadline = time.monotonic() + task["deal_timeout"]
        server.wait_deal_over(gid, token, start, deadline, stop)
        state = server.call("GET", f"/v1/games/{gid}", token)
        if state["phase"] != "deal_over":
            owing = ", ".join(f"seat {s} ({names[s]})" for s in state.get("actors") or []) or "nobody"
            raise LeagueError(f"game {gid}: deal {d + 1} did not end within {task['deal_timeout']:.0f} s; "
                              f"a move is owed by {owing}" + (" — is the registered bot's process running?"
                                                              if any(labels[s].startswith("@") for s in
                                                                     state.get("actors") or []) else ""))
        places = [p["place"] for p in state["players"]]
        if any(p is None for p in places):
            raise LeagueError(f"game {gid}: deal {d + 1} ended without a place for every seat: {places}")
        events = server.call("GET", f"/v1/games/{gid}/events?after={start}", token)["events"]
        forbidden = [0] * n
        fallbacks = [dict.fromkeys(FALLBACK_KINDS, 0) for _ in range(n)]
        for ev in events:
            for item in ev.get("outcome") or ():
                if item.get("kind") == "finish" and item.get("why"):
                    forbidden[item["seat"]] += 1
            if ev.get("type") == "move" and ev.get("fallback") in FALLBACK_KINDS:
                fallbacks[ev["move"]["seat"]][ev["fallback"]] += 1
        records.append({"places": places, "bots": labels, "forbidden": forbidden, "game_id": gid,
                        "deal": state["deal"], "fallbacks": fallbacks,
                        "moves": sum(1 for ev in events if ev.get("type") == "move"),
                        "seat_moves": [sum(1 for ev in events if ev.get("type") == "move" and ev["move"].get("seat") == s)
                                       for s in range(n)]})
        if on_deal is not None:
            on_deal()
    return records


def run(server_url: str, preset: str, seats: list[str], deals: int, seed: int | None = None, rules=None,
        match_deals: int = 10, parallel: int = 1, deal_timeout: float = 600.0, show_progress: bool = True,
        session=None) -> dict:
    """Play the league; the summary has the shape of an in-process tournament's, plus ``server``, ``games`` and
    ``seed`` (the one given, else a fresh unguessable one: the organiser's to keep from the seats)."""
    seed = draw_seed() if seed is None else seed
    server = Server(server_url, session)
    server.call("GET", "/healthz")
    tasks, left, index = [], deals, 0
    while left > 0:
        k = min(match_deals, left)
        tasks.append({"preset": preset, "rules": rules, "seats": seats, "deals": k, "index": index, "seed": seed,
                      "deal_timeout": deal_timeout})
        left -= k
        index += 1
    lock, done, started, stop = threading.Lock(), [0], time.time(), threading.Event()

    def one_deal():
        with lock:
            done[0] += 1
            if show_progress:
                progress(done[0], deals, started)

    if show_progress:
        progress(0, deals, started)
    if parallel <= 1:
        results = [play_match(server, t, one_deal, stop) for t in tasks]
    else:
        pool = ThreadPoolExecutor(max_workers=parallel)
        try:
            futures = [pool.submit(play_match, server, t, one_deal, stop) for t in tasks]
            results = [f.result() for f in futures]
        except BaseException:
            stop.set()  # the other matches stop at their next event or keep-alive and delete their games
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
    records = [rec for r in sorted(results, key=lambda r: r["index"]) for rec in r["records"]]
    bots = summarize(records, "game_id")
    ratings = league_ratings(records)
    for label, b in bots.items():
        b["fallbacks"] = {kind: sum(r["fallbacks"][s][kind] for r in records for s, seat in enumerate(r["bots"])
                                    if seat == label) for kind in FALLBACK_KINDS}
        b["rating"] = ratings[label]
    return {"server": server.base, "seed": seed, "preset": preset, "deals": len(records), "seats": seats,
            "bots": bots, "games": [r["game_id"] for r in sorted(results, key=lambda r: r["index"])],
            "moves": sum(r["moves"] for r in records), "records": records, "seconds": round(time.time() - started, 1)}


def league_ratings(records: list[dict]) -> dict[str, dict]:
    """Each seat label's OpenSkill (Plackett-Luce) rating over the league's deals in order, from the prior (mu 25,
    sigma 25/3): mu, sigma and the 95% interval mu ± 2 sigma. Seats sharing a label in a deal (three ``random``)
    move it by the mean of their updates."""
    model = PlackettLuce()
    ratings: dict = {}
    for rec in records:
        after = model.rate([[ratings.get(label) or model.rating()] for label in rec["bots"]], ranks=rec["places"])
        seats: dict[str, list] = {}
        for label, team in zip(rec["bots"], after):
            seats.setdefault(label, []).append(team[0])
        for label, rs in seats.items():
            ratings[label] = model.create_rating([sum(r.mu for r in rs) / len(rs), sum(r.sigma for r in rs) / len(rs)])
    return {label: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
                    "interval": [round(r.mu - 2 * r.sigma, 3), round(r.mu + 2 * r.sigma, 3)]}
            for label, r in ratings.items()}


def extras_table(summary: dict) -> str:
    """The league's lines after the tournament's table: each seat's rating and the fallback moves played for it."""
    lines = [f"{'bot':<16} {'rating':>8} {'95% interval':>18} {'timeouts':>9} {'away':>6} {'resigned':>9}"]
    for name, b in summary["bots"].items():
        r, f = b["rating"], b["fallbacks"]
        interval = f"[{r['interval'][0]:.2f}, {r['interval'][1]:.2f}]"
        lines.append(f"{name:<16} {r['mu']:>8.2f} {interval:>18} {f['timeout']:>9} {f['away']:>6} {f['resigned']:>9}")
    return "\n".join(lines)


def fallback_warnings(records: list[dict], share: float = 0.5) -> list[str]:
    """A warning per registered bot (``@name``) whose seats had more than ``share`` of their moves played by the
    server's fallback: its standing measures the fallback, not the bot (is its process running?)."""
    out = []
    for label in dict.fromkeys(label for r in records for label in r["bots"] if label.startswith("@")):
        seats = [(r, s) for r in records for s, seat in enumerate(r["bots"]) if seat == label]
        moves = sum(r.get("seat_moves", [0] * len(r["bots"]))[s] for r, s in seats)
        played = sum(sum(r.get("fallbacks", [{}] * len(r["bots"]))[s].values()) for r, s in seats)
        if moves and played > share * moves:
            out.append(f"{label}: {played} of its {moves} moves were played by the server's fallback (it did not "
                       "answer in time or was away): its standing is the fallback's, not the bot's — is its process "
                       "running?")
    return out
