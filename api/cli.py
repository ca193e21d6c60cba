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
    serve.set_defaults(func=cmd_serve)

    demo = subparsers.add_parser("demo", help="play one deal of four random bots over HTTP and print the refereed log")
    demo.add_argument("--preset", default="uecda")
    demo.add_argument("--seed", type=int, default=None)
    demo.add_argument("--url", default=None, help="use a running service instead of starting one")
    demo.add_argument("--timeout", type=float, default=120.0)
    demo.set_defaults(func=cmd_demo)


def cmd_serve(args) -> int:
    from referee.compiled import build
    from service.supervisor import Supervisor

    print(f"referee: {build()[1]}", file=sys.stderr, flush=True)
    sup = Supervisor()
    sup.handle_signals()
    url = sup.start_storage()
    if sup.embedded is not None:
        print(f"referee: data in {sup.embedded.data_dir} (embedded Redis, append-only file, "
              f"appendfsync {sup.settings.appendfsync}; REFEREE_DATA_DIR)", file=sys.stderr, flush=True)
    if sup.settings.redis_cluster_nodes:
        print(f"referee: games in the Redis Cluster {sup.settings.redis_cluster_nodes}; bot queue on {url}",
              file=sys.stderr, flush=True)
    else:
        print(f"referee: storage {url}", file=sys.stderr, flush=True)
    sup.start_gunicorn(args.host, args.port, workers=args.http_workers)
    if not args.no_worker:
        for _ in range(sup.bot_workers(args.workers)):
            sup.start_worker()
    return sup.wait()


def cmd_demo(args) -> int:
    import requests

    from service.supervisor import Supervisor

    sup = None
    base = args.url
    if base is None:
        sup = Supervisor(children_stdout=sys.stderr)
        sup.start_storage(join=True)  # next to a running serve, use its data
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
        for line in describe_log(events["events"], state):
            print(line)
        return 0
    finally:
        if sup is not None:
            sup.stop()


def describe_log(events: list[dict], final: dict) -> list[str]:
    """The refereed log as `referee simulate` prints it: one line per event, then the final places."""
    from referee.narrate import outcome_text

    names = [p["name"] for p in final["players"]]
    lines = []

    def outcome(event, indent="       "):
        for item in event.get("outcome") or []:
            text = outcome_text(item, names)
            if text:
                lines.append(f"{indent}{text}")

    for event in events:
        kind = event["type"]
        if kind == "game_created":
            lines.append(f"# {event['preset']}, seed {event.get('seed')}, {len(names)} players")
            for seat, hand in enumerate(event.get("hands") or []):
                held = " ".join(hand) if isinstance(hand, list) else f"{hand} cards"
                lines.append(f"seat {seat} ({names[seat]}) holds {held}")
        elif kind == "move":
            seat = event["move"]["seat"]
            verdict = event["verdict"]
            message = verdict.get("message") or ""
            unnamed = [e for e in verdict.get("effects") or [] if e not in message]
            effects = f" [effects: {', '.join(unnamed)}]" if unnamed else ""
            lines.append(f"{event['seq']:4d} seat {seat} ({names[seat]}): {message}{effects}")
            outcome(event)
        elif kind == "deal_started":
            lines.append(f"# deal {event['deal']}")
            outcome(event, "    ")
        elif kind == "hands_corrected":
            lines.append(f"{event['seq']:4d} the table corrects the hands")
    places = sorted((p["place"] or len(names), p["seat"]) for p in final["players"])
    lines.append(f"deal {final['deal']} over: " + ", ".join(
        f"{place}. {names[seat]}" + (f" ({final['players'][seat]['title']})" if final["players"][seat]["title"]
                                     else "") for place, seat in places))
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
