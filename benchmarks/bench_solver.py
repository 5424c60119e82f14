"""Time the double-dummy solver (issues 5, 14) on one core.

Solves ``--deals`` random full 32-card deals (random trump among S H D C SA TA,
random dealer, the eldest leads; ``--trumps suits`` keeps to the four suits;
``--trumps each-suit`` solves every deal under each of the four suits, as issue 14
measured: ``--deals 60 --trumps each-suit --mode value`` is its 240 positions) and
as many random 4-trick endgames (a random deal played at random down to 4 tricks
left), for the value alone (``solve(state, moves=False)``) and for the value with
each legal card's value (``solve(state)``, what ``belote solve`` answers).

For each build of the search it prints, per kind of position: the median, mean
and maximum time per position, wall-clock (``time.perf_counter``) and CPU
(``time.process_time``; on a busy machine the steadier one), the positions
(nodes) searched, and the speed: positions per second and nanoseconds per
position, of CPU time over all the positions.  Then the C build against the pure
reference (``belote/_dds.py`` run by the interpreter) in the same run, on the
first ``--reference`` positions of each kind (the reference is slow): the ratio of
their CPU times, and a check that both give the same values and node counts.
The machine's load average is printed before and after.

    .venv/bin/python benchmarks/bench_solver.py [--deals 30] [--seed 1] [--mode both]
        [--engine all] [--reference 10] [--trumps all|suits|each-suit] [--baseline DIR]

``--engine`` picks the search: ``pure`` (the reference, plain CPython),
``compiled`` (the C build ``belote._dds_c``, from ``bash scripts/build_solver.sh``)
or ``all`` (each one available, on the same positions).  ``--baseline DIR`` adds
an older compiled build of the search as a third engine, on every position, for a
before/after in one run: DIR holds its extension files, e.g. the mypyc build of
``_dds.py`` before the C port (``_dds.cpython-*.so`` and ``_dds__mypyc.cpython-*.so``,
from ``python -m mypyc belote/_dds.py`` in ``src`` of that commit).
"""

from __future__ import annotations

import argparse
import functools
import importlib.machinery
import importlib.util
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from belote import solver
from belote.cards import TRUMP_MODE_NAMES, mask_of
from belote.options import make_rules
from belote.play import PlayState
from belote.solver import SolveResult, solve


def full_deal(rng: random.Random, trumps: int) -> PlayState:
    deck = list(range(32))
    rng.shuffle(deck)
    dealer = rng.randrange(4)
    hands = [mask_of(deck[8 * i:8 * i + 8]) for i in range(4)]
    return PlayState(make_rules(), rng.randrange(trumps), hands, (dealer + 1) % 4)


def endgame(rng: random.Random, trumps: int, tricks_left: int = 4) -> PlayState:
    state = full_deal(rng, trumps)
    while state.tricks_left > tricks_left:
        state.push(rng.choice(state.legal_cards()))
    return state


@dataclass
class Run:
    """One build's times (ms) and results over a list of positions."""

    walls: list[float]
    cpus: list[float]
    results: list[tuple[int, dict[int, int], int]]

    @property
    def nodes(self) -> list[int]:
        return [r[2] for r in self.results]


def measure(states: list[PlayState], run: Callable[[PlayState], SolveResult]) -> Run:
    out = Run([], [], [])
    for state in states:
        w0, c0 = time.perf_counter(), time.process_time()
        result = run(state)
        out.walls.append((time.perf_counter() - w0) * 1000)
        out.cpus.append((time.process_time() - c0) * 1000)
        out.results.append((result.value, result.moves, result.nodes))
    return out


def row(label: str, r: Run) -> str:
    nodes = r.nodes
    cpu_s = sum(r.cpus) / 1000
    total = sum(nodes)
    speed = f"{total / cpu_s:12,.0f} {cpu_s * 1e9 / total:7.0f}" if cpu_s > 0 and total else ""
    return (
        f"{label:34}"
        f"{statistics.median(r.walls):8.2f} {statistics.mean(r.walls):8.2f} {max(r.walls):8.1f}  "
        f"{statistics.median(r.cpus):8.2f} {statistics.mean(r.cpus):8.2f} {max(r.cpus):8.1f}  "
        f"{statistics.median(nodes):9.0f} {statistics.mean(nodes):9.0f} {max(nodes):9d}  {speed}"
    )


