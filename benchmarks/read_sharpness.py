"""How sharp each reading of the others' cards makes the PIMC bot's worlds at two and three
players: a measure of what a card play can still learn, not of strength.

Deals are played with the PIMC bot (``--bot``) at one seat and ``--opponent`` at the
others (the seat turning with the deal).  At each of the bot's card decisions with one of
``--left`` tricks left, ``--worlds`` worlds are drawn by the bot's own sampler (what its
view allows: voids, the cards face up, the stock or the kitty out of play) and weighed
four ways: alike; by the heuristic's model of the others' cards
(:class:`belote.bots.card_model.PlayModel`, ``--model-weight`` a miss); by a search of
their own (:class:`belote.bots.solved_reading.SearchModel`, ``--search-weight`` a miss,
``--search-margin``, ``--search-from``, ``--search-worlds``); and by both.  Each weighing
gives every other seat's chance to hold each card the bot has not seen; its *Brier
score* is the sum over those seats and cards of (chance − truth)², the truth being the
real deal's (0 when every card is placed for sure).  The lower, the sharper; the table
gives each reading's mean and its mean less the alike weighing's, with a 95% interval
over the decisions (normal, from their spread), and the CPU the readings took.

    .venv/bin/python benchmarks/read_sharpness.py --profile classic-2p \\
        --opponent heuristic --deals 60 --seed 4

Development seeds only: a reading that does not sharpen the worlds cannot win points.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from belote.bots import make_bot, play_deal
from belote.bots.base import BaseBot, played_by
from belote.bots.card_model import PlayModel
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import World
from belote.bots.pimc import PimcBot
from belote.bots.solved_reading import SearchModel
from belote.cards import CardMask
from belote.deal import new_deck
from belote.declarations import Declaration
from belote.options import make_rules, parse_option_assignment
from belote.round import PlayerView, Round
from belote.table import DealMode, Table

READINGS = ("alike", "heuristic model", "search model", "both")


def brier(worlds: Sequence[World], weights: Sequence[float], seats: Sequence[int],
          truth: Sequence[CardMask], cards: CardMask) -> float:
    """The Brier score of the weighed ``worlds``: over ``seats`` and the ``cards`` not
    seen, (the weighed share of the worlds in which the seat holds the card − 1 if it
    really does, else 0)², added up."""
    total = sum(weights)
    score = 0.0
    for s in seats:
        for c in range(32):
            if not cards >> c & 1:
                continue
            held = sum(w for world, w in zip(worlds, weights, strict=True)
                       if world.hands[s] >> c & 1)
            score += (held / total - (truth[s] >> c & 1)) ** 2
    return score


class Reader(BaseBot):
    """The PIMC bot, measuring the readings at its card decisions (see the module)."""

    kind = "reader"

    def __init__(self, inner: PimcBot, args: argparse.Namespace,
                 rows: dict[str, list[float]], cpu: dict[str, float],
                 truth: Callable[[PlayerView], list[CardMask]]) -> None:
        super().__init__(None)
        self.name = inner.name
        self.inner, self.args, self.rows, self.cpu, self.truth = inner, args, rows, cpu, truth

    def call(self, view: PlayerView) -> str:
        return self.inner.call(view)

    def discard(self, view: PlayerView) -> list[int]:
        return self.inner.discard(view)

    def declarations(self, view: PlayerView) -> Sequence[Declaration] | None:
        return self.inner.declarations(view)

    def play(self, view: PlayerView) -> int:
        table = Table.of(view.rules)
        if table.tricks - len(view.tricks) in self.args.left:
            self.measure(view, table)
        return self.inner.play(view)

    def measure(self, view: PlayerView, table: Table) -> None:
        args = self.args
        sampler = self.inner.sampler(view)
        if sampler is None:
            return
        rng = random.Random(hash((args.seed, len(self.rows["alike"]))))
        worlds = [sampler.sample(rng) for _ in range(args.worlds)]
        seats = [s for s in range(table.players) if s != view.seat]
        unseen = 0
        for w in worlds:
            for s in seats:
                unseen |= w.hands[s]
        truth = self.truth(view)
        start = time.process_time()
        model = PlayModel(view, seats, table, HeuristicBot(0))
        heuristic = [model.misses(w, 99, None) for w in worlds]
        mid = time.process_time()
        search = SearchModel(view, seats, table, from_left=args.search_from,
                             worlds=args.search_worlds, margin=args.search_margin,
                             max_nodes=10**9, rng=random.Random(args.seed))
        searched = [search.misses(w, 99) for w in worlds] if search.reads else [0] * len(worlds)
        end = time.process_time()
        self.cpu["heuristic model"] += mid - start
        self.cpu["search model"] += end - mid
        hw, sw = args.model_weight, args.search_weight
        weights = {
            "alike": [1.0] * len(worlds),
            "heuristic model": [hw ** m for m in heuristic],
            "search model": [sw ** m for m in searched],
            "both": [hw ** a * sw ** b for a, b in zip(heuristic, searched, strict=True)],
        }
        for name, ws in weights.items():
            self.rows[name].append(brier(worlds, ws, seats, truth, unseen))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="classic-2p")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--bot", default="pimc", help="the PIMC spec whose sampler draws")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--left", type=int, nargs="+", default=[6, 5, 4, 3],
                        help="the tricks left at the decisions measured")
    parser.add_argument("--worlds", type=int, default=48)
    parser.add_argument("--model-weight", type=float, default=0.25)
    parser.add_argument("--search-weight", type=float, default=0.3)
    parser.add_argument("--search-margin", type=float, default=1.5)
    parser.add_argument("--search-from", type=int, default=7)
    parser.add_argument("--search-worlds", type=int, default=16)
    args = parser.parse_args(argv)
    rules = make_rules(args.profile, dict(parse_option_assignment(o) for o in args.option))
    table = Table.of(rules)
    if table.players == 4 or table.mode is DealMode.DECOUVERTE:
        parser.error(f"--profile: a table of two or three players with a bidding, not "
                     f"{table.players} players ({table.mode})")
    if args.deals < 1 or args.worlds < 2:
        parser.error("--deals must be at least 1 and --worlds at least 2")
    rows: dict[str, list[float]] = {name: [] for name in READINGS}
    cpu = {"heuristic model": 0.0, "search model": 0.0}
    rng = random.Random(args.seed)
    for d in range(args.deals):
        deck = new_deck(table.players, rules.three_deal)
        rng.shuffle(deck)
        rnd = Round(rules, d % table.players, deck)

        def truth(view: PlayerView, rnd: Round = rnd) -> list[CardMask]:
            assert rnd._play is not None
            played = played_by(view)
            return [h & ~played[s] for s, h in enumerate(rnd._play.initial_hands)]

        inner = make_bot(args.bot, args.seed * 1000 + d)
        if not isinstance(inner, PimcBot):
            parser.error(f"--bot: a pimc spec, not {args.bot!r}")
        seat = d % table.players
        bots: list[BaseBot] = [
            Reader(inner, args, rows, cpu, truth) if s == seat
            else make_bot(args.opponent, args.seed * 1000 + 100 + d * 4 + s)
            for s in range(table.players)]
        play_deal(rnd, bots)
    n = len(rows["alike"])
    print(f"{args.bot} against {args.opponent}, {args.profile} {' '.join(args.option)}: "
          f"{args.deals} deals (seed {args.seed}), {n} decisions with {args.left} tricks "
          f"left, {args.worlds} worlds each")
    if n < 2:
        print("too few decisions measured")
        return
    base = rows["alike"]
    print("| reading | Brier | less alike, 95% | CPU a decision |")
    print("| --- | --- | --- | --- |")
    for name in READINGS:
        mean = statistics.mean(rows[name])
        if name == "alike":
            print(f"| {name} | {mean:.4f} | | |")
            continue
        diff = [x - y for x, y in zip(rows[name], base, strict=True)]
        m = statistics.mean(diff)
        h = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff))
        spent = (cpu["heuristic model"] + cpu["search model"] if name == "both"
                 else cpu[name])
        print(f"| {name} | {mean:.4f} | {m:+.4f} [{m - h:+.4f}, {m + h:+.4f}] | "
              f"{spent / n:.3f} s |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
