"""The learned policy (workers/bots/features.py, policy.py, train_policy.py): its features see only the seat, its
weights load and give a distribution over the legal moves, and training is deterministic."""
import json
import random

import pytest

from referee import actors, apply, instantiate, new_game, next_deal
from workers.bots import make, policy, train_policy
from workers.bots.features import NAMES, SIZE, deck_of, features, situation_of_state, situation_of_view
from workers.bots.observer import facts_of_view, observe, turn

from .test_games import _random_switches


def test_every_feature_is_named_once_and_documented():
    assert len(NAMES) == SIZE == len(set(NAMES))
    import ast
    from pathlib import Path

    import workers.bots
    source = (Path(workers.bots.__file__).parent / "features.py").read_text()  # compiled, a module has no __doc__
    table = ast.get_docstring(ast.parse(source))
    for name in NAMES:
        assert f"``{name}``" in table, name


@pytest.mark.parametrize("preset", ["uecda", "nanko", "gekifugo"])
def test_the_features_of_a_view_are_those_of_the_state(preset):
    """What a bot is given (its view and annotated legal moves) and the engine state a playout holds give the same
    features at every turn of random games, with and without rule switches."""
    rng = random.Random(preset)
    greedy = make("greedy")
    turns = 0
    for game in range(4):
        st, _ = new_game(preset, _random_switches(preset, rng) if game % 2 else None, ["a", "b", "c", "d"], game)
        deck = deck_of(st.rules.jokers)
        while actors(st):
            s = actors(st)[0]
            seen = observe(st, s)
            if not st.pending:
                shown = facts_of_view(seen.view, seen.legal, seen.forbidden_last).turn
                rows = features(shown, situation_of_view(seen.view, s, deck))
                assert rows == features(turn(st, s, st.left(s) <= 6), situation_of_state(st, s, deck))
                assert len(rows) == len(seen.legal) and all(len(r) == SIZE for r in rows)
                turns += 1
            move = greedy(seen.view, seen.legal, rng, forbidden_last=seen.forbidden_last) if rng.random() < 0.7 \
                else rng.choice(seen.legal)
            _, st, _ = apply(st, instantiate(move, rng))
    assert turns > 100


def test_the_committed_weights_load_and_give_a_distribution_over_the_legal_moves():
    weights = policy.load()
    assert weights.version >= 1 and weights.trained.get("command", "").startswith("python -m workers.bots.train_policy")
    assert policy.WEIGHTS.stat().st_size < 100_000
    rng = random.Random(3)
    checked = {"turn": 0, "decision": 0}
    for preset in ("uecda", "nanko", "gekifugo"):
        st, _ = new_game(preset, None, ["a", "b", "c", "d"], 8)
        for _ in range(2):
            while actors(st):
                s = actors(st)[0]
                seen = observe(st, s)
                probs = policy.probabilities(seen.view, seen.legal, seen.forbidden_last)
                assert len(probs) == len(seen.legal) and abs(sum(probs) - 1.0) < 1e-9
                assert all(0.0 <= p <= 1.0 for p in probs)
                checked["decision" if st.pending else "turn"] += 1
                _, st, _ = apply(st, instantiate(rng.choice(seen.legal), rng))
            st, _ = next_deal(st)
    assert checked["turn"] > 50 and checked["decision"] > 0


def test_a_way_out_is_always_taken():
    from tests.bots.scenarios import game, only
    st = game("uecda", [["S3", "H3"], ["S4", "SQ", "HK"], ["H5", "HA"], ["D6", "DQ"]], only("uecda"))
    seen = observe(st, 0)
    probs = policy.probabilities(seen.view, seen.legal, seen.forbidden_last)
    out = [i for i, m in enumerate(seen.legal) if sorted(m.get("cards", ())) == ["H3", "S3"]]
    assert probs[out[0]] == 1.0
    assert sorted(policy.PolicyBot()(seen.view, seen.legal, random.Random(0))["cards"]) == ["H3", "S3"]


TINY = ["--seed", "5", "--positions", "12", "--label-playouts", "2", "--steps", "30", "--rounds", "1", "--deals", "3",
        "--eval-deals", "2", "--match-deals", "2"]


def test_retraining_a_tiny_model_on_one_seed_gives_the_same_weights(tmp_path):
    first, _ = train_policy.train(train_policy.parser().parse_args(TINY))
    again, _ = train_policy.train(train_policy.parser().parse_args(TINY))
    assert first.weights == again.weights
    assert any(w != 0.0 for w in first.weights)
    out = tmp_path / "tiny.json"
    assert train_policy.main([*TINY, "--out", str(out)]) == 0
    written = policy.from_json(json.loads(out.read_text()))
    assert written.weights == [round(w, 6) for w in first.weights]
    assert written.trained["command"] == "python -m workers.bots.train_policy " + " ".join([*TINY, "--out", str(out)])
