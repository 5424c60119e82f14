"""`belote simulate` with four random bots against jass-kit-py's random arena.

Measures CPU time (``time.process_time``) per deal of
:func:`belote.bots.arena.simulate`, the function ``belote simulate --bots
random,random,random,random`` calls, and, when jass-kit can be run, of
jass-kit-py's ``Arena`` with four ``AgentRandomSchieber`` playing the same
number of deals (one jass game of 36 cards is one deal).  Prints deals per
second for each, the ratio and the load average; exits 0 either way.  Run:

    .venv/bin/python benchmarks/bench_simulate.py [--deals N] [--seed S]
        [--jass-python /path/to/python]

``--jass-python`` names an interpreter where jass-kit is installed (it is run in a
subprocess); without it jass-kit is imported here when it is installed.

``--instructions`` counts instead of timing (needs valgrind): each side is run under
callgrind on a few deals and on ``--deals`` more, and the difference is divided by
``--deals``, so start-up is left out.  Instruction counts do not depend on the
machine's load, which makes the ratio repeatable on a shared machine (the hash seed
is fixed for the same reason); it is a proxy for CPU time, not the same thing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from belote.bots.arena import simulate
from belote.options import make_rules

# Run by the jass-kit interpreter: the random arena on N games, its CPU time printed.
_JASS_SCRIPT = """
import io, sys, time
from jass.arena.arena import Arena
from jass.agents.agent_random_schieber import AgentRandomSchieber
n = int(sys.argv[1])
arena = Arena(nr_games_to_play=n, print_every_x_games=n + 1)
arena.set_players(AgentRandomSchieber(), AgentRandomSchieber(),
                  AgentRandomSchieber(), AgentRandomSchieber())
out, sys.stdout = sys.stdout, io.StringIO()
start = time.process_time()
arena.play_all_games()
seconds = time.process_time() - start
sys.stdout = out
print(seconds)
"""


def ours(deals: int, seed: int) -> float:
    """CPU seconds for ``deals`` deals of ``belote simulate`` with four random bots."""
    rules = make_rules()
    start = time.process_time()
    simulate(rules, ["random"] * 4, deals, seed)
    return time.process_time() - start


def jass_kit(deals: int, python: str | None) -> float | None:
    """CPU seconds of jass-kit's random arena on ``deals`` games, or None without it."""
    if python is None:
        try:
            import jass  # type: ignore[import-not-found]  # noqa: F401
        except ImportError:
            return None
        python = sys.executable
    try:
        done = subprocess.run(
            [python, "-c", _JASS_SCRIPT, str(deals)],
            capture_output=True, text=True, check=True, timeout=3600,
        )
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"jass-kit could not run: {e}", file=sys.stderr)
        return None
    return float(done.stdout.strip().splitlines()[-1])


# Run by each interpreter under callgrind: N deals of one side, nothing else.
_OURS_SCRIPT = """
import sys
from belote.bots.arena import simulate
from belote.options import make_rules
simulate(make_rules(), ["random"] * 4, int(sys.argv[1]), 1)
"""
_JASS_PLAIN = _JASS_SCRIPT.replace("start = time.process_time()", "").replace(
    "seconds = time.process_time() - start", "seconds = 0.0")


def instructions(python: str, script: str, deals: int) -> float | None:
    """Instructions per deal of ``script`` run by ``python``: callgrind's count at
    ``deals`` + 10 deals less its count at 10, over ``deals``; None without valgrind."""
    counts = []
    for n in (10, deals + 10):
        try:
            done = subprocess.run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python,
                 "-c", script, str(n)],
                capture_output=True, text=True, check=True, timeout=3600,
                env={**os.environ, "PYTHONHASHSEED": "0"},
            )
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"callgrind could not run: {e}", file=sys.stderr)
            return None
        line = next(x for x in done.stderr.splitlines() if "Collected" in x)
        counts.append(int(line.split()[-1]))
    return (counts[1] - counts[0]) / deals


def count(args: argparse.Namespace) -> None:
    """The ``--instructions`` report."""
    mine = instructions(sys.executable, _OURS_SCRIPT, args.deals)
    if mine is None:
        return
    print(f"belote simulate, 4 random bots: {mine:12,.0f} instructions a deal")
    if args.jass_python is None:
        print("jass-kit: give --jass-python to count it too")
        return
    theirs = instructions(args.jass_python, _JASS_PLAIN, args.deals)
    if theirs is not None:
        print(f"jass-kit random arena:          {theirs:12,.0f} instructions a deal")
        print(f"ratio: {theirs / mine:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jass-python", default=None,
                        help="a Python interpreter with jass-kit installed")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under callgrind instead of timing")
    args = parser.parse_args()
    if args.instructions:
        count(args)
        return
    seconds = ours(args.deals, args.seed)
    rate = args.deals / seconds
    print(f"belote simulate, 4 random bots: {rate:10,.0f} deals/s "
          f"({args.deals:,} deals in {seconds:.2f} s CPU)")
    theirs = jass_kit(args.deals, args.jass_python)
    if theirs is None:
        print("jass-kit not installed")
    else:
        jass_rate = args.deals / theirs
        print(f"jass-kit random arena:          {jass_rate:10,.0f} deals/s "
              f"({args.deals:,} deals in {theirs:.2f} s CPU)")
        print(f"ratio: {rate / jass_rate:.1f}x")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average: {load}")


if __name__ == "__main__":
    main()
