"""The engine modules that setup.py compiles with mypyc, and the guard that keeps compiled code from standing in
for sources that have changed since it was built.

mypyc puts the code of all the modules of one group in one library and they call each other there directly, so
one changed source (an edit under an editable install, a checkout) means none of them may run compiled:
``guard`` then has every one of them imported from its source. REFEREE_PURE=1 asks for that too (pure Python
is the reference: the compiled modules must behave exactly alike, tests/engine/test_compiled.py). The bots'
policy is a group of its own (workers/bots/compiled.py), guarded the same way by ``Group``.

Module constants read on hot paths are ``Final``: mypyc keeps those in C statics (read directly, also from
another compiled module that imports them), where any other module-level name is looked up in the module's
dictionary at every use.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import warnings
from importlib.abc import MetaPathFinder
from pathlib import Path

ENGINE = ("annotate", "candidates", "cards", "core", "decisions", "effects", "engine", "flow", "flow_events", "legal",
          "memo", "moves", "play", "resolution", "ruleset", "seating", "shapes", "slots", "state", "state_fields", "terms",
          "verdict", "view")
HERE = Path(__file__).parent
# the engine's hot modules and every rule module (rules.base's context and rejection included)
COMPILED = ENGINE + tuple(f"rules.{p.stem}" for p in sorted((HERE / "rules").glob("*.py")) if p.stem != "__init__")
STAMP = "_compiled.json"  # {module: sha256 of the source it was compiled from}, written by setup.py


class Group:
    """The compiled modules of one package: ``names`` (dotted, relative to ``package``, whose directory is
    ``directory``, where setup.py writes the STAMP). A group whose compiled code calls another's natively (one
    library) ``needs`` it: it is usable only where that one is."""

    def __init__(self, package: str, directory: Path, names: tuple, needs: "Group | None" = None):
        self.package, self.directory, self.names, self.needs = package, directory, names, needs

    def source(self, name: str) -> Path:
        """The source file of the module ``name``."""
        return self.directory / (name.replace(".", "/") + ".py")

    def compiled_modules(self) -> list[str]:
        """The modules that a compiled library exists for, whether or not it is used."""
        out = []
        for name in self.names:
            src = self.source(name)
            if any(src.parent.glob(src.stem + ".*.so")) or any(src.parent.glob(src.stem + ".*.pyd")):
                out.append(name)
        return out

    def usable(self) -> bool:
        """Compiled modules exist, every one was built from its source as it is now, pure Python is not asked, and
        the group it ``needs`` is usable too."""
        if not self.compiled_modules() or os.environ.get("REFEREE_PURE"):
            return False
        if self.needs is not None and not self.needs.usable():
            return False
        try:
            stamp = json.loads((self.directory / STAMP).read_text())
        except (OSError, ValueError):
            return False
        return all(stamp.get(name) == hashlib.sha256(self.source(name).read_bytes()).hexdigest()
                   for name in self.names)

    def guard(self) -> bool:
        """Before any module of the group is imported: use the compiled modules only if ``usable``. True when
        they are used."""
        if not self.compiled_modules():
            return False
        if self.usable():
            return True
        if not any(isinstance(f, _FromSource) and f.group is self for f in sys.meta_path):
            if not os.environ.get("REFEREE_PURE"):
                warnings.warn(f"{self.package}: the compiled modules were built from other sources than these; "
                              "running them as pure Python (pip install -e . compiles them again)", RuntimeWarning,
                              stacklevel=3)
            sys.meta_path.insert(0, _FromSource(self))
        return False


class _FromSource(MetaPathFinder):
    """Imports the modules of a group from their .py files."""

    def __init__(self, group: Group):
        self.group = group

    def find_spec(self, fullname, path=None, target=None):
        prefix = self.group.package + "."
        if not fullname.startswith(prefix) or fullname[len(prefix):] not in self.group.names:
            return None
        return importlib.util.spec_from_file_location(fullname, self.group.source(fullname[len(prefix):]))


ENGINE_GROUP = Group(__package__, HERE, COMPILED)


def compiled_modules() -> list[str]:
    return ENGINE_GROUP.compiled_modules()


def usable() -> bool:
    return ENGINE_GROUP.usable()


def guard() -> bool:
    """Called first thing by referee/__init__, before any engine module is imported."""
    return ENGINE_GROUP.guard()


def build() -> tuple[str, str]:
    """How the engine runs in this process, said aloud by ``referee serve`` and every benchmark: ("compiled" |
    "pure" | "stale", a sentence). Stale: a compiled build exists but a source changed since, so it runs as pure
    Python (several times slower) until ``pip install -e .`` compiles it again."""
    if running_compiled():
        return "compiled", "the engine runs compiled (mypyc)"
    if not compiled_modules():
        return "pure", "the engine runs as pure Python (no compiled build: no C compiler, or REFEREE_PURE=1 at install)"
    if os.environ.get("REFEREE_PURE"):
        return "pure", "the engine runs as pure Python (REFEREE_PURE=1)"
    return "stale", ("the engine runs as pure Python: its compiled build is stale (a source changed since it was "
                     "built; pip install -e . compiles it again)")


def running_compiled(module: str = "legal") -> bool:
    """Is ``module`` (of the engine, or a dotted name) running compiled, as imported in this process?"""
    found = sys.modules.get(module if "." in module else f"{__package__}.{module}")
    return found is not None and not (found.__file__ or "").endswith(".py")
