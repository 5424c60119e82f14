"""`belote history`: the games kept after they were played (:mod:`belote.history`).

``belote history`` lists the games, the last played first (``--profile``,
``--limit``); ``belote history show ID`` shows one game's deals and results
(``--json``: the game's record, which ``belote replay`` and ``Match.from_record``
read); ``belote history --stats`` counts per player.  The history is the terminal
game's (``belote play``), or any history file given with ``--db`` (a tournament's
``--keep-records``).
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from belote.cli.common import check_int, dumps, echo, fail
from belote.cli.typerapp import sub_app
from belote.errors import BeloteError
from belote.history import GameSummary, HistoryStore, default_history_path, stats
from belote.options import ALL_PROFILES

DbOpt = Annotated[Path | None, typer.Option(
    "--db", metavar="PATH",
    help="The history file (default: $BELOTE_HISTORY, else history.db in the user's data "
    "folder, where `belote play` keeps its games).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Answer in JSON (docs/json.md).")]

history_app = sub_app(
    "The games kept after they were played: the list (the last first), `show ID` (the "
    "deals and results; --json: the game's record), --stats (per player).",
    name="history", invoke_without_command=True,
)


def _open(db: Path | None, json_mode: bool) -> HistoryStore:
    path = db or default_history_path()
    if not path.exists():
        fail(f"no history at {str(path)!r} (`belote play` keeps its games there; --db PATH "
             "names another)", json_mode)
    try:
        return HistoryStore(path)
    except BeloteError as exc:
        fail(str(exc), json_mode)


def _when(t: float) -> str:
    return datetime.datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M")


def _seats(game: GameSummary) -> str:
    return ", ".join(f"{p.seat} {p.name}" for p in game.seats)


def _score(values: dict[str, int]) -> str:
    return " – ".join(f"{k} {v}" for k, v in values.items())


def _list(games: list[GameSummary], console: Console) -> None:
    if not games:
        console.print("No game kept yet.")
        return
    table = Table(title="Games", show_lines=False)
    for col in ("id", "when", "profile", "seats", "deals", "score", "winner"):
        table.add_column(col, justify="right" if col == "deals" else "left",
                         no_wrap=col in ("id", "when"))
    for g in games:
        table.add_row(g.id, _when(g.updated), g.profile, escape(_seats(g)), str(g.deal_count),
                      _score(g.totals),
                      (g.winner or "–") if g.finished else "unfinished")
    console.print(table)


def _show(game: GameSummary, console: Console) -> None:
    console.print(f"[bold]Game {game.id}[/bold]: {game.profile}, {_when(game.created)}, "
                  f"{escape(_seats(game))}", soft_wrap=True)
    table = Table(show_lines=False)
    for col in ("deal", "dealer", "contract", "outcome", "score"):
        table.add_column(col, justify="right" if col == "deal" else "left")
    for d in game.deals:
        res = d.result
        contract = res["contract"]
        if contract is None:
            said = "all pass"
        else:
            said = f"{contract['taker'] or ''} {contract['trump']}".strip()
            if contract.get("value") is not None:
                said += f" {contract['value']}"
            if contract.get("multiplier", 1) > 1:
                said += f" ×{contract['multiplier']}"
        table.add_row(str(d.n), res["dealer"], said, res["outcome"], _score(res["score"]))
    console.print(table)
    end = (f"won by {game.winner}" if game.winner else "no winner") if game.finished \
        else "unfinished"
    console.print(f"Score: {_score(game.totals)} ({end})")


def _stats(rows: list[dict[str, Any]], console: Console) -> None:
    if not rows:
        console.print("No deal kept yet.")
        return
    table = Table(title="Per player")
    cols = ["player", "games", "deals", "taken", "made", "points/deal"]
    measures = list(rows[0].get("measures", {}))
    for col in cols + measures:
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in rows:
        name = r["name"] + (" (bot)" if r["kind"] == "bot" else "")
        extra = ["–" if r["measures"][m] is None else str(r["measures"][m]) for m in measures]
        table.add_row(escape(name), str(r["games"]), str(r["deals"]), str(r["taken"]),
                      str(r["made"]), f"{r['points_per_deal']:.1f}", *extra)
    console.print(table)


@history_app.callback()
def history_command(
    ctx: typer.Context,
    db: DbOpt = None,
    json_mode: JsonOpt = False,
    profile: Annotated[str | None, typer.Option(
        metavar="NAME", help="only the games of this profile")] = None,
    limit: Annotated[int, typer.Option(metavar="N", help="at most N games")] = 20,
    show_stats: Annotated[bool, typer.Option(
        "--stats", help="per player: deals, contracts taken and made, points per deal")] = False,
) -> None:
    """The games kept, the last played first."""
    if ctx.invoked_subcommand is not None:
        return
    check_int("--limit", limit, 1, 100_000)
    if profile is not None and profile not in ALL_PROFILES:
        fail(f"--profile: unknown profile {profile!r} (one of {', '.join(ALL_PROFILES)})",
             json_mode)
    with _open(db, json_mode) as store:
        try:
            if show_stats:
                rows = stats(store.all_games(profile=profile))
            else:
                games = store.games(profile=profile, limit=limit)
        except BeloteError as exc:
            fail(str(exc), json_mode)
    if show_stats:
        if json_mode:
            echo(dumps({"players": rows}))
        else:
            _stats(rows, Console(highlight=False))
        return
    if json_mode:
        echo(dumps({"games": [g.to_json(with_deals=False) for g in games]}))
    else:
        _list(games, Console(highlight=False))


@history_app.command("show")
def show_command(
    game_id: Annotated[str, typer.Argument(metavar="ID", help="the game's id (see the list)")],
    db: DbOpt = None,
    json_mode: JsonOpt = False,
) -> None:
    """One game's deals and results; --json prints the game's record (docs/json.md)."""
    with _open(db, json_mode) as store:
        try:
            game = store.game(game_id)
        except BeloteError as exc:
            fail(str(exc), json_mode)
    if json_mode:
        echo(dumps(game.record))
    else:
        _show(game, Console(highlight=False))


def register(app: typer.Typer) -> None:
    app.add_typer(history_app, name="history")
