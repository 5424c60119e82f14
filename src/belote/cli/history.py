"""`belote history`: the games kept after they were played (:mod:`belote.history`).

``belote history`` lists the games, the last played first (``--profile``,
``--limit``); ``belote history show ID`` shows one game's deals and results
(``--json``: the game's record, which ``belote replay`` and ``Match.from_record``
read); ``belote history --stats`` counts per player, and by ISO week; ``belote
history analyze`` analyses the deals not analysed yet (double dummy; ``--view``: every
seat's view too) and keeps each analysis in the file's cache
(:mod:`belote.analysis_cache`), from which ``--stats`` reads the points lost per card
and says how many deals it covers.  The history is the terminal game's (``belote
play``), or any history file given with ``--db`` (a tournament's ``--keep-records``).
"""

from __future__ import annotations

import datetime
import sqlite3
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from belote import analysis_cache
from belote.analysis_cache import DD_MEASURE, DD_ONLY, EVERY_VIEW, VIEW_MEASURE
from belote.cli.common import check_int, dumps, echo, fail, fail_interrupted
from belote.cli.flags import NoProgressOpt, progress_bar
from belote.cli.typerapp import sub_app
from belote.errors import BeloteError
from belote.history import (
    MEASURES,
    GameSummary,
    HistoryError,
    HistoryStore,
    default_history_path,
    stats,
)
from belote.options import ALL_PROFILES

DbOpt = Annotated[Path | None, typer.Option(
    "--db", metavar="PATH",
    help="The history file (default: $BELOTE_HISTORY, else history.db in the user's data "
    "folder, where `belote play` keeps its games).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Answer in JSON (docs/json.md).")]

