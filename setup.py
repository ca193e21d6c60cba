"""The build: the engine's hot modules and the bots' policy compiled with mypyc where mypyc and a C compiler are at
hand, else (or with REFEREE_PURE=1) pure Python, which behaves the same (docs/engine-core.md, "Compiled
modules"). Everything else is in pyproject.toml."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent


def _tell(message: str) -> None:
    """pip shows a build's output only with -v: a terminal, where the install has one, is told directly."""
    print(message, file=sys.stderr, flush=True)
    try:
        with open("/dev/tty", "w") as tty:
            tty.write(message + "\n")
    except OSError:  # no controlling terminal (CI, Docker): stderr, which pip -v shows, is all there is
        pass


def _read(path: str):
    """A module's constants, read without importing its package (that would import the engine)."""
    spec = importlib.util.spec_from_file_location(f"_build_{Path(path).parent.name}", HERE / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_engine = _read("referee/compiled.py")
STAMP = _engine.STAMP
# (package directory, its compiled modules), compiled as one library: its modules call each other natively, and the
# mc playouts call the engine every ply. Each package keeps its own STAMP and guard; the bots run compiled only
# where the engine does (workers/bots/compiled.py).
PACKAGES = [("referee", _engine.COMPILED), ("workers/bots", _read("workers/bots/compiled.py").NAMES)]


def _sources(directory: str, names) -> list[str]:
    return [f"{directory}/{name.replace('.', '/')}.py" for name in names]


BUILT: list = []  # the packages whose extensions are in this build: (package directory, names)


def _extensions() -> list:
    if os.environ.get("REFEREE_PURE"):
        return []
    try:
        from mypyc.build import mypycify
        _tell("referee: compiling the engine and the bots with mypyc (about two minutes; REFEREE_PURE=1 at install "
              "skips it, pure Python plays alike)")
        out = mypycify([src for directory, names in PACKAGES for src in _sources(directory, names)], opt_level="3",
                       group_name="referee")
    except BaseException as e:  # noqa: BLE001 - mypyc missing or its type check failing: pure Python then
        if isinstance(e, KeyboardInterrupt):
            raise
        print(f"referee: not compiling ({type(e).__name__}: {e}); everything runs as pure Python", file=sys.stderr)
        return []
    BUILT.extend(PACKAGES)
    return out


class OptionalBuildExt(build_ext):
    """A compile that fails anywhere leaves no compiled module behind: the package is then pure Python."""

    def run(self):
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - no C compiler, no Python headers...
            print(f"referee: compiling failed ({e}); everything runs as pure Python", file=sys.stderr)
            for ext in self.extensions:
                for path in (self.get_ext_fullpath(ext.name), Path(self.get_ext_filename(ext.name)).as_posix()):
                    Path(path).unlink(missing_ok=True)
            return
        # which source each compiled module was built from: a group with a source changed since is imported from
        # its sources (referee/compiled.py)
        for directory, names in BUILT:
            stamp = {name: hashlib.sha256(Path(src).read_bytes()).hexdigest()
                     for name, src in zip(names, _sources(directory, names))}
            for root in {Path(self.build_lib), Path(".")} if self.inplace else {Path(self.build_lib)}:
                (root / directory).mkdir(parents=True, exist_ok=True)
                (root / directory / STAMP).write_text(json.dumps(stamp, indent=1))


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
