"""daifugo-referee's rules engine: pure functions over immutable data (docs/engine-api.md)."""
from .compiled import guard

guard()  # before any engine module: compiled modules only when built from the sources as they are

from .annotate import annotate, forbidden_last  # noqa: E402
from .deals import correct_hands, new_game  # noqa: E402
from .engine import actors, advance, apply, judge, next_deal  # noqa: E402
from .errors import InputError  # noqa: E402
from .knowledge import as_known_to  # noqa: E402
from .legal import covers, instantiate, legal_moves  # noqa: E402
from .replay import replay  # noqa: E402
from .ruleset import build_ruleset, catalog  # noqa: E402
from .serialize import redact_event, state_from_json, state_to_json  # noqa: E402

__all__ = ["new_game", "correct_hands", "next_deal", "judge", "apply", "advance", "legal_moves", "annotate", "forbidden_last",
           "instantiate", "covers", "actors", "replay", "state_to_json", "state_from_json", "redact_event", "catalog",
           "build_ruleset", "as_known_to", "InputError"]