def load_baseline(folder: str) -> ModuleType:
    """The compiled engine module in ``folder`` (``_dds`` and the modules its
    extension imports, as ``belote._dds*``), beside the reference."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    files = sorted(Path(folder).glob(f"_dds*{suffix}"), key=lambda p: p.name != f"_dds{suffix}")
    if not files or files[0].name != f"_dds{suffix}":
        raise SystemExit(f"--baseline {folder}: no _dds{suffix} there")
    solver.solver_engine("pure")  # the reference is loaded first, from its source
    module: ModuleType | None = None
    for path in reversed(files):  # the helper modules first, _dds itself last
        name = "belote." + path.name[: -len(suffix)]
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise SystemExit(f"--baseline: cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    assert module is not None
    return module


def use(engine: str, baseline: ModuleType | None) -> solver.SolverEngine:
    """The build to run for ``engine``: ``baseline`` runs as a compiled build."""
    if engine == "baseline":
        assert baseline is not None
        return solver.SolverEngine("compiled", baseline)
    return solver.solver_engine(engine)


def load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:  # pragma: no cover - not on every platform
        return "load average: unknown"
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=30, help="positions of each kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=("value", "moves", "both"), default="both")
    parser.add_argument("--engine", choices=("pure", "compiled", "all"), default="all")
    parser.add_argument("--reference", type=int, default=10,
                        help="positions of each kind also solved by the pure reference for "
                             "the ratio (with --engine all)")
    parser.add_argument("--trumps", choices=("all", "suits", "each-suit"), default="all",
                        help="trump modes of the deals: all six, the four suits, or every "
                             "deal under each suit")
    parser.add_argument("--baseline", metavar="DIR",
                        help="a folder with an older compiled build of the search")
    args = parser.parse_args()
    compiled = solver._load_compiled()
    baseline = load_baseline(args.baseline) if args.baseline else None

    rng = random.Random(args.seed)
    trumps = 6 if args.trumps == "all" else 4
    deals = [full_deal(rng, trumps) for _ in range(args.deals)]
    ends = [endgame(rng, trumps) for _ in range(args.deals)]
    if args.trumps == "each-suit":
        deals = [PlayState(s.rules, t, list(s.hands), s.leader) for s in deals for t in range(4)]
    by_trump = " ".join(
        f"{name} {sum(1 for s in deals if s.trump == mode)}"
        for mode, name in enumerate(TRUMP_MODE_NAMES)
    )
    print(f"belote solver: {len(deals)} full deals and {len(ends)} endgames, seed {args.seed}, "
          f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}; deals by trump: {by_trump}")
    print(f"before: {load()}")
    print(f"{'':34}{'wall ms: median':>16}{'mean':>9}{'max':>9}  {'cpu ms: median':>8}"
          f"{'mean':>9}{'max':>9}  {'nodes: median':>9}{'mean':>10}{'max':>10}"
          f"  {'positions/s':>12} {'ns/pos':>7}")
    runs: list[tuple[str, Callable[..., SolveResult]]] = []
    if args.mode in ("value", "both"):
        runs.append(("value", functools.partial(solve, moves=False)))
    if args.mode in ("moves", "both"):
        runs.append(("value + every card", solve))
    engines = ["compiled", "pure"] if args.engine == "all" else [args.engine]
    if "compiled" in engines and compiled is None:
        engines.remove("compiled")
        print("(the compiled solver is not built: bash scripts/build_solver.sh)")
    if baseline is not None:
        engines.insert(1 if "compiled" in engines else 0, "baseline")
    kinds = (("full deal", deals), ("4 tricks left", ends))
    for mode in range(len(TRUMP_MODE_NAMES)):  # the tables, made once, outside the times
        solver._engine_tables(make_rules(), mode)
    results: dict[tuple[str, str, str], Run] = {}
    several = len(engines) > 1

    def count(engine: str, states: list[PlayState]) -> int:
        """The positions of a kind that ``engine`` solves (the reference: the first
        ``--reference`` when it is compared)."""
        return min(args.reference, len(states)) if engine == "pure" and several else len(states)

    for engine in engines:
        build = use(engine, baseline)
        what = {"pure": "the reference", "baseline": f"from {args.baseline}"}.get(engine)
        if engine == "pure" and several:
            what = f"the reference, on the first {args.reference} positions of each kind"
        print(f"engine: {engine}" + (f" ({what})" if what else ""))
        for kind, states in kinds:
            for label, run in runs:
                r = measure(states[:count(engine, states)], functools.partial(run, engine=build))
                results[(engine, kind, label)] = r
                print(row(f"{kind}, {label}", r), flush=True)
    if "compiled" in engines:
        for other in engines[1:]:
            print(f"compiled against {other}, in this run, on the same positions:")
            for kind, states in kinds:
                n = count(other, states)
                for label, _ in runs:
                    fast = results[("compiled", kind, label)]
                    ref = results[(other, kind, label)]
                    same = fast.results[:n] == ref.results
                    ratio = sum(ref.cpus) / max(sum(fast.cpus[:n]), 1e-9)
                    print(f"  {kind + ', ' + label:34} {ratio:6.1f} times faster (CPU) on {n}; "
                          f"values and node counts {'equal' if same else 'DIFFER'}")
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
