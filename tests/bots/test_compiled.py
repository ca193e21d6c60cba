"""The bots' compiled modules (setup.py, workers/bots/compiled.py): where they were built they are used, and they
choose exactly as the pure Python ones do."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import workers
from workers.bots import compiled

ROOT = Path(workers.__file__).parent.parent

# seeded greedy self-play of every preset, the mc, policy and policy_mc bots asked at a few turns: every choice,
# printed
CHOICES = """
import random
from referee import actors, apply, new_game
from referee.presets import PRESETS
from workers.bots import make
from workers.bots.observer import observe
greedy, mc = make("greedy"), make("mc", playouts=6, budget_ms=10 ** 9)
policy, policy_mc = make("policy", sample=True), make("policy_mc", playouts=8, budget_ms=10 ** 9, confident=2.0)
for preset in PRESETS:
    rng = random.Random(7)
    st, _ = new_game(preset, None, ["a", "b", "c", "d"], 11)
    ply = 0
    while actors(st):
        seat = actors(st)[0]
        seen = observe(st, seat)
        bot = {4: mc, 6: policy, 7: policy_mc}.get(ply % 9, greedy)
        move = bot(seen.view, seen.legal, random.Random(ply), forbidden_last=seen.forbidden_last)
        print(preset, ply, sorted(move.items(), key=str))
        _, st, _ = apply(st, move)
        ply += 1
"""


def _run(code: str, **env) -> str:
    plain = {k: v for k, v in os.environ.items() if k != "REFEREE_PURE"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**plain, **env}, capture_output=True,
                         text=True, timeout=300, check=True)
    return out.stdout.strip()


WHERE = "import workers.bots, referee.compiled as c; print(c.running_compiled('workers.bots.greedy'))"


def test_this_build_runs_the_bots_compiled_where_it_compiled_them():
    if not compiled.group().compiled_modules():
        pytest.skip("the bots were not compiled in this install (no C compiler or mypyc at build time)")
    assert compiled.group().usable() or os.environ.get("REFEREE_PURE"), \
        "compiled bot modules whose sources changed since: rebuild (pip install -e .)"
    assert _run(WHERE) == "True"
    assert _run(WHERE, REFEREE_PURE="1") == "False"


def test_compiled_bots_choose_as_the_pure_python_ones():
    if not compiled.group().compiled_modules():
        pytest.skip("the bots were not compiled in this install: every bot test runs them as pure Python")
    pure = _run(CHOICES, REFEREE_PURE="1").splitlines()
    assert len(pure) > 100
    assert _run(CHOICES).splitlines() == pure


def test_the_bots_run_compiled_only_where_the_engine_does(tmp_path, monkeypatch):
    """The bots are compiled into the engine's library and call its compiled code directly: a stale engine source
    (the engine then runs from its sources) turns the compiled bots off too, whatever their own stamp says."""
    import hashlib
    import json

    from referee.compiled import STAMP, Group

    def package(name: str, modules: tuple):
        directory = tmp_path / name
        directory.mkdir()
        for module in modules:
            (directory / f"{module}.py").write_text(f"NAME = {module!r}\n")
            (directory / f"{module}.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
        (directory / STAMP).write_text(json.dumps({m: hashlib.sha256((directory / f"{m}.py").read_bytes()).hexdigest()
                                                   for m in modules}))
        return directory

    monkeypatch.delenv("REFEREE_PURE", raising=False)
    engine_dir, bots_dir = package("engine", ("legal", "play")), package("bots", ("greedy",))
    engine = Group("engine", engine_dir, ("legal", "play"))
    bots = Group("bots", bots_dir, ("greedy",), needs=engine)
    assert engine.usable() and bots.usable()
    (engine_dir / "legal.py").write_text("NAME = 'legal, edited'\n")
    assert not engine.usable() and not bots.usable()
    assert Group("bots", bots_dir, ("greedy",)).usable()  # its own stamp alone would have said yes
