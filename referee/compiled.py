"""The engine modules that setup.py compiles with mypyc, and the guard that keeps compiled code from standing in
for sources that have changed since it was built.

mypyc puts the code of all the compiled modules in one library and they call each other there directly, so one
changed source (an edit under an editable install, a checkout) means none of them may run compiled:
``guard`` then has every one of them imported from its source. REFEREE_PURE=1 asks for that too (pure Python
is the reference: the compiled modules must behave exactly alike, tests/engine/test_compiled.py).
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

ENGINE = ("annotate", "candidates", "cards", "core", "decisions", "engine", "flow", "legal", "memo", "moves", "play",
          "resolution", "shapes")
HERE = Path(__file__).parent
# the engine's hot modules and every rule module (rules.base's context and rejection included); effects.py stays
# interpreted: compiled, its dataclasses' class constants (ORDER, KIND) turn into instance fields
COMPILED = ENGINE + tuple(f"rules.{p.stem}" for p in sorted((HERE / "rules").glob("*.py")) if p.stem != "__init__")
STAMP = "_compiled.json"  # {module: sha256 of the source it was compiled from}, written by setup.py


def source(name: str) -> Path:
    """The source file of the module ``name`` (dotted, relative to the package)."""
    return HERE / (name.replace(".", "/") + ".py")


def _source_hash(name: str) -> str:
    return hashlib.sha256(source(name).read_bytes()).hexdigest()


def compiled_modules() -> list[str]:
    """The modules of COMPILED that a compiled library exists for, whether or not it is used."""
    return [name for name in COMPILED if any(source(name).parent.glob(source(name).stem + ".*.so"))
            or any(source(name).parent.glob(source(name).stem + ".*.pyd"))]


def usable() -> bool:
    """Compiled modules exist, every one was built from its source as it is now, and pure Python is not asked."""
    present = compiled_modules()
    if not present or os.environ.get("REFEREE_PURE"):
        return False
    try:
        stamp = json.loads((HERE / STAMP).read_text())
    except (OSError, ValueError):
        return False
    return all(stamp.get(name) == _source_hash(name) for name in COMPILED)


class _FromSource(MetaPathFinder):
    """Imports the COMPILED modules from their .py files."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.partition(".")
        if package != __package__ or name not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, source(name))


def guard() -> bool:
    """Before any engine module is imported (referee/__init__): use the compiled modules only if ``usable``.
    True when they are used."""
    if not compiled_modules():
        return False
    if usable():
        return True
    if not any(isinstance(f, _FromSource) for f in sys.meta_path):
        if not os.environ.get("REFEREE_PURE"):
            warnings.warn("referee: the compiled engine modules were built from other sources than these; running "
                          "them as pure Python (pip install -e . compiles them again)", RuntimeWarning, stacklevel=2)
        sys.meta_path.insert(0, _FromSource())
    return False


def running_compiled() -> bool:
    """Is the engine running on its compiled modules (as imported in this process)?"""
    module = sys.modules.get(f"{__package__}.legal")
    return module is not None and not (module.__file__ or "").endswith(".py")
