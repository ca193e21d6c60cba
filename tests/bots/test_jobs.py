"""The RQ job hands a bot its seat view, the legal moves and its redacted history, within the time budget."""
import time
from types import SimpleNamespace

from referee import apply, new_game

from workers import bots, jobs


class FakeService:
    """Just what workers.jobs.play uses of api.service.GameService, in memory."""

    def __init__(self, state, events, seat_bots):
        self.st, self.log, self.bots, self.proposed = state, list(events), seat_bots, []
        self.store = SimpleNamespace(events=lambda gid: list(self.log))

    def load(self, gid):
        return SimpleNamespace(seq=self.st.seq, bots=self.bots)

    def state_of(self, rec):
        return self.st

    def propose(self, gid, move, viewer, expected_seq):
        assert viewer == move["seat"] and expected_seq == self.st.seq
        verdict, self.st, evs = apply(self.st, move)
        self.log += evs
        self.proposed.append(move)
        return (200 if verdict.legal else 422), {"seq": self.st.seq, "verdict": verdict.to_json()}


def test_an_mc_bot_turn_is_played_within_its_budget_and_sees_only_its_seat(monkeypatch):
    seen = []
    real = bots.STRATEGIES["mc"]

    class Recorder:
        uses_history = True

        def __call__(self, view, legal, rng, history=None):
            seen.append((view, history))
            return real(view, legal, rng, history=history)

    monkeypatch.setitem(bots.STRATEGIES, "mc", Recorder())
    st, events = new_game("nanko", None, ["a", "b", "c", "d"], seed=8)
    svc = FakeService(st, events, ["mc"] * 4)
    for _ in range(6):
        seq = svc.st.seq
        t0 = time.perf_counter()
        out = jobs.play(svc, "g", seq)
        assert out["status"] == "applied", out
        assert time.perf_counter() - t0 < real.budget_ms / 1000 + 1.0
    assert seen
    for view, history in seen:
        assert sum(p["hand"] is not None for p in view["players"]) == 1
        assert history and history[0]["type"] == "game_created" and history[0]["seed"] is None


def test_the_random_bot_still_plays_through_the_job():
    st, events = new_game("uecda", None, ["a", "b", "c", "d"], seed=9)
    svc = FakeService(st, events, ["random"] * 4)
    assert jobs.play(svc, "g", svc.st.seq)["status"] == "applied"
    assert jobs.play(svc, "g", svc.st.seq - 1)["status"] == "superseded"
