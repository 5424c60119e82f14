"""Time per card decision and per call of the PIMC bot over seeded deals.

The PIMC bot holds North and South (at three players N and S, at two N), the
heuristic the other seats; every card the PIMC bot decides is timed (a single
legal card is not a decision).  Prints
the median and the maximum, overall and by tricks left, with the worlds solved
and the solver nodes; then the same for the calls of the bidding: all of them,
and those the bot searched (sampled worlds solved), with how many fell back to
the heuristic for want of worlds.  The solver engine in use (pure or compiled,
``BELOTE_SOLVER``) is printed first.  Run:

    .venv/bin/python benchmarks/bench_pimc.py [--deals N] [--seed S] [--bot SPEC]
        [--profile classic|moroccan|coinche|contree|classic-3p|classic-2p]
        [--option KEY=VALUE ...]   (e.g. --profile classic-3p --option three_deal=kitty)
    .venv/bin/python benchmarks/bench_pimc.py --small [--deals N] [--seed S] [--bot SPEC]

``--small``: the calls at every deal of two and three players that has a bidding
(``24_cards``, ``kitty``, ``six_each``, ``stock``; docs/rules.md §12) one after the
other, the PIMC bot's cards played by the heuristic (only the calls are timed: CPU
seconds by ``process_time``, median and max of every call and of those searched,
with the load average of ``uptime``).  ``--bidding-only`` does the same at one profile.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import time
from collections.abc import Sequence
from typing import Final

from belote.bots import make_bot, play_deal
from belote.bots.base import BaseBot, legal_cards
from belote.bots.pimc import PimcBot
from belote.deal import new_deck
from belote.declarations import Declaration
from belote.options import make_rules, parse_option_assignment
from belote.play import SEAT_NAMES
from belote.round import OVER, PlayerView, Round
from belote.solver import solver_engine
from belote.table import Table

Row = tuple[int, float, int, int, float]


class Timed(BaseBot):
    """Wraps a PIMC bot and records (tricks left, seconds, worlds, nodes, CPU seconds) per
    card, and (fallback, seconds, worlds, nodes, CPU seconds) per call."""

    kind = "timed"

    def __init__(self, inner: PimcBot, log: list[Row], calls: list[Row],
                 cards: BaseBot | None = None) -> None:
        super().__init__(None)
        self.inner = inner
        self.cards = cards  # plays the cards instead of the PIMC bot (calls timed alone)
        self.name = inner.name
        self.log = log
        self.calls = calls

    def call(self, view: PlayerView) -> str:
        start, cpu = time.perf_counter(), time.process_time()
        answer = self.inner.call(view)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu
        inner = self.inner
        self.calls.append((int(inner.last_bid_fallback), seconds, inner.last_bid_worlds,
                           inner.last_bid_nodes, cpu))
        return answer

    def play(self, view: PlayerView) -> int:
        if self.cards is not None:
            return self.cards.play(view)
        start, cpu = time.perf_counter(), time.process_time()
        card = self.inner.play(view)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu
        if len(legal_cards(view)) > 1:
            left = Table.of(view.rules).tricks - len(view.tricks)
            self.log.append((left, seconds, self.inner.last_worlds, self.inner.last_nodes, cpu))
        return card

    def discard(self, view: PlayerView) -> list[int]:
        return self.inner.discard(view)

    def declarations(self, view: PlayerView) -> Sequence[Declaration] | None:
        return self.inner.declarations(view)


def _line(label: str, rows: list[Row]) -> str:
    times = [r[1] for r in rows]
    cpu = [r[4] for r in rows]
    worlds = statistics.mean(r[2] for r in rows)
    nodes = max(r[3] for r in rows)
    return (f"{label:>12}  {len(rows):5d} decisions  median {statistics.median(times):6.3f} s  "
            f"max {max(times):6.3f} s  (CPU median {statistics.median(cpu):6.3f} s  "
            f"max {max(cpu):6.3f} s)  worlds {worlds:5.1f}  nodes max {nodes:,}")


SMALL_DEALS: Final = (("classic-3p", ("three_deal=24_cards",)),
                      ("classic-3p", ("three_deal=kitty",)),
                      ("classic-3p", ("three_deal=six_each",)),
                      ("classic-2p", ("two_deal=stock",)))
"""The deals of two and three players that have a bidding (§12), for ``--small``."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="pimc", help="the PIMC spec, e.g. pimc:worlds=40")
    parser.add_argument("--profile", default="classic")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--small", action="store_true",
                        help="the calls at every small-table deal with a bidding (§12)")
    parser.add_argument("--bidding-only", action="store_true",
                        help="time the calls only: the PIMC bot's cards played by the heuristic")
    args = parser.parse_args()
    if args.small:
        for profile, options in SMALL_DEALS:
            run(args.bot, profile, list(options), args.deals, args.seed, bidding_only=True)
            print()
        return
    run(args.bot, args.profile, args.option, args.deals, args.seed, args.bidding_only)


def run(spec: str, profile: str, options: list[str], deals: int, seed: int,
        bidding_only: bool = False) -> None:
    """Play ``deals`` seeded deals, the PIMC bot at the even seats, and print its times."""
    rules = make_rules(profile, dict(parse_option_assignment(o) for o in options))
    players = rules.players
    rng = random.Random(seed)
    log: list[Row] = []
    calls: list[Row] = []
    played = 0
    start = time.perf_counter()
    while played < deals:
        deck = new_deck(players, rules.three_deal)
        rng.shuffle(deck)
        bots: list[BaseBot] = []
        for seat in range(players):
            bot = make_bot(spec if seat % 2 == 0 else "heuristic", seed * 1000 + seat)
            if isinstance(bot, PimcBot):
                cards = make_bot("heuristic", seat) if bidding_only else None
                bots.append(Timed(bot, log, calls, cards))
            else:
                bots.append(bot)
        rnd = Round(rules, rng.randrange(players), deck)
        play_deal(rnd, bots)
        played += rnd.phase == OVER
    total = time.perf_counter() - start
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    seats = " ".join(SEAT_NAMES[s] for s in range(0, players, 2))
    print(f"{spec} ({seats}) against heuristic: {deals} deals played in "
          f"{total:.1f} s ({profile} {' '.join(options)}, seed {seed}, "
          f"{solver_engine().name} solver{', calls only' if bidding_only else ''})")
    print(f"load average at the end {load} on {os.cpu_count()} CPUs (uptime: "
          f"{_uptime()}); times are wall (perf_counter), CPU in brackets (process_time)")
    if log:
        searched = [r for r in log if r[2] > 0]
        print(f"CPU of every card decision: {sum(r[4] for r in log):.2f} s; of every call: "
              f"{sum(r[4] for r in calls):.2f} s")
        print(_line("all", log))
        if searched:
            print(_line("searched", searched))
        for left in sorted({r[0] for r in log}, reverse=True):
            print(_line(f"{left} left", [r for r in log if r[0] == left]))
    elif not bidding_only:
        print("no decision timed")
    if not calls:
        return
    print("calls:")
    print(_line("all", calls))
    searched_calls = [r for r in calls if r[3] > 0]
    if searched_calls:
        fallbacks = sum(r[0] for r in searched_calls)
        print(_line("searched", searched_calls) + f"  fallbacks {fallbacks}")


def _uptime() -> str:
    """What ``uptime`` says (the load of the shared machine), or why not."""
    try:
        done = subprocess.run(["uptime"], capture_output=True, text=True, timeout=5,
                              check=False)
    except OSError as exc:
        return f"not run: {exc.strerror or exc}"
    return done.stdout.strip() or done.stderr.strip()


if __name__ == "__main__":
    main()
