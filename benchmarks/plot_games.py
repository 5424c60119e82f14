"""One picture of several `belote tournament --out` runs of the same pairing: the games
the second bot won in each run, in each group of runs pooled and, with several groups,
in all of them pooled, with 95% Wilson intervals and a line at a goal.

Each run is given as ``LABEL=FILE`` (the label groups the runs pooled together); each
file must hold one pairing of games.  Run:

    .venv/bin/python benchmarks/plot_games.py --goal 0.75 --out docs/x.png \\
        v5=docs/results/tournament-heuristic-vs-pimc-v5.json v5=...seed12.json v6=...

Prints each run's and each group's count and interval too.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from belote.tournament.stats import wilson_interval


@dataclass(frozen=True)
class Run:
    label: str
    path: str
    seed: int
    bots: tuple[str, str]
    won: float  # the second bot's wins, a tie counting half
    played: int


def _run(arg: str) -> Run:
    label, eq, path = arg.partition("=")
    if not eq or not label or not path:
        raise argparse.ArgumentTypeError(f"{arg!r} is not LABEL=FILE")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        [pairing] = data["pairings"]
        games = pairing["games"]
        if data["mode"] != "games":
            raise ValueError(f"mode {data['mode']!r}, not games")
        bots = tuple(pairing["bots"])
        return Run(label, path, int(data["seed"]), (bots[0], bots[1]),
                   int(games["losses"]) + int(games["ties"]) / 2, int(games["played"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise argparse.ArgumentTypeError(
            f"{path}: not one tournament pairing of games ({exc})") from exc


def _line(name: str, won: float, played: int) -> str:
    low, high = wilson_interval(won, played)
    return (f"{name}: {won:g} of {played} ({100 * won / played:.1f}%, "
            f"{100 * low:.1f}-{100 * high:.1f}%)")


def _pooled(name: str, runs: Sequence[Run]) -> tuple[str, float, int, bool]:
    """A row of the picture: the runs' games added up."""
    return name, sum(r.won for r in runs), sum(r.played for r in runs), True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=_run, help="LABEL=FILE, one per run")
    parser.add_argument("--goal", type=float, default=0.75, help="a line at this rate")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--title", default="")
    args = parser.parse_args(argv)
    runs: list[Run] = args.runs
    groups: dict[str, list[Run]] = {}
    for r in runs:
        groups.setdefault(r.label, []).append(r)
    rows: list[tuple[str, float, int, bool]] = []
    for label, members in groups.items():
        for r in members:
            rows.append((f"{label}, seed {r.seed} ({r.bots[1]})", r.won, r.played, False))
        seeds = f"all {len(members)} seeds" if len(members) > 1 else "its one seed"
        rows.append(_pooled(f"{label}, {seeds}", members))
    if len(groups) > 1:  # the groups are steps of the same question: all of them pooled
        rows.append(_pooled(f"every group, all {len(runs)} seeds", runs))
    for name, won, played, _ in rows:
        print(_line(name, won, played))

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 0.42 * len(rows) + 1.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    for y, (_, won, played, pooled) in enumerate(rows):
        rate = won / played
        low, high = wilson_interval(won, played)
        ax.errorbar([rate], [y], xerr=[[rate - low], [high - rate]], fmt="D" if pooled else "o",
                    capsize=4, color="tab:red" if pooled else "tab:blue")
        ax.annotate(f"{won:g}/{played}", (high, y), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=8)
    ax.axvline(args.goal, linestyle="--", color="grey", linewidth=1)
    ax.axvline(0.5, linestyle=":", color="grey", linewidth=1)
    ax.set_yticks(range(len(rows)), [name for name, *_ in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0.45, 1.0)
    ax.set_xlabel(f"games won by the second bot against {runs[0].bots[0]}\n95% Wilson "
                  f"interval (dashed: {args.goal:.0%})")
    ax.set_title(args.title or "games to the target, duplicate")
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
