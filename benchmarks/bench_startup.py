"""Start-up time of the `belote` command, as a whole process.

Runs each command N times as a subprocess (after one warm-up run each) and
prints, per command, the median wall time and the median CPU time (user + sys,
from the child's own rusage), and the ratio of each to a bare ``python -c pass``
measured in the same run with the same interpreter; then the machine's load
average, which says how quiet the figures are.  The goal (issue 12): the
slowest of ``belote --help``, ``belote score hand --json`` (one hand on stdin)
and ``belote rotation 5 --json`` within 150 ms wall time and within 6x a bare
``python -c pass``.

    .venv/bin/python benchmarks/bench_startup.py            # 20 runs each
    .venv/bin/python benchmarks/bench_startup.py -n 50 --check

``--check`` exits with status 1 when the goal is missed.  ``--command`` measures
another `belote` (``--command "python -m belote"``; with PYTHONPATH pointing at
another checkout's ``src``, that checkout).  The package's
bytecode is compiled first (``compileall``, as ``pip install`` does for an
installed package), so that an environment with PYTHONDONTWRITEBYTECODE set
does not measure the compiler; ``--no-compile`` skips that.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HAND = b'{"taker": "NS", "trick_points": {"NS": 92}, "belote": "NS"}\n'
GOAL_MS = 150.0
GOAL_RATIO = 6.0


@dataclass
class Case:
    name: str
    argv: list[str]
    stdin: bytes = b""
    goal: bool = True  # one of the three commands of the goal


@dataclass
class Figures:
    wall_ms: float
    cpu_ms: float


def belote_argv() -> list[str]:
    """The `belote` script next to this interpreter, else ``python -m belote``."""
    script = Path(sys.executable).parent / "belote"
    if script.exists():
        return [str(script)]
    found = shutil.which("belote")
    return [found] if found else [sys.executable, "-m", "belote"]


class Failed(Exception):
    """The command exited with an error."""


def run_once(argv: list[str], stdin: bytes) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of one run of ``argv``; Failed if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise Failed(f"{' '.join(argv)} failed ({proc.returncode}): {err.decode()[-300:]}")
    return wall, usage.ru_utime + usage.ru_stime


def measure(case: Case, runs: int) -> Figures:
    run_once(case.argv, case.stdin)  # warm-up: the OS file cache
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(runs):
        wall, cpu = run_once(case.argv, case.stdin)
        walls.append(wall)
        cpus.append(cpu)
    return Figures(1000 * statistics.median(walls), 1000 * statistics.median(cpus))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=20, help="runs per command")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when the slowest goal command misses the goal")
    parser.add_argument("--no-compile", action="store_true",
                        help="do not byte-compile the package first")
    parser.add_argument("--command", help="the belote command to measure (default: the "
                        "`belote` script next to this Python)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs: at least 1")
    import belote

    package = Path(belote.__file__).parent
    if not args.no_compile:
        compileall.compile_dir(str(package), quiet=1)
    belote_cmd = shlex.split(args.command) if args.command else belote_argv()
    scratch = tempfile.TemporaryDirectory()
    os.environ["BELOTE_DB"] = str(Path(scratch.name) / "sheets.db")
    with contextlib.suppress(Failed):
        run_once([*belote_cmd, "sheet", "new", "--json"], b"")
        run_once([*belote_cmd, "sheet", "add", "1", "--json"], HAND)
    cases = [
        Case("python -c pass", [sys.executable, "-c", "pass"], goal=False),
        Case("belote --help", [*belote_cmd, "--help"]),
        Case("belote --version", [*belote_cmd, "--version"], goal=False),
        Case("belote score hand --json", [*belote_cmd, "score", "hand", "--json"], HAND),
        Case("belote rotation 5 --json", [*belote_cmd, "rotation", "5", "--json"]),
        Case("belote rules --json", [*belote_cmd, "rules", "--json"], goal=False),
        Case("belote sheet show 1 --json", [*belote_cmd, "sheet", "show", "1", "--json"],
             goal=False),
        Case("belote sheet --help (typer)", [*belote_cmd, "sheet", "--help"], goal=False),
    ]
    load_before = os.getloadavg()
    results: dict[str, Figures] = {}
    for case in cases:
        try:
            results[case.name] = measure(case, args.runs)
        except Failed as exc:
            if case.goal or case.name == "python -c pass":
                raise SystemExit(str(exc)) from None
            print(f"skipped: {exc}", file=sys.stderr)
    load_after = os.getloadavg()
    base = results["python -c pass"]
    print(f"{args.runs} runs each, medians; {' '.join(belote_cmd)} from {package}; "
          f"Python {sys.version.split()[0]}; {os.cpu_count()} CPUs")
    print(f"{'command':<30}{'wall ms':>9}{'cpu ms':>9}{'wall x':>8}{'cpu x':>7}")
    for case in cases:
        if case.name not in results:
            print(f"{case.name:<30}{'n/a':>9}")
            continue
        f = results[case.name]
        mark = "" if case.goal else "  (not in the goal)"
        print(f"{case.name:<30}{f.wall_ms:>9.1f}{f.cpu_ms:>9.1f}"
              f"{f.wall_ms / base.wall_ms:>8.1f}{f.cpu_ms / max(base.cpu_ms, 0.1):>7.1f}"
              + (mark if case.name != "python -c pass" else ""))
    slowest = max((results[c.name].wall_ms, c.name) for c in cases if c.goal)
    ratio = slowest[0] / base.wall_ms
    print(f"load average (1, 5, 15 min): before {', '.join(f'{x:.2f}' for x in load_before)};"
          f" after {', '.join(f'{x:.2f}' for x in load_after)}")
    ok = slowest[0] <= GOAL_MS and ratio <= GOAL_RATIO
    print(f"slowest goal command: {slowest[1]}, {slowest[0]:.1f} ms wall, "
          f"{ratio:.1f}x python -c pass: "
          + ("within" if ok else "MISSES") + f" the goal ({GOAL_MS:.0f} ms, {GOAL_RATIO:.0f}x)")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
