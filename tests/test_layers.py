"""The service names bot strategies without importing the workers; both lists must agree."""
from service.scheduler import BOT_STRATEGIES
from workers import bots


def test_service_knows_every_worker_strategy():
    assert sorted(BOT_STRATEGIES) == bots.names()
