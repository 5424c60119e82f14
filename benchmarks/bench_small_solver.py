"""Time the double-dummy search at tables of three and two and in belote découverte.

For each deal mode of docs/rules.md §12 (three players: ``24_cards``, ``kitty``,
``six_each``; two: ``stock``, ``decouverte``), ``--deals`` deals are dealt, bid
and (kitty) discarded at random (seeded; SA and TA offered), and each whole deal
is solved from its first lead with the value of every legal card (what ``belote
analyze`` asks at each card), by:

- ``reference``: ``belote._table_search.TableSearch``, the plain alpha-beta over
  ``PlayState`` that ran at these tables before (kept as the obviously correct reference),
  stopped past ``--reference-nodes`` positions (a long deal takes it minutes: the
  run stays short, and its time and ratio are then lower bounds, marked ``>=``);
- ``pure``: ``belote._dds.Engine`` run by the interpreter;
- ``compiled``: its C build (``belote._dds_c``, ``bash scripts/build_solver.sh``).

It prints, per mode and search, the CPU time (``time.process_time``: the machine
may be shared) over the deals and the positions searched, then the reference's
and the pure build's CPU time over the compiled build's, measured in the same run
on the same deals, with a check that the three give the same values and card
values (and the two builds of the engine the same node counts).  ``uptime`` (the
load average) is printed before and after.

    .venv/bin/python benchmarks/bench_small_solver.py [--deals 1] [--seed 1]
        [--modes 24_cards,kitty,six_each,stock,decouverte] [--reference-nodes 2000000]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import time
from collections.abc import Callable

from belote import solver
from belote._table_search import solve_table
from belote.bots.card_score import world_state
from belote.bots.knowledge import World
from belote.cards import Card
from belote.options import make_rules
from belote.play import PlayState
from belote.round import Round
from belote.solver import SearchLimitError, SolveResult, solve
from belote.table import Phase, Table

MODES: dict[str, tuple[str, dict[str, object]]] = {
    "24_cards": ("classic-3p", {"three_deal": "24_cards"}),
    "kitty": ("classic-3p", {"three_deal": "kitty"}),
    "six_each": ("classic-3p", {"three_deal": "six_each"}),
    "stock": ("classic-2p", {"two_deal": "stock"}),
    "decouverte": ("classic-2p", {"two_deal": "decouverte"}),
}


def first_lead(mode: str, rng: random.Random) -> tuple[PlayState, dict[Card, Card]]:
    """A deal of ``mode`` bid (one call in two a take) and discarded at random, at its
    first lead: the position and découverte's face-down cards."""
    profile, options = MODES[mode]
    rules = make_rules(profile, {**options, "sa_ta_in_classic": True})
    table = Table.of(rules)
    while True:
        deck = list(table.deck)
        rng.shuffle(deck)
        rnd = Round(rules, rng.randrange(table.players), deck)
        while rnd.phase is Phase.BIDDING:
            calls = rnd.legal_calls()
            takes = [c for c in calls if c != "pass"]
            rnd.call(rng.choice(takes) if takes and rng.random() < 0.5 else rng.choice(calls))
        if rnd.phase is Phase.DISCARD:
            hand = rnd.hands[rnd.current_player()]
            rnd.discard(rng.sample([c for c in range(32) if hand >> c & 1], 2))
        if rnd.phase is Phase.PLAY:
            break
    view = rnd.view(rnd.current_player())
    beneath: dict[Card, Card] = {}
    if rnd.piles is not None:
        beneath = {up: down for pile in rnd.piles for down, up in pile
                   if view.covering >> up & 1}
    hands = tuple(rnd.hand(s) for s in range(table.players))
    return world_state(view, World(hands, 0, beneath), table), beneath


Search = Callable[[PlayState, dict[Card, Card]], SolveResult]


