"""Scoring of finished deals: UECda points and the mean place with its 95% interval.

One implementation for every caller: the UECda bridge's match tally (uecda/match.py), in-process tournaments
and leagues on a server (workers/tournament.py, workers/league.py), and the recent results the server keeps
per registered bot (service/bot_accounts.py).
"""
from __future__ import annotations

import math

# UECda (the computer Daifugō contest) gives 5, 4, 3, 2, 1 points to the classes 大富豪, 富豪, 平民, 貧民, 大貧民
# of its five-seat table: the place's points are the number of seats it beat plus one.
Z95 = 1.96  # the normal approximation's 95% quantile


def uecda_points(place: int, seats: int) -> int:
    """The UECda points of ``place`` (1 = first) at a table of ``seats``: ``seats + 1 - place``, so first
    place scores ``seats`` and last place 1 (at UECda's five seats exactly its 5, 4, 3, 2, 1)."""
    if not 1 <= place <= seats:
        raise ValueError(f"place {place} is not a place at a table of {seats}")
    return seats + 1 - place


def mean_ci95(xs: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``xs`` with its 95% confidence interval, normal approximation
    (1.96 · sample sd / √n); a single value has an interval of zero width."""
    k = len(xs)
    if k == 0:
        raise ValueError("no values")
    mean = sum(xs) / k
    if k == 1:
        return mean, mean, mean
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (k - 1))
    half = Z95 * sd / math.sqrt(k)
    return mean, mean - half, mean + half


def standing(places: list[int], seats: list[int], forbidden: int = 0) -> dict:
    """One entrant's line of a tournament or league: ``places[i]`` at a table of ``seats[i]``.

    deals, mean place with its 95% interval, share of first places, UECda points (total, mean) and
    forbidden finishes; numbers rounded to 3 places. The interval is clipped to the places there are (1 to the
    largest table): the normal approximation overshoots them when nearly every place is the same."""
    k = len(places)
    mean, low, high = mean_ci95([float(p) for p in places])
    low, high = max(1.0, low), min(float(max(seats)), high)
    points = sum(uecda_points(p, n) for p, n in zip(places, seats))
    return {"deals": k, "mean_place": round(mean, 3), "ci95": [round(low, 3), round(high, 3)],
            "first_share": round(sum(1 for p in places if p == 1) / k, 3), "points": points,
            "mean_points": round(points / k, 3), "forbidden_finishes": forbidden}
