"""The build: the engine's hot modules compiled with mypyc where mypyc and a C compiler are at hand, else (or with
REFEREE_PURE=1) pure Python, which behaves the same (docs/engine-core.md, "Compiled modules"). Everything else is
in pyproject.toml."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _compiled_list():
    """referee/compiled.py's COMPILED and STAMP, read without importing the package (that would import the engine)."""
    spec = importlib.util.spec_from_file_location("_referee_compiled", Path(__file__).parent / "referee" / "compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.COMPILED, module.STAMP


COMPILED, STAMP = _compiled_list()

SOURCES = [f"referee/{name.replace('.', '/')}.py" for name in COMPILED]


def _extensions() -> list:
    if os.environ.get("REFEREE_PURE"):
        return []
    try:
        from mypyc.build import mypycify
        return mypycify(SOURCES, opt_level="3", group_name="referee")
    except BaseException as e:  # noqa: BLE001 - mypyc missing or its type check failing: pure Python then
        if isinstance(e, KeyboardInterrupt):
            raise
        print(f"referee: not compiling the engine ({type(e).__name__}: {e}); it runs as pure Python", file=sys.stderr)
        return []


class OptionalBuildExt(build_ext):
    """A compile that fails anywhere leaves no compiled module behind: the package is then pure Python."""

    def run(self):
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - no C compiler, no Python headers...
            print(f"referee: compiling the engine failed ({e}); it runs as pure Python", file=sys.stderr)
            for ext in self.extensions:
                for path in (self.get_ext_fullpath(ext.name), Path(self.get_ext_filename(ext.name)).as_posix()):
                    Path(path).unlink(missing_ok=True)
            return
        # which source each compiled module was built from: a module whose source has changed since is imported
        # from its source (referee/compiled.py)
        stamp = {name: hashlib.sha256(Path(src).read_bytes()).hexdigest() for name, src in zip(COMPILED, SOURCES)}
        for root in {Path(self.build_lib), Path(".")} if self.inplace else {Path(self.build_lib)}:
            (root / "referee").mkdir(parents=True, exist_ok=True)
            (root / "referee" / STAMP).write_text(json.dumps(stamp, indent=1))


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
