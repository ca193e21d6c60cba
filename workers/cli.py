"""The workers' commands for the ``referee`` console script: ``worker``, ``tournament`` (in process, or a league on
a running referee with ``--server``)."""
from __future__ import annotations

import json
import sys

from referee.presets import PRESETS, SEATS


def register(subparsers) -> None:
    worker = subparsers.add_parser("worker", help="run an RQ worker that plays bot seats")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument("--fork", action="store_true", help="fork a work horse per job (rq.Worker)")
    worker.set_defaults(func=cmd_worker)

    t = subparsers.add_parser(
        "tournament", help="bots play matches against each other; per-bot standings (in this process, or on a "
                           "running referee with --server: a league, where registered bots (@name) sit too)")
    t.add_argument("--preset", choices=sorted(PRESETS), default="uecda")
    t.add_argument("--seats", default=None, help="comma-separated bots, one per seat: mc,greedy,random,random")
    t.add_argument("--seat", action="append", default=None, metavar="BOT",
                   help="one seat (repeat it; instead of --seats): a built-in bot, or @name, a bot registered on "
                        "the --server (POST /v1/bots) and played by its own process over its stream")
    t.add_argument("--server", default=None, metavar="URL",
                   help="play on this running referee (e.g. http://127.0.0.1:8000): its workers play the built-in "
                        "bots with its settings; needed for @name seats")
    t.add_argument("--deals", type=int, default=100)
    t.add_argument("--seed", type=int, default=None,
                   help="in this process: what every deal and decision is drawn from by public code (default 1: "
                        "anyone who knows it can recompute the deals); with --server: the league's seed, dealt from "
                        "only as keyed with the server's secret (default: a fresh unguessable one, printed at the "
                        "end; the same seed on the same server deals the same hands again, so keep it from the seats)")
    t.add_argument("--rules", type=json.loads, default=None, help='overrides as JSON, e.g. \'{"jack_back": true}\'')
    t.add_argument("--match-deals", type=int, default=10, help="deals per match (the exchange carries over)")
    t.add_argument("--processes", type=int, default=None, help="parallel processes (default: the CPU count; "
                                                               "not with --server)")
    t.add_argument("--parallel", type=int, default=1, help="with --server: matches (games) played at once")
    t.add_argument("--deal-timeout", type=float, default=600.0,
                   help="with --server: seconds a deal may take before the league stops (a bot that is not running)")
    t.add_argument("--mc-budget-ms", type=float, default=None, help="mc and policy_mc time budget per decision (not with "
                                                                    "--server: REFEREE_MC_BUDGET_MS on the server)")
    t.add_argument("--mc-playouts", type=int, default=None, help="mc and policy_mc playout cap per decision "
                                                                  "(not with --server)")
    t.add_argument("--no-progress", action="store_true")
    t.add_argument("--json", action="store_true", help="print the standings as one JSON object too, as the last line")
    t.set_defaults(func=tournament_command)


def cmd_worker(args) -> int:
    from service import deadlines, logs
    from service.reaper import BotReaper, run_in_thread
    from service.redis_conn import connect, connect_store, embedded_url, start_embedded, stop_embedded
    from service.scheduler import BotScheduler
    from service.settings import Settings
    from service.store import GameStore
    from workers import jobs
    from workers.rq_worker import PromptForkWorker, PromptSimpleWorker

    logs.configure()
    jobs.warm_up()  # the engine and the bots load here, once: no job pays for it
    settings = Settings.from_env()
    embedded = None
    url = settings.redis_url
    if not url:
        embedded = start_embedded(settings.data_dir, settings.appendfsync,  # joins a running serve's
                                  settings.redis_maxmemory_mb)
        url = embedded_url(embedded)
    cls = PromptForkWorker if args.fork else PromptSimpleWorker
    worker = cls([settings.queue_name], connection=connect(url, decode=False))
    # the reaper has its own connections: it runs in a thread next to the job being played
    scheduler = BotScheduler(connect(url, decode=False), settings.queue_name, settings.key_prefix)
    reaper = BotReaper(GameStore.from_settings(connect_store(settings, url), settings), scheduler,
                       grace_s=settings.reaper_grace_s, max_retries=settings.bot_max_retries)
    keeper = deadlines.DeadlineKeeper(GameStore.from_settings(connect_store(settings, url), settings), scheduler)
    stops = []
    try:
        if args.burst:
            scheduler.mark_alive(worker.name, 60)
            reaper.run_once()
            keeper.run_once()
        else:
            stops.append(run_in_thread(reaper, settings.reaper_interval_s, worker.name)[1])
            stops.append(deadlines.run_in_thread(keeper, settings.deadline_poll_s)[1])
        # RQ installs its own SIGTERM/SIGINT handlers: finish the current job, then return
        worker.work(burst=args.burst, with_scheduler=False)
    finally:
        for stop in stops:
            stop.set()
        scheduler.mark_gone(worker.name)
        if embedded is not None:
            stop_embedded(embedded)
    return 0