def searches(reference_nodes: int) -> dict[str, Search]:
    pure = solver.solver_engine("pure")
    out: dict[str, Search] = {
        # (on a copy: stopped past its limit, it leaves the position where it was)
        "reference": lambda s, b: solve_table(s.copy(), b, True, reference_nodes),
        "pure": lambda s, b: solve(s, engine=pure, beneath=b),
    }
    if solver._load_compiled() is not None:
        fast = solver.solver_engine("compiled")
        out["compiled"] = lambda s, b: solve(s, engine=fast, beneath=b)
    return out


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):  # pragma: no cover - no uptime here
        return "uptime: unavailable"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=1, help="deals of each mode")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--reference-nodes", type=int, default=2_000_000,
                        help="positions after which the reference stops (its time then a "
                             "lower bound)")
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise SystemExit(f"--modes: unknown {', '.join(unknown)} (one of {', '.join(MODES)})")
    runs = searches(args.reference_nodes)
    if "compiled" not in runs:
        print("(the compiled solver is not built: bash scripts/build_solver.sh)")
    print(f"before: {uptime()}")
    print(f"whole deals from the first lead, every card's value; {args.deals} deals a mode, "
          f"seed {args.seed}")
    print(f"{'mode':12}" + "".join(f"{name + ' cpu s':>16}{'nodes':>11}" for name in runs)
          + "   ratios (CPU over the compiled build's)")
    rng = random.Random(args.seed)
    totals = dict.fromkeys(runs, 0.0)
    stopped_any = False
    for mode in modes:
        deals = [first_lead(mode, rng) for _ in range(args.deals)]
        cpu = dict.fromkeys(runs, 0.0)
        nodes = dict.fromkeys(runs, 0)
        answers: dict[str, list[tuple[int, dict[int, int], int] | None]] = {}
        stopped = 0
        for name, run in runs.items():
            answers[name] = []
            for state, beneath in deals:
                t = time.process_time()
                try:
                    result = run(state, beneath)
                except SearchLimitError as exc:  # the reference, past its limit
                    cpu[name] += time.process_time() - t
                    nodes[name] += exc.nodes
                    answers[name].append(None)
                    stopped += 1
                    continue
                cpu[name] += time.process_time() - t
                nodes[name] += result.nodes
                answers[name].append((result.value, result.moves, result.nodes))
            totals[name] += cpu[name]
        checked = [i for i, a in enumerate(answers["reference"]) if a is not None]
        values = {name: [(x[0], x[1]) for i in checked if (x := a[i]) is not None]
                  for name, a in answers.items()}
        same = all(v == values["reference"] for v in values.values())
        stopped_any = stopped_any or bool(stopped)
        builds_same = "compiled" not in answers or answers["compiled"] == answers["pure"]
        ratios = ""
        at_least = {name: ">=" if name == "reference" and stopped else "" for name in runs}
        if "compiled" in runs:
            base = max(cpu["compiled"], 1e-6)
            ratios = "   " + "  ".join(f"{name} {at_least[name]}{cpu[name] / base:.1f}x"
                                        for name in runs if name != "compiled")
        print(f"{mode:12}" + "".join(f"{at_least[n] + format(cpu[n], '.3f'):>16}{nodes[n]:11d}"
                                     for n in runs) + ratios
              + f"   values {'equal' if same else 'DIFFER'}"
              + (f" on {len(checked)} of {len(deals)} (the reference stopped)" if stopped else "")
              + ("" if builds_same else "; the two builds' node counts DIFFER"), flush=True)
    if "compiled" in runs:
        base = max(totals["compiled"], 1e-6)
        mark = {name: ">=" if name == "reference" and stopped_any else "" for name in runs}
        print("all modes: " + "  ".join(f"{name} {mark[name]}{totals[name]:.2f} s"
                                        for name in runs) + "; "
              + "  ".join(f"{name} {mark[name]}{totals[name] / base:.1f}x" for name in runs
                          if name != "compiled"))
    print(f"after: {uptime()}")


if __name__ == "__main__":
    main()
