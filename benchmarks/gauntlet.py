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

``--report`` plays nothing: it builds the table from kept runs (a gauntlet played in
pieces, a cell at a time or with more boards later), each cell the runs of its pairing
added up by :func:`benchmarks.strength.pool` (fresh seeds only, a seed seen twice
refused); ``--plot`` draws the cells with their intervals.

    .venv/bin/python benchmarks/gauntlet.py --games 400 --out benchmarks/results/gauntlet \\
        [--bot pimc] [--tables 4,3,2] [--workers 2] [--seed S] [--only heuristic,random]
    .venv/bin/python benchmarks/gauntlet.py --report benchmarks/results/gauntlet/*.json \\
        [--bot pimc] [--plot gauntlet.png]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import Pooled, figure, pool, run

from belote.bots.heuristic import TAKE_THRESHOLD
from belote.errors import BeloteError
from belote.tournament.config import TournamentError

SHIFT: Final = 10
"""How far the cautious and the bold heuristic move the take (strength points)."""

PROFILES: Final = {4: "classic", 3: "classic-3p", 2: "classic-2p"}
COLOURS: Final = {4: "tab:blue", 3: "tab:orange", 2: "tab:green"}
"""Each table size's colour in ``--plot``."""


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


def pooled_cell(entry: Pooled) -> str:
    """A pooled pairing's rate, interval and count, as :func:`cell` writes them."""
    r = entry.rate
    low = f"{r.low:.1%}" if r.low is not None else "?"
    high = f"{r.high:.1%}" if r.high is not None else "?"
    return f"{r.value:.1%} [{low}, {high}] n={entry.played}"


def table(bot: str, rows: dict[str, dict[int, str]], tables: Sequence[int],
          heading: str) -> str:
    """The markdown table: a row an opponent, a column a table size."""
    lines = [f"`{bot}` against each opponent, {heading}", "",
             "| opponent | " + " | ".join(f"{t} players" for t in tables) + " |",
             "| --- | " + " | ".join("---" for _ in tables) + " |"]
    lines += [f"| {label} | " + " | ".join(cells.get(t, "") for t in tables) + " |"
              for label, cells in rows.items()]
    return "\n".join(lines)


def report(bot: str, paths: Sequence[Path], plot_to: Path | None) -> str:
    """The table of the kept runs of ``paths`` (see the module), each cell its
    pairing's runs pooled; their plot written to ``plot_to`` when given."""
    labels = {spec: label for label, spec in opponents(bot)}
    sizes = {profile: players for players, profile in PROFILES.items()}
    cells: dict[str, dict[int, Pooled]] = {}
    modes: set[str] = set()
    for entry in pool(paths):
        a, b, profile, options, mode = entry.key
        where = f"{a} vs {b} ({profile}, {mode})"
        if a != bot or b not in labels:
            raise TournamentError(f"{where}: not a pairing of the gauntlet of {bot!r} "
                                  f"(its opponents: {', '.join(labels)})")
        if profile not in sizes or options != "{}":
            raise TournamentError(f"{where}: the gauntlet plays the profiles "
                                  f"{', '.join(sizes)} with their default options, "
                                  f"not {options}")
        modes.add(mode)
        cells.setdefault(labels[b], {})[sizes[profile]] = entry
    if not cells:
        raise TournamentError("no run to report (only fresh-seed runs count)")
    if len(modes) > 1:
        raise TournamentError("runs in games and in deals mode: one table is one mode")
    order = [label for label, _ in opponents(bot) if label in cells]
    tables = [t for t in PROFILES if any(t in cells[label] for label in order)]
    if plot_to is not None:
        _plot({label: cells[label] for label in order}, tables, plot_to)
    mode = modes.pop()
    unit = "games" if mode == "games" else "boards of duplicate deals"
    rows = {label: {t: pooled_cell(e) for t, e in cells[label].items()} for label in order}
    return table(bot, rows, tables,
                 f"{mode} mode, each pairing's runs pooled ({unit}: rate, 95% Wilson "
                 "interval, count)")


def _plot(cells: dict[str, dict[int, Pooled]], tables: Sequence[int], path: Path) -> None:
    """Each cell's rate with its 95% interval: a row an opponent, a colour a table size."""
    n = len(cells)
    fig, ax = figure(10, max(2.5, 0.7 * n + 1.5))
    step = 0.22
    for k, players in enumerate(tables):
        ys, values, below, above = [], [], [], []
        for row, by_size in enumerate(cells.values()):
            entry = by_size.get(players)
            if entry is None:
                continue
            r = entry.rate
            ys.append(row + (k - (len(tables) - 1) / 2) * step)
            values.append(r.value)
            below.append(r.value - (r.low if r.low is not None else r.value))
            above.append((r.high if r.high is not None else r.value) - r.value)
        ax.errorbar(values, ys, xerr=[below, above], fmt="o", capsize=3,
                    color=COLOURS[players], label=f"{players} players")
    ax.axvline(0.5, linestyle="--", color="grey", linewidth=1)
    ax.set_yticks(list(range(n)), list(cells))
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("the searching bot's rate (a tie counting half), 95% Wilson interval")
    ax.legend(loc="lower left")
    fig.savefig(str(path), format="png", dpi=110)


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
    parser.add_argument("--report", nargs="+", type=Path, metavar="JSON",
                        help="play nothing: the table of these kept runs")
    parser.add_argument("--plot", type=Path, help="with --report: the cells drawn (PNG)")
    args = parser.parse_args(argv)
    if args.plot is not None and not args.report:
        print("error: --plot draws the cells of --report's runs: give --report", file=sys.stderr)
        return 2
    if args.report:
        try:
            print(report(args.bot, args.report, args.plot))
        except BeloteError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
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
    print(table(args.bot, rows, tables,
                f"{boards} {mode} a pairing ({unit}; rate, 95% Wilson interval, count)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
