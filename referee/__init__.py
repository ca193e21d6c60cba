"""daifugo-referee's rules engine: pure functions over immutable data (docs/engine-api.md)."""
from .annotate import annotate, forbidden_last
from .deals import correct_hands, new_game
from .engine import actors, advance, apply, judge, next_deal
from .errors import InputError
from .legal import covers, instantiate, legal_moves
from .replay import replay
from .ruleset import build_ruleset, catalog
from .serialize import redact_event, state_from_json, state_to_json

__all__ = ["new_game", "correct_hands", "next_deal", "judge", "apply", "advance", "legal_moves", "annotate", "forbidden_last",
           "instantiate", "covers", "actors", "replay", "state_to_json", "state_from_json", "redact_event", "catalog",
           "build_ruleset", "InputError"]
