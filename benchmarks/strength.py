"""Strength runs on fresh deals: a tournament whose seed is drawn when it runs, and the
runs of the same pairings pooled across files with Wilson intervals.

A claim about the bots' strength is made on deals nobody chose: by default ``run``
draws the tournament seed from the operating system (:func:`secrets.randbits`) when
it starts, and records it in the result's JSON (``seed``, with ``seed_source``:
``fresh``, or ``given`` when ``--seed`` chose it: settings are tuned on given
*development* seeds, and claims come from fresh ones).  ``pool`` adds up the runs of
each pairing (same bots, profile, options and mode) over several files, refuses a
seed seen twice (the same deals are not new evidence), counts only fresh runs unless
``--with-given`` says otherwise, and prints each pairing's pooled record with its 95%
Wilson interval (:func:`belote.tournament.stats.rate_estimate`); ``--plot`` draws them
with their intervals (matplotlib, as ``belote tournament --plot``).  ``pool`` also
gives each pairing's points a deal, the first bot's margin over the second, as the mean
over every board of the runs with its normal 95% interval: each run records its boards'
mean and interval, from which the boards' pooled spread follows exactly (the same
figures as one run over all the boards, :func:`pooled_margin`).

    .venv/bin/python benchmarks/strength.py run --bots heuristic,pimc --games 200 \\
        --profile classic-3p --out benchmarks/results/3p-1.json [--workers 2] [--seed S]
    .venv/bin/python benchmarks/strength.py pool benchmarks/results/3p-*.json \\
        [--plot pooled.png] [--with-given] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import secrets
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from belote.errors import BeloteError
from belote.tournament import TournamentConfig, run_tournament
from belote.tournament.config import TournamentError, import_optional
from belote.tournament.stats import Z95, Estimate, rate_estimate

FRESH = "fresh"
GIVEN = "given"


def fresh_seed() -> int:
    """A tournament seed drawn from the operating system's randomness (63 bits)."""
    return secrets.randbits(63)


def run(bots: Sequence[str], profile: str, options: dict[str, str], mode: str, boards: int,
        seed: int | None, workers: int, out: Path | None,
        argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Play the tournament (``seed`` None: a fresh one) and answer its JSON, with the
    seed's source and the command (``argv``, the script's arguments: this process's
    by default); written to ``out`` when given."""
    source = GIVEN if seed is not None else FRESH
    chosen = seed if seed is not None else fresh_seed()
    config = TournamentConfig(bots=tuple(bots), mode=mode, boards=boards, seed=chosen,
                              profile=profile, options=dict(options))
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    result = run_tournament(config, workers=workers)
    answer = result.to_json()
    answer["seed_source"] = source
    answer["started"] = started
    words = ["benchmarks/strength.py", *argv] if argv is not None else sys.argv
    answer["command"] = " ".join(shlex.quote(a) for a in words)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(answer, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return answer


@dataclass
class Pooled:
    """One pairing's runs added up: the first bot's wins, losses and ties (games, or
    boards in deals mode) and the seeds of the runs."""

    key: tuple[str, str, str, str, str]  # bot A, bot B, profile, options, mode
    wins: int = 0
    losses: int = 0
    ties: int = 0
    seeds: tuple[int, ...] = ()
    margins: tuple[tuple[int, Estimate], ...] = ()  # each run's boards, margin a deal

    @property
    def margin(self) -> Estimate:
        """The first bot's points a deal over the second, over every board pooled."""
        return pooled_margin(self.margins)

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def rate(self) -> Estimate:
        """The first bot's rate (a tie counting half) and its 95% Wilson interval."""
        return rate_estimate(self.wins + self.ties / 2, self.played)

    def label(self) -> str:
        a, b, profile, options, mode = self.key
        extra = f" {options}" if options != "{}" else ""
        return f"{a} vs {b} ({profile}{extra}, {mode})"


