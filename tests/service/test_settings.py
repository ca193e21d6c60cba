"""The store's and the reaper's settings come from the environment, with defaults, and a bad value says which."""
import pytest

from service.settings import Settings


def test_defaults_and_environment(monkeypatch):
    for var in ("REFEREE_REAPER_INTERVAL_S", "REFEREE_GAME_TTL_S", "REFEREE_MC_PLAYOUTS", "REFEREE_AUDIT_MAX"):
        monkeypatch.delenv(var, raising=False)
    s = Settings.from_env()
    assert (s.reaper_interval_s, s.reaper_grace_s, s.bot_max_retries) == (2.0, 5.0, 5)
    assert (s.game_ttl_s, s.game_ttl_over_s, s.audit_max, s.idempotency_keys) == (604800, 86400, 1000, 200)
    assert s.fault_pause_after_append_s == 0 and s.mc_playouts is None
    monkeypatch.setenv("REFEREE_REAPER_INTERVAL_S", "0.5")
    monkeypatch.setenv("REFEREE_GAME_TTL_S", "3600")
    monkeypatch.setenv("REFEREE_MC_PLAYOUTS", "1000")
    s = Settings.from_env()
    assert (s.reaper_interval_s, s.game_ttl_s, s.mc_playouts) == (0.5, 3600, 1000)
    assert isinstance(s.game_ttl_s, int)


def test_a_bad_value_names_the_variable(monkeypatch):
    monkeypatch.setenv("REFEREE_AUDIT_MAX", "lots")
    with pytest.raises(ValueError, match="REFEREE_AUDIT_MAX"):
        Settings.from_env()
