"""PLAY_ONLY rules (their after_play reads only the play, the order in force and the revolution threshold) answer
alike at every state that shares those: play._fired memoises their answers across states on that claim. A rule
with FIRES_ON_RANK answers nothing for a play that does not read that rank: play._fired does not ask it then."""
import random

from referee import actors, advance, instantiate, new_game
from referee.candidates import candidates
from referee.legal import options
from referee.presets import PRESETS
from referee.rules import RULES
from referee.rules.base import PlayContext
from referee.shapes import readings

from .test_properties import SWITCHABLE


def positions(preset, rules, seed, plies=400):
    """States of a random game, every few plies."""
    rng = random.Random(seed)
    st = new_game(preset, rules, ["a", "b", "c", "d"], seed)[0]
    out = []
    for ply in range(plies):
        acting = actors(st)
        if not acting:
            break
        if ply % 3 == 0:
            out.append(st)
        move = rng.choice(options(st, rng.choice(acting)))
        st = advance(st, instantiate(move, rng) if isinstance(move, dict) else move)
    return out


def test_play_only_modules_exist():
    flagged = {m.ID for m in RULES.values() if getattr(m, "PLAY_ONLY", False)}
    assert {"eight_cut", "revolution", "jack_back", "spade3"} <= flagged
    assert not flagged & {"suit_lock", "partial_suit_lock", "rank_lock"}  # they read the field and the locks


def test_play_only_hooks_answer_alike_across_states():
    rng = random.Random(5)
    setups = [(p, None) for p in PRESETS] + [("gekifugo", {rid: False for rid in rng.sample(sorted(SWITCHABLE), 4)})
                                             for _ in range(3)]
    checked = quiet = 0
    for i, (preset, rules) in enumerate(setups):
        states = [st for seed in range(3) for st in positions(preset, rules, 100 * i + seed)]
        hooks = [(m, p) for m, p in states[0].rules.play_hooks if getattr(m, "PLAY_ONLY", False)]
        by_context: dict = {}
        for st in states:
            seat = st.turn if st.turn is not None else 0
            hand = st.players[seat].hand
            for mask in sorted(candidates(hand, st.rules))[:40]:
                for reading in readings(mask, st.rules.shapes, st.rules.min_stairs):
                    for special in (None, "spade3", "attach_revolution", "sandstorm"):
                        for declined in (frozenset(), frozenset({"jack_back"})):
                            field = st.field.reading if st.field else None
                            ctx = PlayContext(st, seat, reading, field, st.reversed, frozenset(), declined, special, 3)
                            key = (reading, special, declined, st.reversed, st.revolution_min)
                            answers = tuple(tuple(m.after_play(ctx, p)) for m, p in hooks)
                            assert by_context.setdefault(key, answers) == answers, (preset, key)
                            for (m, _), answer in zip(hooks, answers):
                                if hasattr(m, "FIRES_ON_RANK") and not reading.has_rank(m.FIRES_ON_RANK):
                                    assert answer == (), (m.ID, reading)  # play._fired does not ask it
                                    quiet += 1
                            checked += 1
    assert checked > 10_000 and quiet > 10_000
