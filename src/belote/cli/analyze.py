"""`belote analyze RECORD`: where each card and each call of a played deal won or lost
points (docs/json.md, `belote analyze`; the analysis itself is :mod:`belote.analysis`).

``RECORD`` is a file holding a deal's record, a game's record or a `belote play`
save file (``-`` reads stdin).  For people: per deal the contract and its result,
the deal's double-dummy value under each trump, the calls, then a table per trick
(the card played, the best card, the points lost double dummy and given what the
player knew, the verdict) and a summary per player.  ``--json``: one object (a
deal's analysis; for a game ``{"deals": [...], "summary": [...]}``); ``--jsonl``:
one deal's analysis per line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Final

import typer
from rich.console import Console
from rich.table import Table

from belote.analysis import DealAnalysis, analyze_record, game_summary
from belote.cards import SUIT_LETTERS, SUIT_SYMBOLS
from belote.cli.common import CommandError, dumps, echo, fail, read_text
from belote.cli.flags import JsonOpt, NoProgressOpt, progress_bar
from belote.errors import BeloteError
from belote.jsonsafe import loads
from belote.play import SEAT_NAMES
from belote.scoring import Outcome

VERDICTS = {
    "best": "meilleure",
    "forced": "forcée",
    "mistake": "erreur",
    "unlucky": "malchance",
    "lucky": "chance",
    "loss": "perte",
    "unsolved": "non résolue",
}
"""The verdicts in the words a French player reads (docs/json.md gives their meaning)."""


LEGEND = ("DM: double mort, toutes les mains connues; vu: ce que le joueur savait "
          "(la moyenne du bot sur les donnes possibles); points du camp du joueur.")


def _card(name: str | None) -> str:
    """``TH`` → ``10♥``."""
    if not name:
        return "-"
    rank = "10" if name[0] == "T" else name[0]
    return rank + SUIT_SYMBOLS[SUIT_LETTERS.index(name[1])]


def _trump(name: str) -> str:
    return _card("A" + name)[1:] if len(name) == 1 else name


def _num(x: float | None) -> str:
    if x is None:
        return "-"
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _best(values: dict[str, float] | None, played: str) -> str | None:
    """The best card of ``values``: the card played when it is one of the best."""
    if not values:
        return None
    top = max(values.values())
    if values.get(played) == top:
        return played
    return next(c for c, v in values.items() if v == top)


# The outcomes in the words of French tables (a failed contract is "dedans").
OUTCOME_WORDS: Final = {Outcome.MADE: "fait", Outcome.FAILED: "dedans",
                        Outcome.LITIGE: "litige", Outcome.COUNTED: "points comptés"}


def render(a: dict[str, Any], number: int, console: Console) -> None:
    """One deal's analysis for people."""
    contract = a["contract"]
    head = f"[bold]Donne {number}[/bold] ({a['profile']}, donneur {a['dealer']})"
    if contract is None:
        head += ": tout le monde passe" if a["outcome"] == Outcome.VOID else ": pas de contrat"
    elif contract["value"] == "decouverte":
        head += f": belote découverte, atout {_trump(contract['trump'])}"
    else:
        head += (f": {contract['taker']} prend à {_trump(contract['trump'])}"
                 + (f" pour {contract['value']}" if contract["value"] is not None else "")
                 + (f" ×{contract['multiplier']}" if contract["multiplier"] > 1 else ""))
    if a["outcome"] is not None and a["outcome"] != Outcome.VOID:
        head += f" → {OUTCOME_WORDS.get(a['outcome'], a['outcome'])}"
        if a["score"] is not None:
            head += f" ({', '.join(str(s) for s in a['score'])})"
    if not a["finished"]:
        head += " [yellow](donne inachevée: analysée jusqu'où elle s'arrête)[/yellow]"
    console.print(head)
    if a["trumps"]:
        console.print("Le camp du preneur, en double mort, à chaque atout: "
                      + ", ".join(f"{_trump(t)} {_num(v)}" for t, v in a["trumps"].items()))
    if a["calls"]:
        calls = Table(title="Enchères", title_justify="left")
        for col in ("joueur", "annonce", "bot", "valeurs DM (écart de score)", "perte"):
            calls.add_column(col)
        for c in a["calls"]:
            values = ", ".join(f"{k} {_num(v)}" for k, v in c["values"].items())
            calls.add_row(c["seat"], c["call"], c["bot_call"] or "-", values or "-",
                          _num(c["loss"]))
        console.print(calls)
    tricks: dict[int, list[dict[str, Any]]] = {}
    for c in a["cards"]:
        tricks.setdefault(c["trick"], []).append(c)
    for number_, cards in tricks.items():
        table = Table(title=f"Pli {number_}", title_justify="left")
        for col in ("joueur", "carte jouée", "meilleure", "perte DM", "perte vu",
                    "verdict"):
            table.add_column(col, justify="right" if col.startswith("perte") else "left")
        for c in cards:
            best = _best(c["dd"], c["card"]) or _best(c["info"], c["card"])
            table.add_row(c["seat"], _card(c["card"]),
                          _card(best if best or c["verdict"] != "forced" else c["card"]),
                          _num(c["dd_loss"]), _num(c["info_loss"]),
                          VERDICTS.get(c["verdict"], c["verdict"]))
        console.print(table)