def pooled_margin(runs: Sequence[tuple[int, Estimate]], z: float = Z95) -> Estimate:
    """The mean of every board of ``runs`` (each: its boards, and their mean with its
    normal interval ``mean ± z·s/√n``, as a tournament records ``margin_per_deal``) and
    its interval, as :func:`belote.tournament.stats.mean_estimate` gives it over all the
    boards at once: each run's spread ``s`` is read back from its interval, and the
    pooled variance adds the spread within runs to that of the runs' means.

    >>> from belote.tournament.stats import mean_estimate
    >>> e = pooled_margin([(4, mean_estimate([1.0, 2.0, 3.0, 6.0])),
    ...                    (3, mean_estimate([-1.0, 0.0, 4.0]))])
    >>> a = mean_estimate([1.0, 2.0, 3.0, 6.0, -1.0, 0.0, 4.0])
    >>> round(e.value, 9) == round(a.value, 9), round(e.low or 0, 9) == round(a.low or 0, 9)
    (True, True)
    """
    n = sum(boards for boards, _ in runs)
    if n == 0:
        raise ValueError("pooled_margin: no boards")
    mean = math.fsum(boards * e.value for boards, e in runs) / n
    if n < 2:
        return Estimate(mean, None, None)
    squares = 0.0
    for boards, e in runs:
        if boards >= 2:
            if e.high is None:
                raise ValueError("pooled_margin: a run of several boards without an interval")
            spread = (e.high - e.value) * math.sqrt(boards) / z
            squares += (boards - 1) * spread * spread
        squares += boards * (e.value - mean) ** 2
    half = z * math.sqrt(squares / (n - 1)) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half)


def pool(paths: Sequence[Path], with_given: bool = False) -> list[Pooled]:
    """The runs of ``paths`` added up by pairing (see the module); refuses a file that
    is not a tournament's answer and a seed seen twice for the same pairing."""
    pooled: dict[tuple[str, str, str, str, str], Pooled] = {}
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise TournamentError(f"{path}: not a readable JSON file ({exc})") from None
        if not isinstance(data, dict) or not isinstance(data.get("pairings"), list):
            raise TournamentError(f"{path}: not the answer of a tournament (no pairings)")
        source = data.get("seed_source", GIVEN)  # (a plain `belote tournament` answer: given)
        if source != FRESH and not with_given:
            continue
        seed = data.get("seed")
        if not isinstance(seed, int):
            raise TournamentError(f"{path}: no whole-number seed")
        options = json.dumps(data.get("options", {}), sort_keys=True)
        for p in data["pairings"]:
            a, b = p["bots"]
            key = (a, b, str(data.get("profile")), options, str(data.get("mode")))
            record = p["games"] if data.get("mode") == "games" else p["deal_results"]
            entry = pooled.setdefault(key, Pooled(key))
            if seed in entry.seeds:
                raise TournamentError(
                    f"{path}: seed {seed} of {a} vs {b} is pooled already (the same deals "
                    "twice are not new evidence)")
            entry.seeds += (seed,)
            margin = p.get("margin_per_deal")
            if not isinstance(margin, dict) or not isinstance(p.get("boards"), int):
                raise TournamentError(f"{path}: {a} vs {b} has no boards and margin_per_deal "
                                      "(not the answer of a tournament)")
            entry.margins += ((p["boards"], Estimate(
                float(margin["value"]),
                None if margin.get("low") is None else float(margin["low"]),
                None if margin.get("high") is None else float(margin["high"]))),)
            entry.wins += int(record["wins"])
            entry.losses += int(record["losses"])
            entry.ties += int(record["ties"])
    return sorted(pooled.values(), key=lambda e: e.key)


def describe(entry: Pooled) -> str:
    r = entry.rate
    low = f"{r.low:.1%}" if r.low is not None else "?"
    high = f"{r.high:.1%}" if r.high is not None else "?"
    m = entry.margin
    spread = f" [{m.low:+.1f}, {m.high:+.1f}]" if m.low is not None and m.high is not None else ""
    return (f"{entry.label()}: {entry.wins}-{entry.losses}-{entry.ties} of {entry.played} "
            f"over {len(entry.seeds)} runs, {r.value:.1%} [{low}, {high}]; the first bot's "
            f"points a deal over the second {m.value:+.2f}{spread}")


def figure(width: float, height: float) -> tuple[Any, Any]:
    """A matplotlib figure of that size (inches) drawn without a display, and its axes
    (matplotlib is an optional dependency: a clear error without it)."""
    figure_mod = import_optional("matplotlib.figure", "a plot")
    agg = import_optional("matplotlib.backends.backend_agg", "a plot")
    fig = figure_mod.Figure(figsize=(width, height), layout="constrained")
    agg.FigureCanvasAgg(fig)
    return fig, fig.subplots()


