"""The ``referee`` console script: one parser over the commands each layer registers.

It sits above every layer (engine, service, API, workers), so no layer has to import one above it.
"""
from __future__ import annotations

import argparse
import sys

import api.cli
import referee.cli
import uecda.cli
import workers.cli
from referee.memo import relax_gc


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="referee", description="Daifugō referee")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in (referee.cli, api.cli, workers.cli, uecda.cli):
        module.register(sub)
    args = parser.parse_args(argv)
    relax_gc()  # every command plays moves in this process or its forks
    return args.func(args) or 0


if __name__ == "__main__":
    sys.exit(main())
