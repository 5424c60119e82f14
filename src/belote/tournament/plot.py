"""The picture of a tournament: each pairing's win rate with its 95% interval, and the Elo
ladder, as a PNG.  ``matplotlib`` is imported only here, when a plot is asked for.
"""

from __future__ import annotations

import os

from belote.tournament.config import TournamentError, import_optional
from belote.tournament.results import TournamentResult

__all__ = ["plot_results"]


def plot_results(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Save a PNG: each pairing's win rate with its 95% interval, and the Elo ladder.

    matplotlib is imported here only, and draws on an Agg canvas (no display, no
    change to the caller's pyplot backend).
    """
    figure_mod = import_optional("matplotlib.figure", "a plot")
    agg = import_optional("matplotlib.backends.backend_agg", "a plot")
    config = result.config
    n = len(result.pairings)
    fig = figure_mod.Figure(figsize=(11, max(3.5, 0.45 * max(n, len(result.elo)) + 1.8)),
                            layout="constrained")
    agg.FigureCanvasAgg(fig)
    ax_rate, ax_elo = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})

    ys = list(range(n))
    rates = [p.win_rate for p in result.pairings]
    values = [r.value for r in rates]
    below = [r.value - (r.low if r.low is not None else r.value) for r in rates]
    above = [(r.high if r.high is not None else r.value) - r.value for r in rates]
    ax_rate.errorbar(values, ys, xerr=[below, above], fmt="o", capsize=4, color="tab:blue")
    ax_rate.axvline(0.5, linestyle="--", color="grey", linewidth=1)
    ax_rate.set_yticks(ys, [f"{p.bots[0]} vs {p.bots[1]}" for p in result.pairings])
    ax_rate.set_ylim(n - 0.5, -0.5)
    ax_rate.set_xlim(-0.02, 1.02)
    unit = "games" if config.mode == "games" else "boards (duplicate deals)"
    ax_rate.set_xlabel(f"win rate of the first bot over {unit}, 95% Wilson interval")
    ax_rate.set_title("Pairings")

    ladder = result.elo
    ax_elo.barh(range(len(ladder)), [e.elo for e in ladder], color="tab:orange")
    ax_elo.set_yticks(range(len(ladder)), [e.bot for e in ladder])
    ax_elo.set_ylim(len(ladder) - 0.5, -0.5)
    ax_elo.axvline(0, color="black", linewidth=0.8)
    for k, e in enumerate(ladder):
        ax_elo.annotate(f"{e.elo:+.0f}", (e.elo, k), va="center",
                        ha="left" if e.elo >= 0 else "right",
                        xytext=(3 if e.elo >= 0 else -3, 0), textcoords="offset points")
    ax_elo.set_xlabel(f"Elo ({config.bots[config.anchor]} = 0)")
    ax_elo.set_title("Elo ladder")
    ax_elo.margins(x=0.2)
    table = config.table
    played = ("played twice" if table.partnerships else
              f"played {table.players} times, seats rotated")
    fig.suptitle(
        f"belote tournament: {config.boards} {config.mode} per pairing, {played} "
        f"(duplicate), profile {config.profile}, seed {config.seed}"
    )
    try:
        fig.savefig(os.fspath(path), format="png", dpi=110)
    except OSError as exc:
        raise TournamentError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
