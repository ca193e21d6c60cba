"""Bot strategies. A bot sees only its seat's view and the engine's legal moves.

Interface: ``choose(view: dict, legal: list[dict], rng: random.Random, history=None) -> dict``,
returning one of ``legal``, or for a choose entry (a choice of cards) ``referee.instantiate(entry, ...)``
with cards the entry allows (the engine computes legality, the bot only chooses).

``view, legal = observer.observe(state, seat)`` builds both, as the API serves them to the seat:

- ``view`` is ``state_to_json(state, viewer=seat)``: other seats' hands are ``null``.
- ``legal`` is ``annotate(state, legal_moves(state, seat))`` for whatever the seat must do now (its turn, a
  7-pass give, a 10-discard, a resurrection take, an exchange give or request, a cut-back window …): every
  entry with the ``effects`` and ``kinds`` it fires and ``forbidden_finish``, so a bot needs no rule code.
- ``history`` (optional, keyword) is the seat's redacted event log, ``[redact_event(ev, seat) ...]``, so a
  bot may remember what it saw given or passed; bots must work without it.

``get(name)`` returns the default instance of a strategy; ``make(name, **options)`` builds one with options
(``mc`` and ``policy_mc``: ``budget_ms``, ``playouts``, …; ``policy``: ``sample``, ``temperature``).
"""
from __future__ import annotations

from .compiled import guard

guard()  # before the compiled modules: used only when built from the sources as they are

from . import greedy, mc, policy, policy_mc, random_bot  # noqa: E402

STRATEGIES = {
    "random": random_bot.choose,
    "greedy": greedy.choose,
    "mc": mc.MonteCarloBot(),
    "policy": policy.PolicyBot(),
    "policy_mc": policy_mc.PolicySearchBot(),
}

FACTORIES = {
    "random": lambda **_: random_bot.choose,
    "greedy": lambda **_: greedy.choose,
    "mc": lambda **opts: mc.MonteCarloBot(**opts),
    "policy": lambda **opts: policy.PolicyBot(**opts),
    "policy_mc": lambda **opts: policy_mc.PolicySearchBot(**opts),
}
# the strategies that search within a time budget (``budget_ms``, ``playouts``): service/backpressure.py SEARCHES
SEARCHES = ("mc", "policy_mc")


def names() -> list[str]:
    return sorted(STRATEGIES)


def get(name: str):
    return STRATEGIES[name]


def make(name: str, **options):
    return FACTORIES[name](**options)


def wants_history(bot) -> bool:
    return bool(getattr(bot, "uses_history", False))
