"""`belote simulate`: deal after deal between bots at one table (docs/json.md).

Four bots (N E S W), or three (N E S) and two (N E) at the tables of docs/rules.md §12
(profiles ``classic-3p``, ``classic-2p``), whose JSON is per seat (see
:meth:`belote.bots.arena.SimulationResult.to_json`)."""

from __future__ import annotations

import secrets
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table as Grid

from belote.bots.arena import SimulationResult, simulate
from belote.bots.registry import split_bot_specs
from belote.cli.common import (
    check_int,
    dumps,
    echo,
    fail,
    fail_interrupted,
    parse_options,
    plural,
)
from belote.cli.flags import JsonOpt, NoProgressOpt, OptionOpt, ProfileOpt, SeedOpt, progress_bar
from belote.errors import BeloteError, OptionError
from belote.options import make_rules
from belote.play import SEAT_NAMES
from belote.table import NO_SEAT, Table

BotsOpt = Annotated[
    str | None,
    typer.Option(
        "--bots", metavar="BOTS",
        help="Bots at N,E,S,W, comma separated (random, heuristic, pimc, "
        "pimc:worlds=40,seconds=0.5); one bot for all four seats, or two for NS and EW. "
        "Three players: N,E,S; two: N,E (or one for all). Default: random at every seat.",
    ),
]
DealsOpt = Annotated[int, typer.Option("--deals", metavar="N", help="Number of deals to play.")]
MAX_DEALS = 10_000_000


def seat_specs(text: str, players: int = 4) -> list[str]:
    """The seats' bot specs from ``--bots``: four, two (NS, EW) or one for all; with
    three or two players (§12), one a seat (N,E,S or N,E) or one for all."""
    specs = split_bot_specs(text)
    if any(not s for s in specs):
        raise OptionError(f"--bots: {text!r} has an empty bot name")
    if len(specs) == 1:
        return specs * players
    if len(specs) == players:
        return specs
    table = Table.seated(players)
    if table.partnerships:
        if len(specs) == 2:  # one bot a team
            return [specs[side] for side in table.sides(NO_SEAT)]
        raise OptionError(
            f"--bots: {text!r} names {len(specs)} bots; give 4 (N,E,S,W), 2 (NS,EW) or 1"
        )
    seats = ",".join(SEAT_NAMES[:players])
    raise OptionError(
        f"--bots: {text!r} names {len(specs)} bots; {players} players: give {players} "
        f"({seats}) or 1"
    )


def render(result: SimulationResult, profile: str, console: Console) -> None:
    """The human form: the score and what the contracts became, a row a team (NS, EW),
    or a row a seat at three and two players (§12)."""
    out = result.to_json()
    per_seat = Table.seated(result.players).scores_per_seat
    players = f"{result.players} players, " if per_seat else ""
    table = Grid(
        title=f"{plural(result.deals, 'deal')} ({profile}, {players}seed {result.seed}) "
        f"in {result.seconds:.1f} s"
    )
    table.add_column("seat" if per_seat else "team")
    table.add_column("bot" if per_seat else "bots")
    keys = ("score", "taken", "made", "failed", "capots")
    for key in keys:
        table.add_column(key, justify="right")
    for row in out["score"]:  # a team's name is its seats' (NS), a seat's its own
        bots = " + ".join(dict.fromkeys(out["bots"][seat] for seat in row))
        table.add_row(row, bots, *(str(out[key][row]) for key in keys))
    console.print(table)
    extra = f"all-passes: {result.all_passes}, litiges: {result.litiges}"
    if result.counted:
        extra += f", découverte deals: {result.counted}"
    if result.reserve:
        extra += f", reserve still open: {result.reserve}"
    console.print(extra)


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate_command(
        bots: BotsOpt = None,
        deals: DealsOpt = 100,
        seed: SeedOpt = None,
        profile: ProfileOpt = "classic",
        option: OptionOpt = None,
        json_mode: JsonOpt = False,
        no_progress: NoProgressOpt = False,
    ) -> None:
        """Bots play deals at one table; the score, contracts made and failed.

        Seats N E S W (N E S, N E at three and two players).  The same seed gives
        the same deals and the same result.  With --json: {"deals", "seed",
        "score", "taken", "made", "failed", "capots", "bots", ...} (docs/json.md).
        """
        check_int("--deals", deals, 0, MAX_DEALS, json_mode)
        err = Console(stderr=True)
        if seed is None:
            seed = secrets.randbits(32)
        try:
            rules = make_rules(profile, parse_options(option))
            specs = seat_specs(bots or "random", rules.players)
            show = not (json_mode or no_progress)
            with progress_bar("simulate", "deals", err, show, total=deals) as update:
                result = simulate(rules, specs, deals, seed, on_deal=update)
        except BeloteError as exc:
            fail(str(exc), json_mode)
        except KeyboardInterrupt:
            fail_interrupted(json_mode)
        if json_mode:
            out = result.to_json()
            out["profile"] = profile
            out["options"] = rules.overrides()
            echo(dumps(out))
            return
        render(result, profile, Console())
