"""What a deal brings each seat at a table of three: the figures of
:data:`belote.bots.bid_search.SEAT_DEAL_POINTS` (the game outlook of pimc
``objective=game`` at three players, §12.1).

Seeded deals of each deal mode, the heuristic at every seat, a deal thrown in counted
as 0 for every seat.  Prints per mode the deals, those thrown in, the mean of a seat's
score and two spreads: the standard deviation of a seat's score, and that of the
difference of two seats' scores over √2 (the one the outlook uses: the seats' scores in
a deal are not independent).

    .venv/bin/python benchmarks/seat_deal_points.py [--deals 2000] [--seed 7400]
"""

from __future__ import annotations

import argparse
import random
import statistics

from belote.bots import make_bot
from belote.bots.base import play_deal
from belote.options import ThreeDeal, make_rules
from belote.round import ALL_PASS, Round
from belote.table import Table


def measure(mode: ThreeDeal, deals: int, seed: int) -> tuple[int, float, float, float]:
    """(deals thrown in, mean, spread of a seat's score, spread of a difference / √2)."""
    rules = make_rules("classic-3p", {"three_deal": mode.value})
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    scores: list[int] = []
    diffs: list[int] = []
    thrown = 0
    for k in range(deals):
        deck = list(Table.of(rules).deck)
        rng.shuffle(deck)
        rnd = Round(rules, k % 3, deck)
        play_deal(rnd, bots)
        if rnd.phase is ALL_PASS:
            thrown += 1
            seats: tuple[int, ...] = (0, 0, 0)
        else:
            got = rnd.result().seats
            assert got is not None
            seats = got
        scores += seats
        diffs += [seats[i] - seats[(i + 1) % 3] for i in range(3)]
    return (thrown, statistics.mean(scores), statistics.pstdev(scores),
            statistics.pstdev(diffs) / 2 ** 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7400)
    args = parser.parse_args()
    for mode in ThreeDeal:
        thrown, mean, spread, diff = measure(mode, args.deals, args.seed)
        print(f"{mode.value}: {args.deals} deals, {thrown} thrown in, a seat's score "
              f"{mean:.1f} on average, spread {spread:.1f}, a difference's / √2 {diff:.1f}")


if __name__ == "__main__":
    main()