def render_summary(summary: list[dict[str, Any]], console: Console) -> None:
    table = Table(title="Par joueur", title_justify="left")
    for col in ("", "perdu DM", "perdu vu", "erreurs", "malchance", "enchères DM",
                "prises/faites"):
        table.add_column(col, justify="left" if not col else "right")
    for p in summary:
        table.add_row(p["seat"], str(p["dd_lost"]), _num(p["info_lost"]),
                      str(p["mistakes"]), str(p["unlucky"]), str(p["calls_lost"]),
                      f"{p['taken']}/{p['made']}")
    console.print(table)
    for p in summary:
        if p["biggest"]:
            console.print(f"{p['seat']}, plus grosses erreurs: " + "; ".join(
                f"donne {b['deal']} pli {b['trick']}: {_card(b['card'])} au lieu de "
                f"{_card(b['best'])} (-{_num(_loss(b))})" for b in p["biggest"]))


def _loss(b: dict[str, Any]) -> float | None:
    """A mistake's loss: given what the player knew where worked out, else double dummy."""
    loss: float | None = b["info_loss"] if b["info_loss"] is not None else b["dd_loss"]
    return loss


def _seats(texts: list[str] | None) -> list[int] | None:
    if not texts:
        return None
    out = []
    for text in texts:
        for part in text.split(","):
            name = part.strip().upper()
            if name not in SEAT_NAMES:
                raise CommandError(f"--seat: {part!r} is not a seat (N, E, S, W)")
            out.append(SEAT_NAMES.index(name))
    return out


def register(app: typer.Typer) -> None:
    @app.command("analyze")
    def analyze_command(
        record: Annotated[str, typer.Argument(
            metavar="RECORD", help="A deal's or a game's record, or a `belote play` save "
            "file (JSON, docs/json.md); - reads stdin.")],
        json_mode: JsonOpt = False,
        jsonl: Annotated[bool, typer.Option(
            "--jsonl", help="One deal's analysis per line (a game's deals).")] = False,
        seat: Annotated[list[str] | None, typer.Option(
            "--seat", metavar="SEAT", help="Work out what these seats knew (N, E, S, W; "
            "repeatable or N,S; default: every seat).")] = None,
        worlds: Annotated[int | None, typer.Option(
            "--worlds", metavar="N", min=1, max=1000,
            help="Worlds drawn per decision for what the player knew (default: the "
            "bot's, 64 at four players, 16 at three and two).")] = None,
        seed: Annotated[int, typer.Option(
            "--seed", metavar="N", help="Seed of those worlds: the same seed, the same "
            "numbers.")] = 0,
        max_nodes: Annotated[int | None, typer.Option(
            "--max-nodes", metavar="N", min=1,
            help="Positions one exact solve may search (then the card is left "
            "unsolved).")] = None,
        dd_only: Annotated[bool, typer.Option(
            "--dd-only", help="Double dummy only: no seat's view, no bot calls (faster; "
            "--seat is then refused).")] = False,
        no_progress: NoProgressOpt = False,
    ) -> None:
        """Where each card and each call of a played deal won or lost points.

        Every card: its double-dummy value (all hands known) against the best card,
        and the searching bot's expected value from the player's own view, so that
        a mistake given what he knew stands apart from bad luck.  The bidding: each
        call's double-dummy score and the bot's call.  A summary per player.
        """
        json_out = json_mode or jsonl
        try:
            text = read_text(None if record == "-" else Path(record))
            data = loads(text, "record" if record == "-" else record)
            seats = _seats(seat)
            if dd_only:
                if seats is not None:
                    raise CommandError("--dd-only: no seat's view is worked out; drop --seat")
                seats = []
            console = Console(stderr=True)
            with progress_bar("analyze", "actions", console,
                              not no_progress and not json_out) as update:
                analyses = analyze_record(
                    data, worlds=worlds, seed=seed, seats=seats, max_nodes=max_nodes,
                    progress=None if update is None else (lambda d, t: update(d, t)))
        except BeloteError as exc:
            fail(str(exc), json_out)
        _answer(analyses, json_mode, jsonl, isinstance(data, dict) and "deck" not in data)


def _answer(analyses: list[DealAnalysis], json_mode: bool, jsonl: bool, game: bool) -> None:
    summary = [p.to_json() for p in game_summary(analyses)]
    if jsonl:
        for a in analyses:
            echo(dumps(a.to_json()))
        return
    if json_mode:
        if game:
            echo(dumps({"deals": [a.to_json() for a in analyses], "summary": summary}))
        else:
            echo(dumps(analyses[0].to_json()))
        return
    console = Console()
    console.print(LEGEND)
    for i, a in enumerate(analyses, start=1):
        render(a.to_json(), i, console)
    render_summary(summary, console)
