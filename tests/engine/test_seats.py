"""Seat counts per preset (RULES.md §8; issue 29 item 10): nanko is played by 3 to 6 players, uecda and gekifugo by
2 to 8; another count is refused with bad_seat_count naming the preset and the range."""
import pytest

from referee import InputError, catalog, new_game
from referee.presets import PRESETS, SEATS


def names(n):
    return [f"p{i}" for i in range(n)]


@pytest.mark.parametrize("n", [2, 7, 8])
def test_nanko_refuses_two_seven_or_eight_players_naming_the_preset_and_the_range(n):
    with pytest.raises(InputError) as e:
        new_game("nanko", None, names(n), seed=1)
    assert e.value.code == "bad_seat_count"
    assert "nanko" in e.value.message and "3 to 6" in e.value.message and f"not {n}" in e.value.message


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_nanko_is_played_by_three_to_six(n):
    st, _ = new_game("nanko", None, names(n), seed=1)
    assert len(st.players) == n


def test_the_seat_count_belongs_to_the_preset_not_to_its_rules():
    # nanko with every rule switched to uecda's is still nanko's table; uecda with nanko's rules still seats 2
    with pytest.raises(InputError, match="nanko is played by 3 to 6"):
        new_game("nanko", {rid: False for rid in PRESETS["nanko"]}, names(2), seed=1)
    st, _ = new_game("uecda", {rid: p or True for rid, p in PRESETS["nanko"].items()}, names(2), seed=1)
    assert len(st.players) == 2


def test_a_table_mode_nanko_game_keeps_to_the_seats_too():
    with pytest.raises(InputError, match="nanko is played by 3 to 6"):
        new_game("nanko", None, names(2), table=True, leader=0)
    st, _ = new_game("nanko", None, names(3), table=True, leader=0)
    assert len(st.players) == 3


@pytest.mark.parametrize("preset", ["uecda", "gekifugo"])
def test_uecda_and_gekifugo_keep_two_to_eight(preset):
    for n in (2, 8):
        st, _ = new_game(preset, None, names(n), seed=1)
        assert len(st.players) == n
    for n in (1, 9):
        with pytest.raises(InputError) as e:
            new_game(preset, None, names(n), seed=1)
        assert e.value.code == "bad_seat_count" and f"{preset} is played by 2 to 8" in e.value.message


def test_players_that_are_no_list_are_bad_players():
    with pytest.raises(InputError) as e:
        new_game("uecda", None, "p0 p1", seed=1)
    assert e.value.code == "bad_players"


def test_the_catalog_serves_each_presets_seats():
    seats = catalog()["seats"]
    assert seats == {"uecda": {"min": 2, "max": 8}, "nanko": {"min": 3, "max": 6}, "gekifugo": {"min": 2, "max": 8}}
    assert set(seats) == set(PRESETS) == set(SEATS)
