"""`belote analyze` on whole deals: CPU time per deal.

Each deal (four heuristic bots, a seeded deck, the first deals that were taken) is
analysed as ``belote analyze --seat SEAT`` does it (:func:`belote.analysis.analyze_deal`):
every legal card of all 32 double dummy, the deal under each trump, the calls'
double-dummy scores, and the searching bot's view (its calls and the information
view's worlds) at each of one seat's decisions.  The baseline, measured in the same
run on the same deals, is one plain solve of the deal: the value of every card of the
opening lead (``solve`` from the first lead, the hands as dealt).  Prints the CPU time
(``time.process_time``) per deal of each, their ratio, and the load average; exits 0.
Run:

    .venv/bin/python benchmarks/bench_analyze.py [--deals N] [--seed S] [--seat N]
        [--worlds W] [--profile classic] [--option KEY=VALUE ...]

``--option`` sets a rule of the profile, e.g. ``--profile classic-3p --option
three_deal=kitty`` or ``--profile classic-2p --option two_deal=decouverte`` for the
tables of three and two (§12).

The goal: a whole deal under 2 s of CPU with the compiled solver (``belote._dds_c``,
``bash scripts/build_solver.sh``; the engine used is printed).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

from belote.analysis import analyze_deal
from belote.bots.base import play_deal
from belote.bots.card_score import world_state
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import World
from belote.errors import OptionError
from belote.options import make_rules, parse_option_assignment
from belote.play import SEAT_NAMES
from belote.round import Round
from belote.solver import solve, solver_engine
from belote.table import Phase, Table


def deals(profile: str, count: int, seed: int,
          options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """``count`` finished deals of heuristic bots (all-pass deals skipped)."""
    rules = make_rules(profile, options or {})
    table = Table.of(rules)
    out: list[dict[str, Any]] = []
    s = seed
    while len(out) < count:
        deck = list(table.deck)
        random.Random(s).shuffle(deck)
        rnd = Round(rules, s % table.players, deck)
        play_deal(rnd, [HeuristicBot(s + i) for i in range(table.players)])
        if rnd.phase is Phase.OVER:
            out.append(rnd.record())
        s += 1
    return out


def baseline(record: dict[str, Any]) -> None:
    """One plain solve of the deal: every card of the opening lead, from the hands of
    the card play."""
    rnd = Round.from_record(record)
    start = Round.from_record({**record, "actions": []})
    for action in rnd.actions():
        if start.phase is Phase.PLAY:
            break
        start.apply(action)
    view = start.view(start.current_player())
    assert view.contract is not None
    hands = tuple(start.hand(s) for s in range(start.table.players))
    beneath = {}  # belote découverte: the face-down card under each face-up one
    if start.piles is not None:
        beneath = {up: down for pile in start.piles for down, up in pile
                   if view.covering >> up & 1}
    solve(world_state(view, World(hands, 0, beneath), start.table), beneath=beneath or None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat", default="N", choices=list(SEAT_NAMES))
    parser.add_argument("--worlds", type=int, default=None)
    parser.add_argument("--profile", default="classic")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule of the profile (repeatable)")
    args = parser.parse_args()
    try:
        options = dict(parse_option_assignment(item) for item in args.option)
    except OptionError as exc:
        raise SystemExit(f"error: --option: {exc}") from None
    records = deals(args.profile, args.deals, args.seed, options)
    seat = SEAT_NAMES.index(args.seat)
    print(f"solver engine: {solver_engine().name}; profile {args.profile} "
          f"{' '.join(args.option)}; "
          f"{args.deals} deals; seat {args.seat}; worlds {args.worlds or 'default'}")
    start = time.process_time()
    for r in records:
        baseline(r)
    base = (time.process_time() - start) / len(records)
    times = []
    for r in records:
        t = time.process_time()
        analyze_deal(r, worlds=args.worlds, seed=args.seed, seats=[seat])
        times.append(time.process_time() - t)
    per_deal = sum(times) / len(times)
    print(f"baseline (one plain solve of the deal): {base * 1000:.1f} ms CPU per deal")
    print(f"analyze (32 cards double dummy, {args.seat}'s view): {per_deal:.3f} s CPU per "
          f"deal (slowest {max(times):.3f} s); {per_deal / base:.1f}x the baseline")
    print(f"under 2 s a deal: {'yes' if max(times) < 2 else 'no'}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
