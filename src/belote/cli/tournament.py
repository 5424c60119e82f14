"""`belote tournament`: bots against each other over duplicate boards (issue 5).

Four players: each board twice, the teams swapped.  Three and two (docs/rules.md §12):
each board once a seat, the seats rotated (see :mod:`belote.tournament`)."""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from belote.bots.registry import split_bot_specs
from belote.cli.common import (
    CommandError,
    check_int,
    dumps,
    echo,
    fail,
    fail_interrupted,
    parse_options,
    plural,
)
from belote.cli.flags import JsonOpt, NoProgressOpt, OptionOpt, ProfileOpt, SeedOpt, progress_bar
from belote.errors import BeloteError
from belote.history import HistoryStore, Player, summarise
from belote.play import SEAT_NAMES
from belote.tournament import (
    Estimate,
    Record,
    TournamentConfig,
    TournamentError,
    TournamentResult,
    plot_results,
    run_tournament,
)

BotsOpt = Annotated[str, typer.Option(
    "--bots", metavar="BOTS",
    help="Bots, comma separated (random, heuristic, pimc, pimc:worlds=40, ...): "
    "every pair meets (a round robin).")]
DealsOpt = Annotated[int | None, typer.Option(
    "--deals", metavar="N",
    help="N deals per pairing, each played twice with the seats swapped (duplicate; with "
    "3 or 2 players once a seat, the seats rotated). The default mode: 100 deals.")]
GamesOpt = Annotated[int | None, typer.Option(
    "--games", metavar="N",
    help="N games to the target per pairing, each replayed with the teams swapped on the "
    "same decks.")]
WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", metavar="N", help="Local worker processes (default: the CPU count).")]
RayOpt = Annotated[str | None, typer.Option(
    "--ray", metavar="ADDRESS",
    help="Run on the Ray cluster at ADDRESS (auto, ray://host:10001, local).")]
OutOpt = Annotated[Path | None, typer.Option(
    "--out", metavar="PATH", help="Save the results as JSON here.")]
PlotOpt = Annotated[Path | None, typer.Option(
    "--plot", metavar="PATH", help="Save a PNG plot of win rates and Elo here.")]
KeepOpt = Annotated[Path | None, typer.Option(
    "--keep-records", metavar="PATH",
    help="Keep every table's game (its record, deal by deal) in the history file PATH "
    "(`belote history --db PATH` reads it).")]


def keep_records(path: Path, result: TournamentResult) -> int:
    """Every table of ``result`` (run with ``keep_records``) kept in the history file
    ``path``, one game a table (deals mode: a game of its one deal), its id
    ``{run}-{pairing}-{board}-{table}`` (from 1; ``run`` new for each tournament, so
    that a second run adds to the file); answers how many."""
    run = "t" + secrets.token_hex(3)
    games = []
    for (pairing, board, table), played in result.tables:
        assert played.record is not None
        seats = [Player(SEAT_NAMES[s], bot, "bot") for s, bot in enumerate(played.seats)]
        games.append(summarise(played.record, game_id=f"{run}-{pairing + 1}-{board + 1}-"
                               f"{table + 1}", source="tournament", seats=seats))
    with HistoryStore(path) as store:
        store.keep_all(games)
    return len(games)


def _rate(e: Estimate) -> str:
    text = f"{100 * e.value:.1f}%"
    if e.low is not None and e.high is not None:
        text += f" [{100 * e.low:.1f}–{100 * e.high:.1f}]"
    return text


def _mean(e: Estimate) -> str:
    text = f"{e.value:+.1f}"
    if e.low is not None and e.high is not None:
        text += f" ± {(e.high - e.low) / 2:.1f}"
    return text


def _record(r: Record) -> str:
    return f"{r.wins}-{r.losses}-{r.ties}"


