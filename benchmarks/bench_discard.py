"""Think time of the PIMC bot's searched kitty discard, and how often it differs from
the discard rule's (three players, ``kitty`` deal, docs/rules.md §12.1).

Seeded kitty deals are bid by the heuristic at every seat; at each deal that reaches
the discard, ``--bot`` (default ``pimc:discard=search``) lays aside as the taker: its
CPU time (``process_time``), the worlds solved, and whether its pair is the rule's
(:func:`belote.bots.base.discard_of`).  Prints the median and the maximum CPU, the
worlds, the count unlike the rule's, the count with too few worlds solved (the rule's
pair kept), and the load average (``uptime``).  Run:

    .venv/bin/python benchmarks/bench_discard.py [--deals N] [--seed S] [--bot SPEC]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import time

from belote.bots import make_bot
from belote.bots.base import discard_of, discard_trump, next_action
from belote.bots.pimc import PimcBot
from belote.deal import new_deck
from belote.options import make_rules
from belote.round import BIDDING, DISCARD, Round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7601)
    parser.add_argument("--bot", default="pimc:discard=search")
    args = parser.parse_args()
    rules = make_rules("classic-3p", {"three_deal": "kitty"})
    rng = random.Random(args.seed)
    callers = [make_bot("heuristic", seed=s) for s in range(3)]
    bot = make_bot(args.bot, seed=args.seed)
    assert isinstance(bot, PimcBot)
    cpu: list[float] = []
    worlds: list[int] = []
    changed = short = 0
    config = bot.small_configs[3]
    least = config.discard_min_worlds or config.bid_min_worlds  # fewer: the rule's pair
    for d in range(args.deals):
        deck = new_deck(3, rules.three_deal)
        rng.shuffle(deck)
        rnd = Round(rules, d % 3, deck)
        while rnd.phase is BIDDING:
            seat = rnd.current_player()
            rnd.apply(next_action(callers[seat], rnd.view(seat)))
        if rnd.phase is not DISCARD:
            continue
        view = rnd.view(rnd.current_player())
        start = time.process_time()
        pair = bot.discard(view)
        cpu.append(time.process_time() - start)
        worlds.append(bot.last_discard_worlds)
        short += bot.last_discard_worlds < least
        changed += sorted(pair) != discard_of(view.hand, discard_trump(view))
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"{args.bot}: {len(cpu)} discards of {args.deals} deals (seed {args.seed})")
    if cpu:
        print(f"CPU a discard: median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s, "
              f"mean {statistics.mean(cpu):.3f} s")
        print(f"worlds: median {statistics.median(worlds)}, min {min(worlds)}, "
              f"max {max(worlds)}")
        print(f"unlike the rule's pair: {changed} of {len(cpu)}; fewer than {least} worlds "
              f"solved (the rule's pair): {short}")
    print(f"load: {load}")


if __name__ == "__main__":
    main()
