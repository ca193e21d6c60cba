"""The three presets of RULES.md §8, as data: rule id → parameters (absent = off), and the seats each is played by."""
from .errors import InputError

UECDA: dict[str, dict] = {
    "jokers": {"count": 1},
    "first_card": {"card": "D3", "must_play": False, "every_deal": True},
    "stairs": {"min_length": 3, "compare": "above"},
    "revolution": {"min_group": 4, "min_stairs": 5},
    "eight_cut": {},
    "suit_lock": {"joker_ends": True},
    "spade3": {},
    "exchange": {"top": 2, "second": 1, "auto_ties": True},
    "pass_until_flush": {},
    "lead_pass": {},
    "pass_abort": {"turns": 20},
}

NANKO: dict[str, dict] = {
    "jokers": {"count": 2},
    "first_card": {"card": "S3", "must_play": False},
    "stairs": {"min_length": 3, "compare": "shift"},
    "revolution": {"min_group": 4, "min_stairs": 4},
    "sandstorm": {},
    "resurrection": {},
    "five_skip": {},
    "six_cut": {},
    "seven_pass": {},
    "eight_cut": {"normal_only": True},
    "nine_reverse": {"scope": "deal"},
    "ten_discard": {},
    "jack_back": {"optional": True},
    "bloody_mary": {},
    "cut_back": {},
    "suit_lock": {},
    "rank_lock": {"second_play_only": False},
    "forbidden_finish": {"joker": True, "strongest_rank": True, "cut": True, "sandstorm_exempt": True},
    "exchange": {"top": 2, "second": 1},
}

GEKIFUGO: dict[str, dict] = {
    "jokers": {"count": 2},
    "first_card": {"card": "D3", "must_play": True},
    "stairs": {"min_length": 3, "compare": "shift"},
    "skip_stairs": {},
    "double_stairs": {},
    "emperor": {},
    "skip_emperor": {},
    "revolution": {"min_group": 4, "min_stairs": 4},
    "great_revolution": {},
    "nuclear_bomb": {},
    "attach_revolution": {},
    "spade3": {},
    "seven_pass": {},
    "eight_cut": {},
    "nine_reverse": {"scope": "trick"},
    "ten_discard": {},
    "jack_back": {},
    "suit_lock": {},
    "partial_suit_lock": {},
    "rank_lock": {"second_play_only": True},
    "flush_on_finish": {},
    "declarations_required": {},
    "forbidden_finish": {"joker": True, "strongest_rank": True, "eight": True},
    "capital_fall": {},
    "gekokujo": {},
    "exchange": {"top": 2, "second": 1},
    "exchange_request": {},
    "inflation": {},
}

PRESETS = {"uecda": UECDA, "nanko": NANKO, "gekifugo": GEKIFUGO}
# The seats a preset may be played by, (fewest, most): nanko is a 3–6 player house rule (RULES.md §8, its sheet:
# プレイ人数 ３～６人); uecda and gekifugo take any table from 2 to 8 (ruleset.MAX_PLAYERS).
SEATS: dict[str, tuple[int, int]] = {"uecda": (2, 8), "nanko": (3, 6), "gekifugo": (2, 8)}


def check_seats(preset: str, players) -> None:
    """Reject a list of players whose length ``preset`` is not played by (``bad_seat_count``, naming the preset and
    the range), or that is not a list (``bad_players``)."""
    if not isinstance(players, (list, tuple)):
        raise InputError("bad_players", "players must be a list of names, one per seat")
    lo, hi = SEATS[preset]
    if not lo <= len(players) <= hi:
        raise InputError("bad_seat_count", f"{preset} is played by {lo} to {hi} players, not {len(players)} "
                         f"(GET /v1/rules: seats)")


# Seats a preset is usually played with, for tools that do not say (UECda's server plays 5).
DEFAULT_PLAYERS = {"uecda": 5, "nanko": 4, "gekifugo": 4}
# The titles of the top and bottom places, where a preset renames them (else 大富豪 and 大貧民). Titles follow the
# preset, not its rules: nanko with capital_fall switched on still calls its top 大富豪.
TITLES: dict[str, tuple] = {"gekifugo": ("檄富豪", "檄貧民")}
