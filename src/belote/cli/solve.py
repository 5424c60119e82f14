"""`belote solve`: the double-dummy value of a card-play position (docs/json.md).

``belote solve --json`` (with ``--file``, ``--jsonl``) answers
``{"value", "moves", "nodes"}`` for a position given as ``{"profile", "options",
"trump", "hands", "leader", "trick", "tricks_won"}``.  Without ``--json`` the same
input is answered for a person: who is to play, the value, and a table of the
legal cards with the value after each, best first.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from belote.cards import SUIT_LETTERS, SUIT_SYMBOLS, card_symbol, trump_name
from belote.cli.common import fail, read_object, run_json
from belote.cli.flags import FileOpt, JsonlOpt, JsonOpt
from belote.errors import BeloteError
from belote.play import SEAT_NAMES, PlayState
from belote.solver import SolveResult, parse_position, solve, solve_json


def _trump_text(state: PlayState) -> str:
    name = trump_name(state.trump)
    if len(name) == 1:
        return SUIT_SYMBOLS[SUIT_LETTERS.index(name)]
    return {"SA": "no trump (SA)", "TA": "all trumps (TA)"}[name]


def render(state: PlayState, result: SolveResult, console: Console) -> None:
    """The human form: the position in a line, the value, the cards by value."""
    seat = state.turn
    team = "NS" if seat % 2 == 0 else "EW"
    trick = "  ".join(card_symbol(c) for c in state.trick)
    console.print(
        f"Trump {_trump_text(state)}; {state.tricks_left} trick(s) left; "
        f"tricks won NS {state.tricks_won[0]}, EW {state.tricks_won[1]}"
        + (f"; on the trick: {trick}" if trick else "")
    )
    if not result.moves:
        console.print(f"The hand is over: NS take {result.value} more points.")
        return
    console.print(
        f"[bold]{SEAT_NAMES[seat]}[/bold] to play ({team}). With perfect play NS take "
        f"[bold]{result.value}[/bold] points from here (cards on the trick and the "
        f"last-trick bonus included)."
    )
    table = Table(title=f"Value (NS points) after each card of {SEAT_NAMES[seat]}")
    table.add_column("card")
    table.add_column("NS points", justify="right")
    table.add_column("")
    maximize = seat % 2 == 0
    for c in result.ranked(maximize):
        v = result.moves[c]
        mark = "best" if v == result.value else f"loses {abs(result.value - v)}"
        table.add_row(card_symbol(c), str(v), mark)
    console.print(table)
    console.print(f"{result.nodes} positions searched.")


def register(app: typer.Typer) -> None:
    @app.command("solve")
    def solve_command(
        json_mode: JsonOpt = False, jsonl: JsonlOpt = False, file: FileOpt = None
    ) -> None:
        """The double-dummy value of a position, every hand known.

        The position (docs/json.md): {"profile", "options", "trump", "hands",
        "leader", "trick", "tricks_won"}.  The answer: {"value", "moves",
        "nodes"}, the points NS take from here with perfect play and after each
        legal card.
        """
        if json_mode or jsonl:
            run_json(solve_json, file, jsonl, json_mode=True)
            return
        try:
            obj: Any = read_object(file, "position")
            state = parse_position(obj)
            result = solve(state)
        except BeloteError as exc:
            fail(str(exc))
        render(state, result, Console())
