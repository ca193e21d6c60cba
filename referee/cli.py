"""The engine's command for the ``referee`` console script: ``simulate`` (the engine alone, no service)."""
from __future__ import annotations

import json
import random
import sys

from . import actors, apply, instantiate, legal_moves, new_game, next_deal
from .cards import codes
from .narrate import outcome_lines, places_text
from .presets import DEFAULT_PLAYERS, PRESETS
from .state_fields import titles

def simulate(preset: str, seed: int, players: int, deals: int, rules, out=sys.stdout) -> None:
    names = [f"bot{i}" for i in range(players)]
    st, _ = new_game(preset, rules, names, seed)
    rng = random.Random(seed)
    print(f"# {preset}, seed {seed}, {players} random bots", file=out)
    for seat, p in enumerate(st.players):
        print(f"seat {seat} ({p.name}) holds {' '.join(codes(p.hand))}", file=out)
    while True:
        acting = actors(st)
        if not acting:
            print(f"deal {st.deal} over: {places_text(deal_places(st))}", file=out)
            if st.deal >= deals:
                return
            st, events = next_deal(st)
            print(f"\n# deal {st.deal}", file=out)
            for line in outcome_lines(events[0]["outcome"], names):
                print(f"    {line}", file=out)
            continue
        seat = rng.choice(acting)
        move = instantiate(rng.choice(legal_moves(st, seat)), rng)
        verdict, st, events = apply(st, move)
        order = f"[{st.order}{', dir ' + ('+1' if st.direction == 1 else '-1')}]"
        print(f"{events[0]['seq']:4d} {verdict.message} {order}", file=out)
        for line in outcome_lines(events[0]["outcome"], names):
            print(f"       {line}", file=out)


def deal_places(st) -> list[tuple]:
    """(place, name, title) of every player at the end of a deal."""
    named = titles(len(st.players), st.rules.titles)
    n = len(st.players)
    return [(p.place or n, p.name, named[(p.place or n) - 1]) for p in st.players]


def register(sub) -> None:
    sim = sub.add_parser("simulate", help="play random bots against each other and print the refereed log")
    sim.add_argument("--preset", choices=sorted(PRESETS), default="uecda")
    sim.add_argument("--seed", type=int, default=1,
                     help="the deals and the bots' choices, drawn by public code: anyone who knows the seed can "
                          "recompute every hand (the engine alone; a served game keys its seed with the server's "
                          "secret)")
    sim.add_argument("--players", type=int)
    sim.add_argument("--deals", type=int, default=1)
    sim.add_argument("--rules", type=json.loads, default=None, help='overrides as JSON, e.g. \'{"jack_back": true}\'')
    sim.set_defaults(func=lambda args: simulate(args.preset, args.seed, args.players or DEFAULT_PLAYERS[args.preset],
                                                args.deals, args.rules))
