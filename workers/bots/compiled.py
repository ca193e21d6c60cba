"""The bots' modules that setup.py compiles with mypyc (a library of their own: the mc playouts spend a third to
a half of their time in the greedy policy), guarded as the engine's are (referee/compiled.py): where a source
has changed since the build, or with REFEREE_PURE=1, all of them run as pure Python.

Nothing here imports the engine at module level: setup.py reads NAMES from this file alone."""
from __future__ import annotations

from pathlib import Path

NAMES = ("cards", "greedy", "mc", "observer")
_group = None


def group():
    """The bots' ``referee.compiled.Group``."""
    global _group
    if _group is None:
        from referee.compiled import Group
        _group = Group(__package__, Path(__file__).parent, NAMES)
    return _group


def guard() -> bool:
    """Called by workers/bots/__init__ before it imports any of NAMES."""
    return group().guard()
