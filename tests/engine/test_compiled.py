"""The engine's compiled modules (setup.py, referee/compiled.py): pure Python plays the recorded games exactly as
they do, and compiled code never stands in for a source that has changed since it was built."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import referee
from referee import compiled

ROOT = Path(referee.__file__).parent.parent


def _run(code: str, **env) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, **env}, capture_output=True,
                         text=True, timeout=120, check=True)
    return out.stdout.strip()


WHERE = "import referee.compiled as c, referee.legal as l; print(c.running_compiled(), l.__file__.endswith('.py'))"


def test_this_build_runs_compiled_where_it_was_compiled():
    if not compiled.compiled_modules():
        pytest.skip("this install is pure Python (no C compiler or mypyc at build time): every test runs it")
    if os.environ.get("REFEREE_PURE"):
        pytest.skip("REFEREE_PURE is set: this run is pure Python by request")
    assert compiled.usable(), "compiled modules whose sources changed since: rebuild (pip install -e .)"
    assert _run(WHERE) == "True False"


def test_pure_python_is_asked_for_with_referee_pure():
    assert _run(WHERE, REFEREE_PURE="1") == "False True"


def test_pure_python_plays_the_recorded_games_as_the_compiled_modules_do():
    """The goldens (every preset, random rule switches, each ply's legal moves, verdicts and views) in pure Python,
    in a process of its own: the rest of the suite runs what this install built."""
    if not compiled.compiled_modules():
        pytest.skip("this install is pure Python: the goldens run it in the suite itself")
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/golden"], cwd=ROOT,
                   env={**os.environ, "REFEREE_PURE": "1"}, check=True, timeout=600)


def test_a_changed_source_turns_every_compiled_module_off(tmp_path):
    """One stale module would be called by the others inside the compiled library, so none is used."""
    package = tmp_path / "fakeref"
    package.mkdir()
    shutil.copy(Path(compiled.__file__), package / "compiled.py")
    (package / "__init__.py").write_text("")
    for name in compiled.COMPILED:
        path = package / (name.replace(".", "/") + ".py")
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"NAME = {name!r}\n")
        path.with_name(path.stem + ".cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    stamp = {name: hashlib.sha256((package / (name.replace(".", "/") + ".py")).read_bytes()).hexdigest()
             for name in compiled.COMPILED}
    (package / compiled.STAMP).write_text(json.dumps(stamp))
    probe = ("import fakeref.compiled as c; print(c.usable(), len(c.compiled_modules()))")
    plain = {k: v for k, v in os.environ.items() if k != "REFEREE_PURE"}
    run = lambda **env: subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,  # noqa: E731
                                       env={**plain, **env}, check=True).stdout.split()
    assert run() == ["True", str(len(compiled.COMPILED))]
    assert run(REFEREE_PURE="1")[0] == "False"
    (package / "legal.py").write_text("NAME = 'legal, edited'\n")
    assert run()[0] == "False"
    warned = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", "import fakeref.compiled as c; c.guard()"],
                            cwd=tmp_path, capture_output=True, text=True, env=plain)
    assert "built from other sources" in warned.stderr  # said once, at import, where it was not asked for
    (package / compiled.STAMP).unlink()
    (package / "legal.py").write_text("NAME = 'legal'\n")
    assert run()[0] == "False"  # no stamp: built by something else than setup.py
