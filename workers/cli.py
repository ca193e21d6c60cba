"""The workers' commands for the ``referee`` console script: ``worker``, ``tournament``."""
from __future__ import annotations

import json
import sys

from referee.presets import PRESETS


def register(subparsers) -> None:
    worker = subparsers.add_parser("worker", help="run an RQ worker that plays bot seats")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument("--fork", action="store_true", help="fork a work horse per job (rq.Worker)")
    worker.set_defaults(func=cmd_worker)

    t = subparsers.add_parser("tournament", help="bots play matches against each other; per-bot standings")
    t.add_argument("--preset", choices=sorted(PRESETS), default="uecda")
    t.add_argument("--seats", required=True, help="comma-separated bot names, one per seat: mc,greedy,random,random")
    t.add_argument("--deals", type=int, default=100)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--rules", type=json.loads, default=None, help='overrides as JSON, e.g. \'{"jack_back": true}\'')
    t.add_argument("--match-deals", type=int, default=10, help="deals per match (the exchange carries over)")
    t.add_argument("--processes", type=int, default=None, help="parallel processes (default: the CPU count)")
    t.add_argument("--mc-budget-ms", type=float, default=None, help="mc time budget per decision")
    t.add_argument("--mc-playouts", type=int, default=None, help="mc playout cap per decision")
    t.add_argument("--no-progress", action="store_true")
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
        embedded = start_embedded(settings.data_dir, settings.appendfsync)  # joins a running serve's
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
    from workers.tournament import run, table

    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    unknown = sorted(set(seats) - set(bots.names()))
    if unknown:
        print(f"unknown bot {unknown[0]!r}; known: {', '.join(bots.names())}", file=sys.stderr)
        return 2
    if not 2 <= len(seats) <= 8:
        print("a table has 2 to 8 seats", file=sys.stderr)
        return 2
    mc = {}
    if args.mc_budget_ms is not None:
        mc["budget_ms"] = args.mc_budget_ms
    if args.mc_playouts is not None:
        mc["playouts"] = args.mc_playouts
    summary = run(args.preset, seats, args.deals, args.seed, rules=args.rules, match_deals=args.match_deals,
                  processes=args.processes, options={"mc": mc}, show_progress=not args.no_progress)
    print(table(summary))
    print(json.dumps({"preset": summary["preset"], "deals": summary["deals"],
                      "bots": {k: {"mean_place": v["mean_place"], "ci95": v["ci95"], "first_share": v["first_share"]}
                               for k, v in summary["bots"].items()}}))
    return 0
