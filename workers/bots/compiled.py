"""The bots' modules that setup.py compiles with mypyc, in one library with the engine's (the mc playouts call the
engine every ply and spend a third of their time in the greedy policy: within one library those calls and reads
are native), guarded as the engine's are (referee/compiled.py): where a source has changed since the build, or
with REFEREE_PURE=1, all of them run as pure Python; and they run compiled only where the engine does (their
compiled code calls the engine's compiled code directly).

Nothing here imports the engine at module level: setup.py reads NAMES from this file alone."""
from __future__ import annotations

from pathlib import Path

NAMES = ("cards", "greedy", "mc", "observer", "features", "policy", "belief", "policy_mc")
_group = None


def group():
    """The bots' ``referee.compiled.Group``."""
    global _group
    if _group is None:
        from referee.compiled import ENGINE_GROUP, Group
        _group = Group(__package__, Path(__file__).parent, NAMES, needs=ENGINE_GROUP)
    return _group


def guard() -> bool:
    """Called by workers/bots/__init__ before it imports any of NAMES."""
    return group().guard()
