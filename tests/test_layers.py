"""The service names bot strategies without importing the workers; both lists must agree."""
from service.scheduler import BOT_STRATEGIES
from workers import bots


def test_service_knows_every_worker_strategy():
    assert sorted(BOT_STRATEGIES) == bots.names()


def test_service_knows_which_strategies_search():
    from service.backpressure import DECISION_MS, SEARCHES
    assert SEARCHES == bots.SEARCHES
    assert sorted(SEARCHES + tuple(DECISION_MS)) == bots.names()  # every strategy is priced one way or the other
    from service.settings import MC_DEFAULT_BUDGET_MS
    assert all(bots.get(name).budget_ms == MC_DEFAULT_BUDGET_MS for name in SEARCHES)  # one served budget for both
