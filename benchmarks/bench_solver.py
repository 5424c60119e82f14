"""Time the double-dummy solver (issue 5) on one core.

Solves ``--deals`` random full 32-card deals (random trump among S H D C SA TA,
random dealer, the eldest leads) and as many random 4-trick endgames (a random
deal played at random down to 4 tricks left), and prints the median, mean and
maximum time per position and the nodes searched, for the value alone
(``solve(state, moves=False)``) and for the value with each legal card's value
(``solve(state)``, what ``belote solve`` answers).

    .venv/bin/python benchmarks/bench_solver.py [--deals 30] [--seed 1] [--mode both]
        [--engine all]

``--engine`` picks the search: ``pure`` (plain CPython), ``compiled`` (the mypyc
build of ``belote._dds``, from ``bash scripts/build_solver.sh``), or ``all``
(each one available, on the same positions, so their ratio is comparable).

Times are wall-clock (``time.perf_counter``) and CPU (``time.process_time``);
on a busy machine the CPU column is the steadier one.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from belote import solver
from belote.cards import TRUMP_MODE_NAMES, mask_of
from belote.options import make_rules
from belote.play import PlayState
from belote.solver import SolveResult, solve


def full_deal(rng: random.Random) -> PlayState:
    deck = list(range(32))
    rng.shuffle(deck)
    dealer = rng.randrange(4)
    hands = [mask_of(deck[8 * i:8 * i + 8]) for i in range(4)]
    return PlayState(make_rules(), rng.randrange(6), hands, (dealer + 1) % 4)


def endgame(rng: random.Random, tricks_left: int = 4) -> PlayState:
    state = full_deal(rng)
    while state.tricks_left > tricks_left:
        state.push(rng.choice(state.legal_cards()))
    return state


def measure(states: list[PlayState], run: Callable[[PlayState], SolveResult]) -> str:
    walls: list[float] = []
    cpus: list[float] = []
    nodes: list[int] = []
    for state in states:
        w0, c0 = time.perf_counter(), time.process_time()
        result = run(state)
        walls.append((time.perf_counter() - w0) * 1000)
        cpus.append((time.process_time() - c0) * 1000)
        nodes.append(result.nodes)
    return (
        f"{statistics.median(walls):8.1f} {statistics.mean(walls):8.1f} {max(walls):8.1f}  "
        f"{statistics.median(cpus):8.1f} {statistics.mean(cpus):8.1f} {max(cpus):8.1f}  "
        f"{statistics.median(nodes):10.0f} {statistics.mean(nodes):10.0f} {max(nodes):10d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=30, help="positions of each kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=("value", "moves", "both"), default="both")
    parser.add_argument("--engine", choices=("pure", "compiled", "all"), default="all")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    deals = [full_deal(rng) for _ in range(args.deals)]
    ends = [endgame(rng) for _ in range(args.deals)]
    trumps = " ".join(
        f"{name} {sum(1 for s in deals if s.trump == mode)}"
        for mode, name in enumerate(TRUMP_MODE_NAMES)
    )
    print(f"belote solver: {args.deals} positions of each kind, seed {args.seed}, "
          f"Python {platform.python_version()} ({platform.python_implementation()}); "
          f"deals by trump: {trumps}")
    print(f"{'':31}{'wall ms: median':>17}{'mean':>9}{'max':>9}  {'cpu ms: median':>8}"
          f"{'mean':>9}{'max':>9}  {'nodes: median':>10}{'mean':>11}{'max':>11}")
    runs: list[tuple[str, Callable[[PlayState], SolveResult]]] = []
    if args.mode in ("value", "both"):
        runs.append(("value", lambda s: solve(s, moves=False)))
    if args.mode in ("moves", "both"):
        runs.append(("value + every card", solve))
    engines = ["pure", "compiled"] if args.engine == "all" else [args.engine]
    if args.engine == "all" and solver._engine_module is None:
        engines = ["pure"]
        print("(the compiled solver is not built: bash scripts/build_solver.sh)")
    for engine in engines:
        solver.set_engine(engine)
        print(f"engine: {engine}")
        for kind, states in (("full deal", deals), ("4 tricks left", ends)):
            for label, run in runs:
                print(f"{kind + ', ' + label:31}{measure(states, run)}", flush=True)


if __name__ == "__main__":
    main()
