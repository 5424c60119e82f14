"""The statistics of a tournament: Wilson intervals of win rates, normal intervals of
means, and an Elo ladder fitted by maximum likelihood (Bradley–Terry).

Pure arithmetic on results; nothing of belote's rules (docs/rules.md) lives here.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

__all__ = [
    "DEFAULT_PRIOR",
    "ELO_SCALE",
    "Z95",
    "Estimate",
    "expected_score",
    "fit_elo",
    "mean_estimate",
    "rate_estimate",
    "wilson_interval",
]

Z95: Final = statistics.NormalDist().inv_cdf(0.975)  # 1.959963984540054
ELO_SCALE: Final = 400.0  # Elo points per factor 10 of strength
DEFAULT_PRIOR: Final = 1.0  # virtual drawn games per pairing in the Elo fit


@dataclass(frozen=True)
class Estimate:
    """A value and its 95% interval (``low``/``high`` are None when there is too little data)."""

    value: float
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, float | None]:
        return {"value": self.value, "low": self.low, "high": self.high}


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    ``successes`` may hold halves (ties counted half).

    >>> lo, hi = wilson_interval(5, 10)
    >>> round(lo, 4), round(hi, 4)
    (0.2366, 0.7634)
    """
    if n <= 0:
        raise ValueError(f"wilson_interval: n = {n!r}: at least one trial is needed")
    if not 0 <= successes <= n:
        raise ValueError(f"wilson_interval: successes = {successes!r} is not within 0..{n}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def rate_estimate(successes: float, n: int) -> Estimate:
    """The proportion ``successes / n`` and its Wilson interval."""
    low, high = wilson_interval(successes, n)
    return Estimate(successes / n, low, high)


def mean_estimate(values: Sequence[float], z: float = Z95) -> Estimate:
    """The mean and its normal-approximation interval ``mean ± z·s/√n``."""
    if not values:
        raise ValueError("mean_estimate: no values")
    mean = math.fsum(values) / len(values)
    if len(values) < 2:
        return Estimate(mean, None, None)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return Estimate(mean, mean - half, mean + half)


def fit_elo(
    names: Sequence[str],
    results: Iterable[tuple[int, int, float]],
    *,
    anchor: int = 0,
    prior: float = DEFAULT_PRIOR,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> list[float]:
    """Elo ratings by a maximum-likelihood Bradley–Terry fit.

    ``results`` holds ``(i, j, score)``: one game of player ``i`` against player
    ``j``, ``score`` being 1 (i won), 0 (j won) or 0.5 (a draw).  ``prior`` adds
    that many virtual drawn games to every pair that met, which keeps the
    ratings finite when one player won every game.  The fit is the MM iteration
    of Hunter (2004); ratings are ``400·log10(strength)``, shifted so that
    player ``anchor`` stands at 0.  The expected score of ``i`` against ``j`` is
    ``1 / (1 + 10 ** ((elo[j] - elo[i]) / 400))``.
    """
    n = len(names)
    if not 0 <= anchor < n:
        raise ValueError(f"fit_elo: anchor {anchor!r} is not one of {n} players")
    if prior < 0:
        raise ValueError(f"fit_elo: prior {prior!r} is negative")
    games = [[0.0] * n for _ in range(n)]
    wins = [0.0] * n
    for i, j, score in results:
        if i == j or not (0 <= i < n and 0 <= j < n):
            raise ValueError(f"fit_elo: result {(i, j, score)!r} does not name two players")
        if not 0 <= score <= 1:
            raise ValueError(f"fit_elo: score {score!r} is not within 0..1")
        games[i][j] += 1
        games[j][i] += 1
        wins[i] += score
        wins[j] += 1 - score
    if prior:
        for i in range(n):
            for j in range(n):
                if i != j and games[i][j]:
                    games[i][j] += prior
                    wins[i] += prior / 2
    for i in range(n):
        if not any(games[i]):
            raise ValueError(f"fit_elo: {names[i]!r} played no game")
        if wins[i] <= 0 or wins[i] >= sum(games[i]):
            raise ValueError(
                f"fit_elo: {names[i]!r} {'lost' if wins[i] <= 0 else 'won'} every game: "
                "the maximum-likelihood rating is infinite (use a prior > 0)"
            )
    strength = [1.0] * n
    for _ in range(max_iter):
        new = [
            wins[i] / math.fsum(
                games[i][j] / (strength[i] + strength[j]) for j in range(n) if games[i][j]
            )
            for i in range(n)
        ]
        scale = math.exp(math.fsum(math.log(s) for s in new) / n)
        new = [s / scale for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tol:
            break
    base = math.log10(strength[anchor])
    return [ELO_SCALE * (math.log10(s) - base) for s in strength]


def expected_score(elo_i: float, elo_j: float) -> float:
    """The expected score of a player rated ``elo_i`` against one rated ``elo_j``."""
    return 1.0 / (1.0 + math.pow(10.0, (elo_j - elo_i) / ELO_SCALE))
