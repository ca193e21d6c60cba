"""The UECda commands for the ``referee`` console script: ``uecda-server``, ``uecda-client``."""
from __future__ import annotations

import json
import logging
import os
import sys

from . import protocol


def register(subparsers) -> None:
    s = subparsers.add_parser("uecda-server", help="host a UECda contest match (protocol 20070) under our referee")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=protocol.PORT)
    s.add_argument("--games", type=int, default=1000)
    s.add_argument("--seats", default=None, help="five entries, human (a TCP client) or a bot: human,human,mc,...")
    s.add_argument("--seed", type=int, default=None)
    s.add_argument("--no-exchange-reset", type=int, default=100, metavar="N",
                   help="classes reset (no exchange, random start) at games 1, 1+N, 1+2N, ... (1: every game)")
    s.add_argument("--time-limit-ms", type=int, default=10000,
                   help="per decision; a client past it has its turn played as a pass (0: no limit)")
    s.add_argument("--quiet", action="store_true", help="no per-game lines")
    s.set_defaults(func=cmd_server)

    c = subparsers.add_parser("uecda-client", help="enter one of our bots into a UECda server's match")
    c.add_argument("--host", default="127.0.0.1")
    c.add_argument("--port", type=int, default=protocol.PORT)
    c.add_argument("--bot", default="mc", choices=("mc", "policy_mc", "policy", "greedy", "random"))
    c.add_argument("--name", default=None)
    c.add_argument("--seed", type=int, default=None)
    c.add_argument("--connect-timeout", type=float, default=10.0, help="keep trying to connect this long (s)")
    c.set_defaults(func=cmd_client)


def _logging() -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")


def cmd_server(args) -> int:
    from service.games import GameService
    from service.redis_conn import connect, embedded_url, start_embedded, stop_embedded
    from service.settings import Settings
    from service.store import GameStore

    from .match import Config, draw_seed
    from .server import parse_seats, serve

    _logging()
    try:
        seats = parse_seats(args.seats)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.games < 1 or args.no_exchange_reset < 1:
        print("--games and --no-exchange-reset must be at least 1", file=sys.stderr)
        return 2
    settings = Settings.from_env()
    embedded = None
    url = settings.redis_url
    if not url:
        embedded = start_embedded(settings.data_dir, settings.appendfsync, settings.redis_maxmemory_mb)
        url = embedded_url(embedded)
    seed = args.seed if args.seed is not None else draw_seed()
    out = open(os.devnull, "w") if args.quiet else sys.stdout
    config = Config(games=args.games, seed=seed, reset_every=args.no_exchange_reset,
                    time_limit_ms=args.time_limit_ms, out=out)
    service = GameService(GameStore(connect(url), settings.key_prefix))
    try:
        summary = serve(service, args.host, args.port, seats, config,
                        on_listen=lambda port: print(f"uecda: listening on {args.host}:{port}, seats "
                                                     f"{','.join(seats)}", file=sys.stderr, flush=True))
    except OSError as exc:
        print(f"uecda-server: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    finally:
        if args.quiet:
            out.close()
        if embedded is not None:
            stop_embedded(embedded)
    for p in summary["players"]:
        print(f"player {p['player']} {p['name']:<14} points {p['points']:>5}  classes {p['classes']}")
    print(json.dumps(summary), flush=True)
    return 0


def cmd_client(args) -> int:
    from .client import run_client

    _logging()
    try:
        summary = run_client(args.host, args.port, args.bot, name=args.name, seed=args.seed,
                             connect_timeout=args.connect_timeout)
    except OSError as exc:
        print(f"uecda-client: cannot connect to {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"disagreements: {summary['disagreements']}")
    print(json.dumps(summary), flush=True)
    return 0 if summary.get("completed") else 1