history_app = sub_app(
    "The games kept after they were played: the list (the last first), `show ID` (the "
    "deals and results; --json: the game's record), --stats (per player and by week), "
    "`analyze` (the points lost per card, kept for --stats).",
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


def _loss(row: dict[str, Any], name: str) -> str:
    value = row["measures"].get(name)
    return "–" if value is None else f"{value:.2f}"


def _stats(rows: list[dict[str, Any]], console: Console) -> None:
    if not rows:
        console.print("No deal kept yet.")
        return
    view = any(r["measured"][VIEW_MEASURE] for r in rows)
    table = Table(title="Per player")
    cols = ["player", "games", "deals", "taken", "made", "points/deal", "lost/card",
            "analysed"]
    if view:
        cols.append("lost/card, his view")
    others = [m for m in rows[0]["measures"] if m not in (DD_MEASURE, VIEW_MEASURE)]
    for col in cols + others:
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in rows:
        name = r["name"] + (" (bot)" if r["kind"] == "bot" else "")
        cells = [escape(name), str(r["games"]), str(r["deals"]), str(r["taken"]),
                 str(r["made"]), f"{r['points_per_deal']:.1f}", _loss(r, DD_MEASURE),
                 f"{r['measured'][DD_MEASURE]}/{r['deals']}"]
        if view:
            cells.append(_loss(r, VIEW_MEASURE))
        table.add_row(*cells, *(_loss(r, m) for m in others))
    console.print(table)
    console.print("lost/card: the points a card lost on average against the best card, "
                  "every hand known (double dummy), over the deals analysed "
                  "(`belote history analyze`).", soft_wrap=True)
    weeks = Table(title="By week")
    for col in ("player", "week", "deals", "pts/deal", "", "lost/card", "analysed"):
        weeks.add_column(col, justify="left" if col in ("player", "week", "") else "right")
    top = max((abs(w["points_per_deal"]) for r in rows for w in r["weeks"]), default=0) or 1
    for r in rows:
        for k, w in enumerate(r["weeks"]):
            bar = "█" * round(12 * max(w["points_per_deal"], 0) / top)
            weeks.add_row(escape(r["name"]) if k == 0 else "", w["week"], str(w["deals"]),
                          f"{w['points_per_deal']:.1f}", bar, _loss(w, DD_MEASURE),
                          f"{w['measured'][DD_MEASURE]}/{w['deals']}")
    console.print(weeks)


@history_app.callback()
def history_command(
    ctx: typer.Context,
    db: DbOpt = None,
    json_mode: JsonOpt = False,
    profile: Annotated[str | None, typer.Option(
        metavar="NAME", help="only the games of this profile")] = None,
    limit: Annotated[int, typer.Option(metavar="N", help="at most N games")] = 20,
    show_stats: Annotated[bool, typer.Option(
        "--stats", help="per player and by week: deals, contracts taken and made, points "
        "per deal, points lost per card over the deals analysed")] = False,
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
                kept = store.all_games(profile=profile)
                rows = stats(kept, {**analysis_cache.loss_measures(store.conn, kept),
                                    **MEASURES})
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


@history_app.command("analyze")
def analyze_command(
    db: DbOpt = None,
    json_mode: JsonOpt = False,
    profile: Annotated[str | None, typer.Option(
        metavar="NAME", help="only the games of this profile")] = None,
    limit: Annotated[int | None, typer.Option(
        metavar="N", help="analyse at most N deals (the last played first)")] = None,
    view: Annotated[bool, typer.Option(
        "--view", help="every seat's view too (what each player knew: much slower)")] = False,
    no_progress: NoProgressOpt = False,
) -> None:
    """Analyse the deals kept that are not analysed yet, the last played first, and keep
    each analysis for --stats (double dummy; --view: every player's view too)."""
    if limit is not None:
        check_int("--limit", limit, 1, 1_000_000, json_mode)
    if profile is not None and profile not in ALL_PROFILES:
        fail(f"--profile: unknown profile {profile!r} (one of {', '.join(ALL_PROFILES)})",
             json_mode)
    settings = EVERY_VIEW if view else DD_ONLY
    done = failed = 0
    with _open(db, json_mode) as store:
        try:
            with store.conn:
                analysis_cache.setup(store.conn)
            records = analysis_cache.scored_deals(store.all_games(profile=profile))
            hashes = [analysis_cache.deal_hash(r) for r in records]
            kept: Collection[str] = (
                analysis_cache.cached_analyses(store.conn, hashes, settings) if view
                else analysis_cache.measured(store.conn, hashes))
            todo = [r for r, h in zip(records, hashes, strict=True) if h not in kept]
            if limit is not None:
                todo = todo[:limit]
            console = Console(stderr=True)
            with progress_bar("analyze", "deals", console, not no_progress and not json_mode,
                              total=len(todo)) as update:
                for record in todo:
                    try:
                        found = analysis_cache.analyse(record, settings)
                    except BeloteError:
                        failed += 1  # a record the engine no longer reads: left out
                    else:
                        with store.conn:  # each kept at once: an interruption loses none
                            analysis_cache.store_analysis(store.conn, record, settings, found)
                        done += 1
                    if update is not None:
                        update(done + failed, len(todo))
        except KeyboardInterrupt:
            fail_interrupted(json_mode)
        except (BeloteError, sqlite3.Error) as exc:
            message = str(exc) if isinstance(exc, BeloteError) else \
                str(HistoryError(f"cannot use the history {str(store.path)!r}: {exc}"))
            fail(message, json_mode)
    answer = {"analysed": done, "failed": failed, "covered": len(kept) + done,
              "deals": len(records), "view": view}
    if json_mode:
        echo(dumps(answer))
        return
    line = (f"{done} deal{'s' if done != 1 else ''} analysed; "
            f"{answer['covered']} of {answer['deals']} now analysed"
            f"{' with every view' if view else ''}.")
    if failed:
        line += f" {failed} could not be read and were left out."
    Console(highlight=False).print(line)


def register(app: typer.Typer) -> None:
    app.add_typer(history_app, name="history")