def wrapped(text: str, width: int = 60) -> str:
    """``text`` on lines of at most ``width`` characters where it can break: after a
    comma or a space (a bot's spec has no spaces, only commas between its settings).

    >>> print(wrapped("pimc:bidding=heuristic,worlds=16,tricks=7 vs pimc (classic-2p)", 30))
    pimc:bidding=heuristic,
    worlds=16,tricks=7 vs pimc
    (classic-2p)
    """
    lines = [""]
    for piece in re.split(r"(?<=[, ])", text):
        if lines[-1] and len(lines[-1]) + len(piece.rstrip()) > width:
            lines[-1] = lines[-1].rstrip()
            lines.append("")
        lines[-1] += piece
    return "\n".join(line.rstrip() for line in lines)


def plot(entries: Sequence[Pooled], path: Path) -> None:
    """Each pairing's pooled rate with its 95% Wilson interval, as a PNG (a long
    label on several lines)."""
    n = len(entries)
    labels = [wrapped(f"{e.label()}  n={e.played}") for e in entries]
    lines = sum(label.count("\n") + 1 for label in labels)
    fig, ax = figure(14, max(2.5, 0.3 * lines + 0.25 * n + 1.5))
    rates = [e.rate for e in entries]
    values = [r.value for r in rates]
    below = [r.value - (r.low if r.low is not None else r.value) for r in rates]
    above = [(r.high if r.high is not None else r.value) - r.value for r in rates]
    ys = list(range(n))
    ax.errorbar(values, ys, xerr=[below, above], fmt="o", capsize=4, color="tab:blue")
    ax.axvline(0.5, linestyle="--", color="grey", linewidth=1)
    ax.set_yticks(ys, labels)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("the first bot's rate (a tie counting half), runs pooled, "
                  "95% Wilson interval")
    fig.savefig(str(path), format="png", dpi=110)


def _options(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise TournamentError(f"--option {pair!r}: not KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="a tournament on fresh deals (the seed drawn now)")
    r.add_argument("--bots", required=True, help="two or more specs, comma-separated")
    r.add_argument("--profile", default="classic")
    r.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    size = r.add_mutually_exclusive_group()
    size.add_argument("--games", type=int, help="games mode: boards (games per table)")
    size.add_argument("--deals", type=int, help="deals mode: boards")
    r.add_argument("--seed", type=int, help="a development seed (default: a fresh one)")
    r.add_argument("--workers", type=int, default=1)
    r.add_argument("--out", type=Path)
    p = sub.add_parser("pool", help="pool runs of the same pairings")
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--with-given", action="store_true",
                   help="count runs of given (development) seeds too")
    p.add_argument("--plot", type=Path)
    p.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from belote.bots.registry import split_bot_specs

    try:
        if args.command == "run":
            mode, boards = ("deals", args.deals) if args.deals else ("games", args.games or 50)
            answer = run(split_bot_specs(args.bots), args.profile, _options(args.option), mode,
                         boards, args.seed, args.workers, args.out,
                         argv=list(argv) if argv is not None else None)
            print(f"seed {answer['seed']} ({answer['seed_source']}), {mode} x {boards}")
            for pairing in answer["pairings"]:
                record = pairing["games"] or pairing["deal_results"]
                rate = record["rate"]
                print(f"  {pairing['bots'][0]} vs {pairing['bots'][1]}: {record['wins']}-"
                      f"{record['losses']}-{record['ties']}, {rate['value']:.1%} "
                      f"[{rate['low']:.1%}, {rate['high']:.1%}]")
            return 0
        entries = pool(args.files, args.with_given)
        if not entries:
            print("error: no run to pool (only fresh-seed runs count without --with-given)",
                  file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps([{"bots": list(e.key[:2]), "profile": e.key[2],
                               "options": json.loads(e.key[3]), "mode": e.key[4],
                               "wins": e.wins, "losses": e.losses, "ties": e.ties,
                               "seeds": list(e.seeds), "rate": e.rate.to_json(),
                               "margin_per_deal": e.margin.to_json()}
                              for e in entries], indent=2))
        else:
            for e in entries:
                print(describe(e))
        if args.plot is not None:
            plot(entries, args.plot)
        return 0
    except BeloteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
