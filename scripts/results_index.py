"""Write docs/results/README.md: the index of every measured result kept in docs/results/.

Each tournament's JSON answer (``belote tournament --out``) is listed with what was
measured (the bots, the profile, games or deals, the seed), the result of each pairing,
the date its file first entered the repository, and the command that reproduces it;
each report (``*.md``) with its title, and each plot beside its JSON or report.

    .venv/bin/python scripts/results_index.py          # rewrite the index
    .venv/bin/python scripts/results_index.py --check  # exit 1 when it is out of date
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "results"
INDEX = RESULTS / "README.md"

HEAD = """\
# Measured results

Every tournament, strength run and bidding experiment behind the figures of the
project's README, kept as its command answered it. The reports (`*.md`) tell the story of
each step and which runs decided it; the JSON files are the answers of `belote tournament
--out` (the format is described in [the JSON faces](../json.md)); the PNG files are their
plots. "Added" is the day the file first entered the repository. This page is written by
`scripts/results_index.py` (run it after adding a result; `--check` says whether it is up to
date).

These results are history: the commands run the bots of their day. Of the PIMC bot's
presets only `v7` (the default) and `v1` (the baseline) remain; the others were removed, and
each is today `pimc` with these settings given (its spec gives the same bot on the compiled
and on the pure-Python solver):

- `v6`: `read_fit=fixed` (the card model's weight not fitted to the table);
- `v5`: `read_fit=fixed,heard_reads=ignore,objective=score` (the announcements not read, the
  game not weighed);
- `v4`: `v5` and `card_reads=ignore` (the others' cards not read);
- `v3`: `v4` and `loose=0` (no take without two master trumps);
- `v2`: `v3` and `play_calls=ignore` (the calls ignored in the card play).

The plain `pimc` of a command is the default of its day; until these presets were removed,
it took `v1`'s budgets where the C build of the solver was missing.

"""


def added(path: Path) -> str:
    """The day ``path`` first entered the repository (``-`` outside a git checkout)."""
    try:
        out = subprocess.run(
            ["git", "log", "--follow", "--diff-filter=A", "--format=%ad", "--date=short",
             "--", str(path.relative_to(ROOT))],
            cwd=ROOT, capture_output=True, text=True, check=True, timeout=30).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return "-"
    return out[-1] if out else "-"


def command(doc: dict[str, Any], name: str) -> str:
    """The ``belote tournament`` command that plays the same boards again."""
    words = ["belote", "tournament", "--bots", ",".join(doc["bots"])]
    words += ["--games" if doc.get("mode") == "games" else "--deals", str(doc["boards"])]
    words += ["--seed", str(doc["seed"])]
    if doc.get("profile", "classic") != "classic":
        words += ["--profile", doc["profile"]]
    for key, value in sorted((doc.get("options") or {}).items()):
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        words += ["--option", f"{key}={shown}"]
    words += ["--out", f"docs/results/{name}"]
    return shlex.join(words)


def pairing(p: dict[str, Any], mode: str) -> str:
    """One pairing's result for the second bot: games (or deals) won, and points."""
    first, second = p["bots"]
    key = "games" if mode == "games" and p.get("games") else "deal_results"
    won = p[key]
    what = "games" if key == "games" else "deals"
    rate = won["rate"]  # the first bot's: the second's is its complement
    low, value, high = 1 - rate["high"], 1 - rate["value"], 1 - rate["low"]
    margin = p.get("margin_per_deal") or {}
    points = ""
    if "value" in margin:
        points = f", {-margin['value']:+.1f} points a deal"
    tied = f", {won['ties']} tied" if won.get("ties") else ""
    return (f"`{second}` against `{first}`: {won['losses']} of {won['played']} {what} won"
            f"{tied} ({value:.1%}, {low:.1%}–{high:.1%}){points}")


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def tournament_rows(files: list[Path]) -> list[str]:
    rows = ["| file | measured | result | added | command |", "| --- | --- | --- | --- | --- |"]
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        plot = path.with_suffix(".png")
        name = f"[{path.name}]({path.name})"
        if plot.exists():
            name += f" ([plot]({plot.name}))"
        mode = doc.get("mode", "deals")
        options = ", ".join(f"{k}={v}" for k, v in sorted((doc.get("options") or {}).items()))
        measured = (f"{doc.get('profile', 'classic')}{' (' + options + ')' if options else ''}, "
                    f"{doc['boards']} {'games' if mode == 'games' else 'deals'} a pairing, "
                    f"seed {doc['seed']}")
        result = "<br>".join(pairing(p, mode) for p in doc.get("pairings", []))
        rows.append(f"| {name} | {cell(measured)} | {cell(result)} | {added(path)} | "
                    f"`{cell(command(doc, path.name))}` |")
    return rows


def title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


def render() -> str:
    reports = sorted(p for p in RESULTS.glob("*.md") if p != INDEX)
    jsons = sorted(RESULTS.glob("*.json"))
    tournaments = [p for p in jsons if "pairings" in json.loads(p.read_text(encoding="utf-8"))]
    others = [p for p in jsons if p not in tournaments]
    lone_plots = sorted(p for p in RESULTS.glob("*.png") if not p.with_suffix(".json").exists())
    out = [HEAD, "## Reports\n", "| report | added |", "| --- | --- |"]
    out += [f"| [{cell(title(p))}]({p.name}) | {added(p)} |" for p in reports]
    out += ["", "## Tournaments\n"]
    out += tournament_rows(tournaments)
    out += ["", "## Other records\n", "| file | what it holds | added |", "| --- | --- | --- |"]
    for p in others:
        about = json.loads(p.read_text(encoding="utf-8")).get("about", "")
        out.append(f"| [{p.name}]({p.name}) | {cell(str(about))} | {added(p)} |")
    for p in lone_plots:
        out.append(f"| [{p.name}]({p.name}) | a plot of several runs "
                   f"(`benchmarks/plot_games.py`; the reports say which) | {added(p)} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1, changing nothing, when the index is out of date")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = INDEX.read_text(encoding="utf-8") if INDEX.exists() else ""
        if current != text:
            print(f"{INDEX.relative_to(ROOT)} is out of date: run scripts/results_index.py",
                  file=sys.stderr)
            return 1
        print("docs/results/README.md is up to date")
        return 0
    INDEX.write_text(text, encoding="utf-8")
    print(f"wrote {INDEX.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