def tournament_command(args) -> int:
    from workers import bots
    from workers.tournament import last_line, run, table

    if (args.seats is None) == (args.seat is None):
        print("give the seats with --seats a,b,c,d or with --seat (repeated), not both", file=sys.stderr)
        return 2
    seats = [s.strip() for s in args.seats.split(",") if s.strip()] if args.seats is not None else \
        [s.strip() for s in args.seat]
    unknown = sorted({s for s in seats if s not in bots.names() and not (s.startswith("@") and len(s) > 1)})
    if unknown:
        print(f"unknown bot {unknown[0]!r}; known: {', '.join(bots.names())}, or @name for a registered bot",
              file=sys.stderr)
        return 2
    lo, hi = SEATS[args.preset]
    if not lo <= len(seats) <= hi:
        print(f"{args.preset} is played by {lo} to {hi} players, not {len(seats)}", file=sys.stderr)
        return 2
    if args.deals < 1 or args.match_deals < 1:
        print("--deals and --match-deals must be at least 1", file=sys.stderr)
        return 2
    if args.server:
        return _league(args, seats)
    registered = [s for s in seats if s.startswith("@")]
    if registered:
        print(f"{registered[0]} is a registered bot: it plays on a running referee; give --server URL",
              file=sys.stderr)
        return 2
    mc = {}
    if args.mc_budget_ms is not None:
        mc["budget_ms"] = args.mc_budget_ms
    if args.mc_playouts is not None:
        mc["playouts"] = args.mc_playouts
    seed = 1 if args.seed is None else args.seed  # public: the engine alone, no secret to key it with
    summary = run(args.preset, seats, args.deals, seed, rules=args.rules, match_deals=args.match_deals,
                  processes=args.processes, options={"mc": mc, "policy_mc": mc}, show_progress=not args.no_progress)
    print(table(summary))
    if args.json:
        print(json.dumps(last_line(summary)))
    return 0


def _league(args, seats: list[str]) -> int:
    from workers.league import LeagueError, extras_table, fallback_warnings, run
    from workers.tournament import last_line, table

    local = [flag for flag, value in (("--mc-budget-ms", args.mc_budget_ms), ("--mc-playouts", args.mc_playouts),
                                      ("--processes", args.processes)) if value is not None]
    if local:
        print(f"{local[0]} does not apply with --server: the server's workers play the built-in bots with its own "
              "settings (REFEREE_MC_BUDGET_MS, REFEREE_MC_PLAYOUTS, REFEREE_BOT_WORKERS)", file=sys.stderr)
        return 2
    try:
        summary = run(args.server, args.preset, seats, args.deals, args.seed, rules=args.rules,
                      match_deals=args.match_deals, parallel=args.parallel, deal_timeout=args.deal_timeout,
                      show_progress=not args.no_progress)
    except LeagueError as exc:
        print(f"\nleague stopped: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nleague stopped: interrupted; its unfinished games are deleted", file=sys.stderr)
        return 130
    print(f"league on {summary['server']}: games {' '.join(summary['games'])}")
    print(f"league seed {summary['seed']} (--seed {summary['seed']} deals the same hands again on this server; "
          "keep it from the seats until the deals are played)")
    print(table(summary))
    print(extras_table(summary))
    last = last_line(summary)
    for label, b in last["bots"].items():
        b.update(rating=summary["bots"][label]["rating"], fallbacks=summary["bots"][label]["fallbacks"])
    for warning in fallback_warnings(summary["records"]):
        print(f"warning: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps({**last, "server": summary["server"], "games": summary["games"], "seed": summary["seed"],
                          "moves": summary["moves"]}))
    return 0
