"""The gauntlet: the PIMC bot against every kind of opponent at every table size, on
fresh deals, in one markdown table.

The opponents: ``random``; the ``heuristic``; a cautious and a bold heuristic (its
take moved up and down by :data:`SHIFT` points of strength: ``heuristic:threshold=``,
at every table, §12's takes included); the baseline ``pimc:preset=v1``; and the bot
itself (its spec again as ``pimc:preset=v7``, the same settings under another name:
a pairing names two bots).  Each pairing is one run of
:func:`benchmarks.strength.run` (a fresh seed unless ``--seed`` gives a development
one; its JSON kept under ``--out``, to pool with later runs by ``strength.py pool``).
Each cell: the PIMC bot's rate (games, or boards in deals mode; a tie counting half),
its 95% Wilson interval and how many were played.

    .venv/bin/python benchmarks/gauntlet.py --games 400 --out benchmarks/results/gauntlet \\
        [--bot pimc] [--tables 4,3,2] [--workers 2] [--seed S] [--only heuristic,random]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import run

from belote.bots.heuristic import TAKE_THRESHOLD
from belote.errors import BeloteError

SHIFT: Final = 10
"""How far the cautious and the bold heuristic move the take (strength points)."""

PROFILES: Final = {4: "classic", 3: "classic-3p", 2: "classic-2p"}


def opponents(bot: str) -> list[tuple[str, str]]:
    """(label, spec) of each opponent of ``bot``."""
    itself = "pimc:preset=v7" if bot == "pimc" else f"{bot},preset=v7"
    return [
        ("random", "random"),
        ("heuristic", "heuristic"),
        ("cautious heuristic", f"heuristic:threshold={TAKE_THRESHOLD + SHIFT}"),
        ("bold heuristic", f"heuristic:threshold={TAKE_THRESHOLD - SHIFT}"),
        ("baseline pimc:preset=v1", "pimc:preset=v1"),
        (f"itself ({itself})", itself),
    ]


def cell(answer: dict[str, Any]) -> str:
    """The first bot's rate, interval and count from a two-bot run's answer."""
    pairing = answer["pairings"][0]
    record = pairing["games"] or pairing["deal_results"]
    rate = record["rate"]
    return (f"{rate['value']:.1%} [{rate['low']:.1%}, {rate['high']:.1%}] "
            f"n={record['played']}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="pimc")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--games", type=int, help="games mode: boards a pairing")
    size.add_argument("--deals", type=int, help="deals mode: boards a pairing")
    parser.add_argument("--tables", default="4,3,2", help="table sizes, e.g. 3,2")
    parser.add_argument("--only", help="opponents' specs to play, comma-separated")
    parser.add_argument("--seed", type=int, help="a development seed (default: fresh)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, help="folder of each run's JSON")
    args = parser.parse_args(argv)
    mode, boards = ("deals", args.deals) if args.deals else ("games", args.games or 20)
    try:
        tables = [int(t) for t in args.tables.split(",")]
    except ValueError:
        print(f"error: --tables {args.tables!r}: table sizes such as 4,3,2", file=sys.stderr)
        return 2
    if any(t not in PROFILES for t in tables):
        print(f"error: --tables {args.tables!r}: sizes are 4, 3 and 2", file=sys.stderr)
        return 2
    chosen = opponents(args.bot)
    if args.only:
        wanted = set(args.only.split(","))
        chosen = [(label, spec) for label, spec in chosen if spec in wanted]
    rows: dict[str, dict[int, str]] = {}
    try:
        for label, spec in chosen:
            for players in tables:
                profile = PROFILES[players]
                out = None
                if args.out is not None:
                    name = f"{args.bot}-vs-{spec}-{profile}".replace(":", "_").replace("=", "")
                    out = args.out / f"{name.replace(',', '_')}.json"
                answer = run((args.bot, spec), profile, {}, mode, boards, args.seed,
                             args.workers, out)
                rows.setdefault(label, {})[players] = cell(answer)
                print(f"{label} at {players}: {rows[label][players]} (seed "
                      f"{answer['seed']}, {answer['seed_source']})", file=sys.stderr)
    except BeloteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unit = "games" if mode == "games" else "boards (duplicate deals)"
    print(f"`{args.bot}` against each opponent, {boards} {mode} a pairing "
          f"({unit}; rate, 95% Wilson interval, count)\n")
    print("| opponent | " + " | ".join(f"{t} players" for t in tables) + " |")
    print("| --- | " + " | ".join("---" for _ in tables) + " |")
    for label, cells in rows.items():
        print(f"| {label} | " + " | ".join(cells.get(t, "") for t in tables) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
