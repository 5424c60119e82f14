"""How far the takers' real card points fall from the deal's double-dummy value at a
table of three or two: what the bidding search's ``bid_caution`` stands for.

Seeded deals of a small table's mode; every seat calls as the heuristic, and each deal
that gets a taker is solved double dummy for the takers' points of the whole deal as
dealt (:meth:`belote.bots.small_bid.SmallBidSearch.solve`, the last trick's 10
included), then played by the bots given (``--taker`` at the taker's seat, ``--defence``
at the others).  Prints the mean of the takers' real points less the solve's, its
spread and its 95% interval: a positive mean is a caution below zero.  The kitty's deal
is left out (its solve is slow and the discard differs).

    .venv/bin/python benchmarks/bid_caution.py --taker pimc --defence heuristic \\
        [--profile classic-3p] [--option three_deal=six_each] [--deals 40] [--seed 20000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from belote.bots import make_bot, play_deal
from belote.bots.heuristic import HeuristicBot
from belote.bots.small_bid import SmallBidSearch, SmallWorld
from belote.deal import new_deck
from belote.errors import BeloteError
from belote.options import Rules, make_rules, parse_option_assignment
from belote.round import BIDDING, PlayerView, Round
from belote.table import DealMode, Table


def seeded_deal(rules: Rules, seed: int, n: int) -> tuple[Round, PlayerView, SmallWorld]:
    """Deal ``n`` of ``seed``: the deck shuffled and the dealer drawn by
    ``Random(seed + n)``; the round, its first view (the bidding's) and the first cards
    dealt (the hands and the stock) as the bidding search's world."""
    rng = random.Random(seed + n)
    deck = new_deck(rules.players, rules.three_deal)
    rng.shuffle(deck)
    rnd = Round(rules, rng.randrange(rules.players), deck)
    assert rnd.first is not None
    return rnd, rnd.view(), SmallWorld(tuple(rnd.first.hands), tuple(rnd.first.stock))


def taken(taker: str, defence: str, profile: str, options: dict[str, Any], deals: int,
          seed: int) -> list[tuple[int, int]]:
    """Per deal taken (``deals`` of them, the deal of ``seed + n`` for n = 1, 2, ...), the
    takers' real card points and the solve's (the last trick's 10 included, a capot's
    100 left out)."""
    rules = make_rules(profile, options)
    if rules.players == 4 or Table.of(rules).mode in (DealMode.KITTY, DealMode.DECOUVERTE):
        raise BeloteError("a table of three or two whose deal has a turned card: 24_cards, "
                          "six_each or stock")
    caller = HeuristicBot(0)
    out: list[tuple[int, int]] = []
    n = 0
    while len(out) < deals:
        n += 1
        rnd, first, world = seeded_deal(rules, seed, n)
        while rnd.phase is BIDDING:
            rnd.call(caller.call(rnd.view()))
        if rnd.contract is None:
            continue
        seat, trump = rnd.contract.taker, rnd.contract.trump
        search = SmallBidSearch(first, worlds=1, nodes=1, min_worlds=1, caution=0,
                                hints=False, rollout=False)
        solved, _ = search.solve(world, trump, seat, 10**12)
        side = search.table.sides(seat)[seat]
        total = solved.cards + 10
        dd = solved.ns if side == 0 else total - solved.ns
        bots = [make_bot(taker if s == seat else defence, seed + n * 7 + s)
                for s in range(rules.players)]
        play_deal(rnd, bots)
        out.append((min(rnd.trick_points[side], total), min(dd, total)))
    return out


def gaps(taker: str, defence: str, profile: str, options: dict[str, Any], deals: int,
         seed: int) -> list[int]:
    """Per deal taken, the takers' real card points less the solve's (:func:`taken`)."""
    return [real - dd for real, dd in taken(taker, defence, profile, options, deals, seed)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taker", default="pimc")
    parser.add_argument("--defence", default="heuristic")
    parser.add_argument("--profile", default="classic-3p")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20_000)
    args = parser.parse_args(argv)
    bad = [o for o in args.option if "=" not in o]
    if bad:
        print(f"error: --option {bad[0]!r}: KEY=VALUE expected", file=sys.stderr)
        return 2
    try:
        options = dict(parse_option_assignment(o) for o in args.option)
        started = time.process_time()
        found = gaps(args.taker, args.defence, args.profile, options, args.deals, args.seed)
    except BeloteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    mean = statistics.mean(found)
    spread = statistics.stdev(found) if len(found) > 1 else 0.0
    half = 1.96 * spread / len(found) ** 0.5
    print(f"{args.taker} taking against {args.defence} ({' '.join([args.profile, *args.option])}, "
          f"seed {args.seed}): {len(found)} deals, real less double dummy {mean:+.1f} "
          f"[{mean - half:+.1f}, {mean + half:+.1f}], spread {spread:.1f}; "
          f"{time.process_time() - started:.1f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
