"""The service's commands for the ``referee`` console script: `serve`, `demo`."""
from __future__ import annotations

import signal
import socket
import sys
import time


def register(subparsers) -> None:
    serve = subparsers.add_parser("serve", help="run the HTTP referee (gunicorn) and its bot workers")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--http-workers", type=int, default=2, help="gunicorn worker processes")
    serve.add_argument("--workers", type=int, default=None,
                       help="RQ bot worker processes (default: REFEREE_BOT_WORKERS, else one per CPU core)")
    serve.add_argument("--no-worker", action="store_true", help="do not start any RQ bot worker")
    serve.add_argument("--json-logs", action="store_true",
                       help="the server's JSON log lines (one per request) on this terminal, not in <data dir>/serve.log "
                            "(the default where stderr is not a terminal; REFEREE_JSON_LOGS=1/0)")
    serve.set_defaults(func=cmd_serve)

    demo = subparsers.add_parser("demo", help="play one deal of four random bots over HTTP and print the refereed log")
    demo.add_argument("--preset", default="uecda")
    demo.add_argument("--seed", type=int, default=None,
                      help="deal from this seed keyed with the server's secret (the same seed deals the same hands "
                           "again on the same server only); default: a fresh secret seed per deal")
    demo.add_argument("--url", default=None, help="use a running service instead of starting one")
    demo.add_argument("--timeout", type=float, default=120.0)
    demo.set_defaults(func=cmd_demo)


def cmd_serve(args) -> int:
    import os

    from referee.compiled import build
    from service.embedded import PRIVATE_UMASK
    from service.seeds import describe
    from service.supervisor import Supervisor

    os.umask(PRIVATE_UMASK)  # serve.log, the metrics files and every child's files are the owner's only
    taken = port_taken(args.host, args.port)
    if taken:
        raise SystemExit(f"referee: {args.host}:{args.port} is in use ({taken}): another `referee serve`? "
                         "Stop it, or choose another port with --port")
    sup = Supervisor()
    sup.handle_signals()
    print("referee: starting...", file=sys.stderr, flush=True)
    url = sup.start_storage()
    log_path = sup.log_children_to("serve.log") if not json_logs_here(args.json_logs) else None
    bot_workers = 0 if args.no_worker else sup.bot_workers(args.workers)
    sup.env["REFEREE_BOT_WORKERS_STARTED"] = str(bot_workers)  # the bot gate counts them while they register
    sup.start_gunicorn(args.host, args.port, workers=args.http_workers)
    for _ in range(bot_workers):
        sup.start_worker()
    base = f"http://{_url_host(args.host)}:{args.port}"
    if not _wait_answering(base, sup):
        return sup.wait()
    if sup.embedded is not None:
        store = (f"embedded Redis, append-only file, appendfsync {sup.settings.appendfsync} "
                 "(REFEREE_DATA_DIR sets the directory)")
        data = sup.embedded.data_dir
    elif sup.settings.redis_cluster_nodes:
        store = f"the Redis Cluster {sup.settings.redis_cluster_nodes}; bot queue on {masked(url)}"
        data = None
    else:
        store = f"the Redis at {masked(url)}"
        data = None
    lines = [f"the table page  {base}/",
             f"the API         {base}/v1   (openapi: {base}/openapi.yaml)",
             f"data            {data}" if data else None,
             f"store           {store}",
             f"seed secret     {describe(sup.settings)} (keys callers' seeds: REFEREE_SEED_SECRET shares one)",
             f"engine          {build()[1]}",
             f"bot workers     {bot_workers} (--workers N)",
             f"server log      {log_path} (--json-logs shows it here)" if log_path
             else "server log      JSON lines below, one per request",
             "Ctrl-C to stop"]
    print("\n".join(f"referee: {line}" for line in lines if line), file=sys.stderr, flush=True)
    return sup.wait()


