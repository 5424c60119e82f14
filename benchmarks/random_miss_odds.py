"""The card model's misses in a world drawn at random, per table size: the figure that
``pimc:read_fit=table`` divides by (:data:`belote.bots.pimc_config.RANDOM_MISS_ODDS`).

Deals are played by heuristic bots at every seat (seeded); in each deal, every seat's
view at the start of its turn in tricks 4 and 6 draws one world uniformly among those
its knowledge allows (the voids, and at two and three players the cards out of play:
:class:`belote.bots.sampling.DealSampler`), and the model
(:class:`belote.bots.card_model.PlayModel`, the heuristic's card play at that table)
reads the seats ``pimc`` reads there (the opponents at four players, every other seat at
two and three): the cards it would not have played in that world are the misses.
Reported: the misses over the cards read (each a choice: forced cards are not read),
the share and its odds (share over one less the share).  Run:

    .venv/bin/python benchmarks/random_miss_odds.py --profile classic-2p --deals 40 \\
        [--option three_deal=kitty] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from belote.bots import Bot, make_bot
from belote.bots.base import next_action
from belote.bots.card_model import PlayModel
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import infer
from belote.bots.sampling import DealSampler
from belote.deal import new_deck
from belote.options import Rules, make_rules, parse_option_assignment
from belote.round import BIDDING, DISCARD, PLAY, Round
from belote.table import Table

TRICKS = (3, 5)  # tricks done at the views asked: the 4th and the 6th trick


def count(rules: Rules, deals: int, seed: int) -> tuple[int, int]:
    """The misses and the cards read over ``deals`` deals of heuristic bots."""
    table = Table.of(rules)
    rng = random.Random(seed)
    model_bot = HeuristicBot(0)
    misses = reads = 0
    done = 0
    d = 0
    while done < deals:
        deck = new_deck(rules.players, rules.three_deal)
        rng.shuffle(deck)
        rnd = Round(rules, d % rules.players, deck)
        d += 1
        bots: list[Bot] = [make_bot("heuristic", s) for s in range(rules.players)]
        while rnd.phase is BIDDING or rnd.phase is DISCARD:
            seat = rnd.current_player()
            rnd.apply(next_action(bots[seat], rnd.view(seat)))
        if rnd.phase is not PLAY:
            continue  # (nobody took)
        done += 1
        while rnd.phase is PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            if len(view.tricks) in TRICKS:
                assert view.contract is not None
                sides = table.sides(view.contract.taker)
                read = [s for s in table.seats if s != seat
                        and (table.players < 4 or sides[s] != sides[seat])]
                model = PlayModel(view, read, table, model_bot)
                world = DealSampler(infer(view)).sample(rng)
                misses += model.misses(world, table.tricks * table.players)
                reads += sum(1 for _ in model.views(world))
            rnd.apply(next_action(bots[seat], view))
    return misses, reads


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="classic-2p")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    options = dict(parse_option_assignment(o) for o in args.option)
    rules = make_rules(args.profile, options)
    began = time.process_time()
    misses, reads = count(rules, args.deals, args.seed)
    share = misses / reads
    print(f"{args.profile} {options or ''} seed {args.seed}, {args.deals} deals: "
          f"{misses} of {reads} cards missed, {share:.1%}, odds {share / (1 - share):.3f} "
          f"({time.process_time() - began:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
