"""`belote replay`: check and score one played hand from its record."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from belote.cards import SUIT_LETTERS, SUIT_SYMBOLS
from belote.cli.common import fail, read_object, run_json
from belote.cli.flags import FileOpt, JsonlOpt, JsonOpt
from belote.errors import BeloteError
from belote.replay import replay


def _pretty(name: str) -> str:
    """``TH`` → ``10♥``."""
    rank = "10" if name[0] == "T" else name[0]
    return rank + SUIT_SYMBOLS[SUIT_LETTERS.index(name[1])]


def _pairs(points: dict[str, int]) -> str:
    """``{"NS": 92, "EW": 70}`` → ``NS 92, EW 70`` (any sides or seats)."""
    return ", ".join(f"{side} {value}" for side, value in points.items())


def render(out: dict[str, Any], console: Console) -> None:
    """The human form of a replay: the hand trick by trick (a game: deal by deal)."""
    if "deals" in out:
        for i, deal in enumerate(out["deals"], start=1):
            console.print(f"[bold]Deal {i}[/bold]")
            render(deal, console)
        game = out["game"]
        console.print(f"[bold]Game[/bold]: {_pairs(game['totals'])}"
                      + (f", won by {game['winner']}" if game["winner"] else ""))
        return
    contract = out.get("contract")
    if contract is None:
        if out.get("complete"):
            console.print("Everybody passed: no contract, no score (§2.4).")
        nxt = out.get("next")
        if nxt:
            console.print(f"Bidding goes on: {nxt['seat']} to call ({', '.join(nxt['legal'])}).")
        return
    trump = contract["trump"]
    trump_text = _pretty("A" + trump)[1:] if len(trump) == 1 else trump
    if contract.get("value") == "decouverte":
        console.print(f"Belote découverte, trump [bold]{trump_text}[/bold] (§12.2)")
    else:
        side = contract["team"]
        console.print(
            f"[bold]{contract['taker']}[/bold] takes"
            + (f" for {side}" if side != contract["taker"] else "")
            + f" in [bold]{trump_text}[/bold]"
            + (f" for {contract['value']}" if contract.get("value") is not None else "")
            + (f" ×{contract['multiplier']}" if contract.get("multiplier", 1) > 1 else "")
        )
    table = Table(title="Tricks", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("leader")
    table.add_column("cards")
    table.add_column("winner")
    table.add_column("points", justify="right")
    for i, trick in enumerate(out["tricks"], start=1):
        table.add_row(
            str(i), trick["leader"], "  ".join(_pretty(c) for c in trick["cards"]),
            trick["winner"], str(trick["points"]),
        )
    if out.get("trick"):
        cur = out["trick"]
        table.add_row(
            str(len(out["tricks"]) + 1), cur["leader"],
            "  ".join(_pretty(c) for c in cur["cards"]), "…", "",
        )
    console.print(table)
    decls = out.get("declarations") or {}
    if decls.get("winner"):
        console.print(f"Declarations: {decls['winner']} scores {decls['points'][decls['winner']]}")
    if out.get("belote"):
        console.print(f"Belote-rebelote: {_pairs(out['belote_points'])}")
    line = f"Trick points: {_pairs(out['trick_points'])}"
    if out.get("capot"):
        line += f"  (capot by {out['capot']})"
    console.print(line)
    score = out.get("score")
    if score:
        console.print(
            f"[bold]{score['outcome']}[/bold]: {_pairs(score['score'])}"
            + (f"  (reserve {score['reserve']})" if score.get("reserve") else "")
        )
    nxt = out.get("next")
    if nxt:
        if nxt.get("discard"):
            console.print(f"{nxt['seat']} lays {nxt['discard']} cards aside from: "
                          + ", ".join(_pretty(c) for c in nxt["legal"]))
        else:
            console.print(f"{nxt['seat']} to play; legal: "
                          + ", ".join(_pretty(c) for c in nxt["legal"]))


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_command(
        json_mode: JsonOpt = False, jsonl: JsonlOpt = False, file: FileOpt = None
    ) -> None:
        """Check and score one played hand from its record.

        The record (a HandRecord, docs/json.md): {"profile", "options", "dealer",
        "hands", "bidding", "plays", ...}; every call and card is checked.  The
        answer: {"contract", "tricks", "declarations", "belote", "trick_points",
        "capot", "score", ...}, or for an unfinished record the legal next calls
        or cards ("next").
        """
        if json_mode or jsonl:
            run_json(replay, file, jsonl, json_mode=True)
            return
        try:
            out = replay(read_object(file, "record"))
        except BeloteError as exc:
            fail(str(exc))
        render(out, Console())