def render(result: TournamentResult, console: Console) -> None:
    """The human form: the pairings (games, then deals) and the Elo ladder."""
    config = result.config
    games = config.mode == "games"
    setting = f"{config.profile}, seed {config.seed}"
    teams = config.table.partnerships  # four players; else three or two, seats rotated
    replayed = ("each replayed with the teams swapped" if teams else
                f"each played {config.table.players} times with the seats rotated")
    if games:
        table = Table(
            title=f"{plural(config.boards, 'game')} per pairing, {replayed} on the same decks "
            f"({setting})",
            show_edge=False,
        )
        table.add_column("pairing", no_wrap=True)
        table.add_column("won-lost-drawn", justify="right", no_wrap=True)
        table.add_column("game win rate [95%]", justify="right", no_wrap=True)
        for p in result.pairings:
            assert p.games is not None
            table.add_row(f"{p.bots[0]} vs {p.bots[1]}", _record(p.games), _rate(p.games.rate))
        console.print(table)
    table = Table(
        title="The deals of those games" if games else
        f"{plural(config.boards, 'deal')} per pairing, "
        + ("each played twice with the seats swapped" if teams else replayed)
        + f" ({setting})",
        caption="first bot's side; margin: its points per deal over the second bot, ± 95%"
        + ("" if teams else " (a bot's points: the mean of its seats')")
        + ("" if games else "; a board: " + ("both tables" if teams else
                                              "every table") + " of a deal"),
        show_edge=False,
    )
    table.add_column("pairing", no_wrap=True)
    table.add_column("won-lost-tied", justify="right", no_wrap=True)
    table.add_column(f"{'deal' if games else 'board'} win rate [95%]", justify="right")
    table.add_column("points/deal", justify="right")
    table.add_column("margin", justify="right")
    for p in result.pairings:
        table.add_row(
            f"{p.bots[0]} vs {p.bots[1]}", _record(p.deal_results), _rate(p.deal_results.rate),
            f"{p.points_per_deal[0]:.1f}–{p.points_per_deal[1]:.1f}", _mean(p.margin_per_deal),
        )
    console.print(table)
    ladder = Table(title=f"Elo ladder ({config.bots[config.anchor]} = 0)")
    ladder.add_column("#", justify="right")
    ladder.add_column("bot", no_wrap=True)
    ladder.add_column("Elo", justify="right")
    ladder.add_column("games" if games else "boards", justify="right")
    ladder.add_column("score", justify="right")
    for rank, e in enumerate(result.elo, start=1):
        ladder.add_row(str(rank), e.bot, f"{e.elo:+.0f}", str(e.played), f"{e.score:g}")
    console.print(ladder)
    console.print(
        f"{result.seconds:.1f} s on {result.workers} "
        f"{'Ray CPUs' if result.runner == 'ray' else 'worker(s)'}",
        highlight=False,
    )


def _error_message(exc: BeloteError) -> str:
    """The error line.  A bot that raised leaves its full traceback in a file the line
    names: the command answers one line, never a traceback (docs/json.md), and a
    tournament is too long to run again to see where a bot failed."""
    text = exc.traceback_text if isinstance(exc, TournamentError) else None
    if not text:
        return str(exc)
    fd, path = tempfile.mkstemp(prefix="belote-tournament-", suffix=".txt")
    with os.fdopen(fd, "w", encoding="utf-8") as stream:
        stream.write(text)
    return f"{exc} (the bot's traceback: {path})"


def _config(
    bots: str, deals: int | None, games: int | None, seed: int | None, profile: str,
    options: list[str] | None,
) -> TournamentConfig:
    if deals is not None and games is not None:
        raise CommandError("--deals and --games: give one of them, not both")
    mode, boards = ("games", games) if games is not None else ("deals", deals or 100)
    if deals is not None and deals < 1:
        raise CommandError(f"--deals: {deals!r} is not a positive whole number")
    if games is not None and games < 1:
        raise CommandError(f"--games: {games!r} is not a positive whole number")
    parsed = parse_options(options)
    names = tuple(split_bot_specs(bots))  # (a spec's own settings kept: pimc:a=1,b=2)
    if any(not b for b in names):
        raise CommandError(f"--bots: {bots!r} holds an empty bot name")
    return TournamentConfig(
        bots=names, mode=mode, boards=boards,
        seed=seed if seed is not None else secrets.randbits(32),
        profile=profile, options=parsed,
    )


def register(app: typer.Typer) -> None:
    @app.command("tournament")
    def tournament_command(
        bots: BotsOpt = "random,heuristic",
        deals: DealsOpt = None,
        games: GamesOpt = None,
        seed: SeedOpt = None,
        profile: ProfileOpt = "classic",
        option: OptionOpt = None,
        workers: WorkersOpt = None,
        ray: RayOpt = None,
        out: OutOpt = None,
        plot: PlotOpt = None,
        keep: KeepOpt = None,
        json_mode: JsonOpt = False,
        no_progress: NoProgressOpt = False,
    ) -> None:
        """Bots against each other over duplicate deals or games: win rates, Elo, a plot.

        Every pair of bots meets over the same deals with the seats swapped: win
        rates, points per deal, an Elo ladder; JSON results (--out, --json; see
        docs/json.md) and a PNG plot (--plot).
        """
        check_int("--workers", workers, 1, 4096, json_mode)
        check_int("--deals", deals, 1, 10_000_000, json_mode)
        check_int("--games", games, 1, 1_000_000, json_mode)
        err = Console(stderr=True)
        try:
            config = _config(bots, deals, games, seed, profile, option)
            with progress_bar("tournament", "boards", err, not no_progress) as update:
                result = run_tournament(
                    config, workers=workers, ray_address=ray, progress=update,
                    keep_records=keep is not None,
                )
            if out is not None:
                result.save(out)
            if keep is not None:
                keep_records(keep, result)
            if plot is not None:
                plot_results(result, plot)
        except BeloteError as exc:
            fail(_error_message(exc), json_mode)
        except KeyboardInterrupt:
            fail_interrupted(json_mode)
        if json_mode:
            echo(dumps(result.to_json()))
            return
        console = Console()
        render(result, console)
        for path, what in ((out, "results"), (plot, "plot"), (keep, "records")):
            if path is not None:
                console.print(f"{what} saved to {path}")