def port_taken(host: str, port: int) -> str | None:
    """Why gunicorn could not listen on host:port (it would retry, fail and be restarted over and over), or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds: a port in TIME_WAIT is free
        try:
            s.bind((host, port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def json_logs_here(flag: bool) -> bool:
    """Whether the children's JSON log lines go to this terminal: with --json-logs or REFEREE_JSON_LOGS=1, or
    when stderr is not a terminal (Docker, systemd, tests) unless REFEREE_JSON_LOGS=0; else to a file."""
    import os

    setting = os.environ.get("REFEREE_JSON_LOGS", "")
    if flag or setting == "1":
        return True
    if setting == "0":
        return False
    return not sys.stderr.isatty()


def masked(url: str) -> str:
    """A Redis URL with its password replaced by ***."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if not parts.password:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def _wait_answering(base: str, sup) -> bool:
    """Supervise until the service answers /healthz (any status) or a signal stops it; False when stopped."""
    import requests

    while not sup.stopping:
        sup.tick()
        try:
            body = requests.get(f"{base}/healthz", timeout=2).json()
            if isinstance(body, dict) and ("status" in body or "error" in body):  # ok, or 503 while Redis is down
                return True
        except (requests.RequestException, ValueError):
            pass
        time.sleep(0.2)
    return False


def cmd_demo(args) -> int:
    import requests

    from service.supervisor import Supervisor

    sup = None
    base = args.url
    if base is None:
        sup = Supervisor()
        sup.start_storage(join=True)  # next to a running serve, use its data
        print(f"demo: the service's log goes to {sup.log_children_to('demo.log')}", file=sys.stderr, flush=True)
        port = _free_port()
        sup.start_gunicorn("127.0.0.1", port, workers=1, access_log=False)
        sup.start_worker()
        base = f"http://127.0.0.1:{port}"
        signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    try:
        _wait_healthy(base)
        players = [{"name": f"bot{i}", "bot": "random"} for i in range(4)]
        body = {"preset": args.preset, "players": players}
        if args.seed is not None:
            body["seed"] = args.seed
        r = requests.post(f"{base}/v1/games", json=body, timeout=30)
        r.raise_for_status()
        game = r.json()
        auth = {"Authorization": f"Bearer {game['table_token']}"}
        print(f"game {game['game_id']} ({args.preset})")
        deadline = time.monotonic() + args.timeout
        while True:
            state = requests.get(f"{base}/v1/games/{game['game_id']}", headers=auth, timeout=30).json()
            if state.get("phase") == "deal_over":
                break
            if time.monotonic() > deadline:
                print("demo: the deal did not end in time", file=sys.stderr)
                return 1
            time.sleep(0.2)
        events = requests.get(f"{base}/v1/games/{game['game_id']}/events", headers=auth, timeout=30).json()
        for line in describe_log(events["events"], state, seed=args.seed):
            print(line)
        return 0
    finally:
        if sup is not None:
            sup.stop()


def describe_log(events: list[dict], final: dict, seed=None) -> list[str]:
    """The refereed log as `referee simulate` prints it: one line per event, then the final places. ``seed``: the
    caller's seed, which deals the same hands again on this server (the game's own seed is the keyed one)."""
    from referee.narrate import outcome_lines, places_text, seat_name

    names = [p["name"] for p in final["players"]]
    lines = []

    def outcome(event, indent="       "):
        lines.extend(f"{indent}{text}" for text in outcome_lines(event.get("outcome"), names))

    for event in events:
        kind = event["type"]
        if kind == "game_created":
            lines.append(f"# {event['preset']}, seed {event.get('seed') if seed is None else seed}, {len(names)} players")
            for seat, hand in enumerate(event.get("hands") or []):
                held = " ".join(hand) if isinstance(hand, list) else f"{hand} cards"
                lines.append(f"seat {seat} ({names[seat]}) holds {held}")
        elif kind == "move":
            seat = event["move"]["seat"]
            verdict = event["verdict"]
            message = verdict.get("message") or ""
            unnamed = [e for e in verdict.get("effects") or [] if e not in message]
            effects = f" [effects: {', '.join(unnamed)}]" if unnamed else ""
            # each thing once: "seat 2 (bot2) plays D3", not "seat 2 (bot2): seat 2 plays D3"
            who = seat_name(seat, names)
            said = who + message[len(f"seat {seat}"):] if message.startswith(f"seat {seat} ") else f"{who}: {message}"
            lines.append(f"{event['seq']:4d} {said}{effects}")
            outcome(event)
        elif kind == "deal_started":
            lines.append(f"# deal {event['deal']}")
            outcome(event, "    ")
        elif kind == "hands_corrected":
            lines.append(f"{event['seq']:4d} the table corrects the hands")
    places = [(p["place"] or len(names), p["name"], p["title"]) for p in final["players"]]
    lines.append(f"deal {final['deal']} over: {places_text(places)}")
    return lines


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(base: str, timeout: float = 30.0) -> None:
    import requests

    deadline = time.monotonic() + timeout
    while True:
        try:
            if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"the service at {base} did not become healthy")
        time.sleep(0.2)
