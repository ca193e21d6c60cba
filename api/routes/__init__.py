"""One blueprint per resource."""
from . import bots, docs, events, games, health, judge, moves, rules

BLUEPRINTS = [health.bp, rules.bp, docs.bp, games.bp, moves.bp, events.bp, judge.bp, bots.bp]
