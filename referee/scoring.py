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


def mean_ci95(xs: list[float], groups: list | None = None) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``xs`` with its 95% confidence interval, normal approximation (1.96 standard
    errors); a single value has an interval of zero width.

    ``groups`` (one label per value: the match a deal was played in) says which values may depend on each other:
    the deals of one match do (in nanko a deal's loser gives its best cards and tends to lose again, in gekifugo a
    deal's winner tends to fall), so the standard error is the cluster-robust one over the groups,
    √(G/(G−1) · Σ_g (S_g − n_g·mean)²) / n for G groups, where S_g sums the n_g values of group g. Every value in
    a group of its own (no ``groups``) gives the usual sample sd / √n; a single group, which says nothing of how
    groups differ, is read that way too."""
    k = len(xs)
    if k == 0:
        raise ValueError("no values")
    mean = sum(xs) / k
    if k == 1:
        return mean, mean, mean
    sums: dict = {}
    sizes: dict = {}
    for i, x in enumerate(xs):
        g = i if groups is None else groups[i]
        sums[g] = sums.get(g, 0.0) + x
        sizes[g] = sizes.get(g, 0) + 1
    if len(sums) == 1:
        return mean_ci95(xs)
    spread = sum((sums[g] - sizes[g] * mean) ** 2 for g in sums)
    half = Z95 * math.sqrt(spread * len(sums) / (len(sums) - 1)) / k
    return mean, mean - half, mean + half


def standing(places: list[int], seats: list[int], forbidden: int = 0, matches: list | None = None) -> dict:
    """One entrant's line of a tournament or league: ``places[i]`` at a table of ``seats[i]``, in the match
    ``matches[i]`` (the interval's groups: ``mean_ci95``).

    deals, mean place with its 95% interval, share of first places, UECda points (total, mean) and
    forbidden finishes; numbers rounded to 3 places. The interval is clipped to the places there are (1 to the
    largest table): the normal approximation overshoots them when nearly every place is the same."""
    k = len(places)
    mean, low, high = mean_ci95([float(p) for p in places], matches)
    low, high = max(1.0, low), min(float(max(seats)), high)
    points = sum(uecda_points(p, n) for p, n in zip(places, seats))
    return {"deals": k, "mean_place": round(mean, 3), "ci95": [round(low, 3), round(high, 3)],
            "first_share": round(sum(1 for p in places if p == 1) / k, 3), "points": points,
            "mean_points": round(points / k, 3), "forbidden_finishes": forbidden}
