"""`belote rotation N`: a fair schedule for 5, 6 or 7 players at one table (docs/rules.md §13).

With ``--json`` the docs/json.md form; without it a table of the hands followed
by each player's share of the cycle (sit-outs, longest rest, partners and
opponents with every other player), so that fairness shows at a glance.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from belote.cli.common import dumps, echo, fail, plural, times
from belote.cli.fast import parse_players
from belote.errors import BeloteError
from belote.rotation import (
    Seating,
    check_cycle,
    fair_cycle,
    max_rest,
    tally,
    targets,
    to_json,
)

PlayersArg = Annotated[
    str, typer.Argument(metavar="N", help="Number of players: 5, 6 or 7.", show_default=False)
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Answer in JSON (docs/json.md).")]


def _team(team: tuple[int, int]) -> str:
    return f"{team[0]} + {team[1]}"


def render(n: int, cycle: tuple[Seating, ...], console: Console) -> None:
    """The hands, then every player's share of the cycle."""
    hands = Table(title=f"Fair rotation for {n} players: {plural(len(cycle), 'hand')} "
                  "(docs/rules.md §13)")
    hands.add_column("Hand", justify="right")
    hands.add_column("Team A")
    hands.add_column("Team B")
    hands.add_column("Sitting out")
    for number, seating in enumerate(cycle, start=1):
        hands.add_row(
            str(number),
            _team(seating.teams[0]),
            _team(seating.teams[1]),
            ", ".join(str(p) for p in seating.out),
        )
    console.print(hands)

    summary = Table(
        title="Each player over the cycle: hands played, sat out, longest rest in a row, "
        "and partners/opponents with each other player"
    )
    summary.add_column("Player", justify="right")
    summary.add_column("Plays", justify="right")
    summary.add_column("Out", justify="right")
    summary.add_column("Rest", justify="right")
    for q in range(1, n + 1):
        summary.add_column(f"{q}", justify="center")
    for t in tally(n, cycle):
        summary.add_row(
            str(t.player),
            str(len(cycle) - t.sit_outs),
            str(t.sit_outs),
            str(t.longest_rest),
            *(
                "—" if q == t.player else f"{t.partners[q]}/{t.opponents[q]}"
                for q in range(1, n + 1)
            ),
        )
    console.print(summary)

    want = targets(n, len(cycle))
    problems = check_cycle(n, cycle)
    if want is not None and not problems:
        console.print(
            f"Fair: every player sits out {want.sit_outs} of {plural(want.length, 'hand')}, "
            f"never more than {max_rest(n)} in a row; every pair are partners "
            f"{times(want.partners)} and opponents {times(want.opponents)}. Compare "
            f"standings after every {plural(want.length, 'hand')}."
        )
    else:  # pragma: no cover - fair_cycle is always fair
        for problem in problems:
            console.print(f"[red]{problem}[/red]")


def register(app: typer.Typer) -> None:
    # Unknown options are left to N, so that `belote rotation -1` says what N must be.
    @app.command("rotation", context_settings={"ignore_unknown_options": True})
    def rotation(players: PlayersArg, json_mode: JsonOpt = False) -> None:
        """A fair rotation table for 5, 6 or 7 players at one table.

        Every player sits out as often, never long in a row, and every pair are
        partners and opponents as often (docs/rules.md §13).  With --json:
        {"players", "cycle": [{"teams", "out"}, ...]} (docs/json.md).
        """
        try:
            n = parse_players(players)
            cycle = fair_cycle(n)
        except BeloteError as exc:
            fail(str(exc), json_mode)
        if json_mode:
            echo(dumps(to_json(n, cycle)))
            return
        render(n, cycle, Console())
