"""`belote sheet`: score sheets kept in a database (docs/json.md ``belote sheet``).

Every subcommand takes ``--db PATH`` (else ``$BELOTE_DB``, else
``$XDG_DATA_HOME/belote/sheets.db`` or ``~/.local/share/belote/sheets.db``).
With ``--json`` each answers the sheet's state (``score game``'s output plus
``id``, ``name``, ``profile``, ``options``, ``target``, and more keys added
after them); ``list`` answers ``{"sheets": [...]}``.  Without ``--json`` a
table of the hands is shown.  Errors exit with status 2 and ``error: ...``,
changing nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from belote.cli.common import (
    check_int,
    dumps,
    echo,
    fail,
    parse_object,
    read_object,
    read_text,
    require_object,
    run_json,
)
from belote.cli.fast import check_sheet_id
from belote.cli.sheetview import render_list, render_state
from belote.cli.typerapp import sub_app
from belote.errors import BeloteError
from belote.options import make_rules, parse_option_assignment
from belote.scoring import entry_to_json
from belote.sheets import SheetStore, share_answer

DbOpt = Annotated[
    Path | None,
    typer.Option("--db", metavar="PATH", envvar="BELOTE_DB", show_envvar=True,
                 help="The sheets database (default: ~/.local/share/belote/sheets.db)."),
]
JsonOpt = Annotated[bool, typer.Option(
    "--json", help="Answer in JSON: the sheet's state (docs/json.md).")]
FileOpt = Annotated[
    Path | None, typer.Option("--file", metavar="PATH",
        help="Read the hand entry from PATH instead of stdin.")
]
IdArg = Annotated[str, typer.Argument(
    callback=check_sheet_id, help="The sheet's id (see `belote sheet list`).")]

sheet_app = sub_app(
    "Score sheets kept in a database: new, add, undo, edit, delete, show, list, export, "
    "import, share.  With --json each answers the sheet's state (docs/json.md).",
    name="sheet", no_args_is_help=True,
)

MAX_TARGET = 1_000_000


# --- plumbing ------------------------------------------------------------------------


def _open(db: Path | None, json_mode: bool) -> SheetStore:
    try:
        return SheetStore(db, small_tables=True)
    except BeloteError as exc:
        fail(str(exc), json_mode)


def _answer(
    db: Path | None, json_mode: bool, action: Callable[[SheetStore], dict[str, Any]],
    show: bool = True,
) -> None:
    """Run ``action`` on the store; print its state as JSON, or as tables."""
    store = _open(db, json_mode)
    try:
        try:
            state = action(store)
        except BeloteError as exc:
            fail(str(exc), json_mode)
        except OverflowError:
            fail("a number is too large for the database", json_mode)
        if json_mode:
            echo(dumps(state))
        elif show:
            render_state(state, _entries_of(store, state), Console())
    finally:
        store.close()


def _entries_of(store: SheetStore, state: dict[str, Any]) -> list[dict[str, Any]]:
    if state.get("deleted"):
        return []
    try:
        _, entries = store.load_entries(state["id"])
    except BeloteError:  # pragma: no cover - the state was just read
        return []
    return [entry_to_json(e) for e in entries]


def _hand_input(file: Path | None) -> Any:
    return read_object(file, "hand")


# --- the commands ---------------------------------------------------------------------------


@sheet_app.command("new")
def new_command(
    profile: Annotated[str, typer.Option(
        "--profile", metavar="NAME",
        help="classic, moroccan, coinche, contree; classic-3p or classic-2p (each seat "
             "scores its own total).")] = "classic",
    target: Annotated[int | None, typer.Option(
        "--target", metavar="N",
            help="Points to reach (or deals to play); default: the profile's.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", metavar="NAME=VALUE",
        help="Override an option (`belote rules` lists them), repeatable.")] = None,
    name: Annotated[str | None, typer.Option("--name", metavar="TEXT",
        help="A name for the sheet.")] = None,
    teams: Annotated[str | None, typer.Option(
        "--teams", metavar="NS,EW", help='The teams\' names, NS first: "Us,Them".')] = None,
    players: Annotated[int | None, typer.Option(
        "--players", metavar="N",
            help="5, 6 or 7 players at one table (docs/rules.md §13).")] = None,
    player_names: Annotated[str | None, typer.Option(
        "--player-names", metavar="NAMES",
            help='The players\' names in order: "Ann,Bob,..." (5 to 7 players; the seats '
                 'N,E,S or N,E at three or two players).')] = None,
    json_mode: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Start a new score sheet."""
    check_int("--target", target, 1, MAX_TARGET, json_mode)
    check_int("--players", players, 5, 7, json_mode)
    options: dict[str, Any] = {}
    try:
        for text in option or []:
            key, value = parse_option_assignment(text)
            options[key] = value
    except BeloteError as exc:
        fail(str(exc), json_mode)
    if isinstance(options.get("target"), int):
        check_int("--option target", options["target"], 1, MAX_TARGET, json_mode)
    if isinstance(options.get("generale_value"), int):
        check_int("--option generale_value", options["generale_value"], 1, MAX_TARGET,
                  json_mode)
    _answer(db, json_mode, lambda store: store.create(
        profile, options, target=target, name=name, team_names=teams, players=players,
        player_names=player_names))


@sheet_app.command("add")
def add_command(
    sheet_id: IdArg,
    json_mode: JsonOpt = False,
    jsonl: Annotated[bool, typer.Option(
        "--jsonl", help="One hand entry per input line, one answer per line.")] = False,
    file: FileOpt = None,
    ask: Annotated[bool, typer.Option(
        "--ask", help="Ask the calculator's questions (the default on a terminal).")] = False,
    db: DbOpt = None,
) -> None:
    """Add the next hand: a HandEntry on stdin or in --file, or by questions.

    The HandEntry (docs/json.md): {"taker", "trick_points", "capot",
    "contract", "multiplier", "trump", "declarations", "belote"}, as for
    `belote score hand --json`; at three or two players per seat: {"taker":
    "E", "trick_points": {"N": .., "E": .., "S": ..}, "capot", "trick_total",
    "declarations", "belote", "trump", "leader"}.  On a terminal (or with --ask) the calculator's
    questions are asked instead, each answer checked as it is given.
    """
    if ask or (file is None and not json_mode and not jsonl and sys.stdin.isatty()):
        _add_by_questions(db, sheet_id)
        return
    if json_mode or jsonl:
        store = _open(db, True)
        try:
            run_json(lambda obj: store.add_hand(sheet_id, require_object(obj, "hand")),
                     file, jsonl, json_mode=True)
        finally:
            store.close()
        return
    try:
        hand = _hand_input(file)
    except BeloteError as exc:
        fail(str(exc))
    _answer(db, False, lambda store: store.add_hand(sheet_id, hand))


def _add_by_questions(db: Path | None, sheet_id: str) -> None:
    from belote.cli.score import ask_hand

    store = _open(db, False)
    try:
        try:
            state = store.state(sheet_id)
            if state.get("finished"):
                raise BeloteError(f"sheet {sheet_id}: the game is over")
            rules = make_rules(state["profile"], state["options"])
        except BeloteError as exc:
            fail(str(exc))
        console = Console()
        number = len(state["hands"]) + 1
        while True:
            hand = ask_hand(console, rules, number, reserve=int(state["reserve"]))
            if hand is None:
                fail("nothing added (q, or the input ended)")
            if hand == "pass":
                console.print("All passed: nothing to add to the sheet.")
                return
            assert isinstance(hand, dict)
            try:
                state = store.add_hand(sheet_id, hand)
                break
            except BeloteError as exc:
                console.print(f"[red]refused:[/red] {exc}; enter the hand again.")
        render_state(state, _entries_of(store, state), console)
    finally:
        store.close()


@sheet_app.command("undo")
def undo_command(sheet_id: IdArg, json_mode: JsonOpt = False, db: DbOpt = None) -> None:
    """Remove the last hand."""
    _answer(db, json_mode, lambda store: store.undo(sheet_id))


@sheet_app.command("edit", short_help="Replace hand N with the HandEntry on stdin.")
def edit_command(
    sheet_id: IdArg,
    number: Annotated[str, typer.Argument(help="The hand to replace, from 1.")],
    json_mode: JsonOpt = False,
    file: FileOpt = None,
    db: DbOpt = None,
) -> None:
    """Replace hand N with the HandEntry on stdin (or in --file; docs/json.md)."""
    try:
        if not number.strip().isdigit() or len(number.strip()) > 9:
            shown = number if len(number) <= 24 else number[:20] + "..."
            raise BeloteError(f"hand {shown!r}: not a hand number (1, 2, ...)")
        hand = _hand_input(file)
    except BeloteError as exc:
        fail(str(exc), json_mode)
    _answer(db, json_mode, lambda store: store.edit_hand(sheet_id, int(number), hand))


@sheet_app.command("delete")
def delete_command(
    sheet_id: IdArg,
    purge: Annotated[bool, typer.Option(
        "--purge", help="Remove the sheet and its history from the file for good.")] = False,
    json_mode: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Delete a sheet (it is kept in the file, hidden, unless --purge)."""
    _answer(db, json_mode, lambda store: store.delete(sheet_id, purge=purge), show=False)
    if not json_mode:
        echo(f"sheet {sheet_id} deleted" + (" for good" if purge else ""))


@sheet_app.command("show")
def show_command(sheet_id: IdArg, json_mode: JsonOpt = False, db: DbOpt = None) -> None:
    """Show a sheet."""
    _answer(db, json_mode, lambda store: store.state(sheet_id))


@sheet_app.command("list")
def list_command(json_mode: JsonOpt = False, db: DbOpt = None) -> None:
    """List the sheets."""
    store = _open(db, json_mode)
    try:
        try:
            sheets = store.sheets()
        except BeloteError as exc:
            fail(str(exc), json_mode)
    finally:
        store.close()
    if json_mode:
        echo(dumps({"sheets": sheets}))
    else:
        render_list(sheets, Console())


@sheet_app.command("export")
def export_command(
    sheet_id: IdArg,
    fmt: Annotated[str, typer.Option("--format", metavar="json|csv", help="json or csv.")] = "json",
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="PATH", help="Write to FILE instead of stdout.")] = None,
    json_mode: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Export a sheet: JSON (to import again) or CSV (one row per hand)."""
    if fmt not in ("json", "csv"):
        fail(f"--format: {fmt!r} is not json or csv", json_mode)
    store = _open(db, json_mode)
    try:
        try:
            if fmt == "json":
                text = dumps(store.export_json(sheet_id)) + "\n"
            else:
                text = store.export_csv(sheet_id)
            state = store.state(sheet_id) if out is not None and json_mode else None
        except BeloteError as exc:
            fail(str(exc), json_mode)
    finally:
        store.close()
    if out is None:
        echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {str(out)!r}: {exc.strerror or exc}", json_mode)
    if state is not None:
        echo(dumps(state))
    else:
        echo(f"sheet {sheet_id} written to {out}")


@sheet_app.command("import", short_help="Import a sheet exported as JSON, as a new sheet.")
def import_command(
    file: Annotated[Path, typer.Argument(help="A sheet exported as JSON ('-': stdin).")],
    json_mode: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Import a sheet exported as JSON (`belote sheet export`), as a new sheet."""
    try:
        obj = parse_object(read_text(None if str(file) == "-" else file), str(file))
    except BeloteError as exc:
        fail(str(exc), json_mode)
    _answer(db, json_mode, lambda store: store.import_json(obj))


@sheet_app.command("share", short_help="Print a link that opens the sheet on `belote serve`.")
def share_command(
    sheet_id: IdArg,
    keep: Annotated[bool, typer.Option(
        "--keep", help="The keeper's link (add, undo and edit hands) instead of the follow "
                       "link (read only, the page follows the score live).")] = False,
    renew: Annotated[bool, typer.Option(
        "--renew", help="A new secret: the old link stops working.")] = False,
    revoke: Annotated[bool, typer.Option(
        "--revoke", help="Remove the link: it stops working.")] = False,
    base: Annotated[str | None, typer.Option(
        "--base", metavar="URL",
        help="The server's address as the players reach it (http://192.168.1.10:8000): "
             "print the whole link.")] = None,
    json_mode: Annotated[bool, typer.Option(
        "--json", help="Answer in JSON: the link (docs/json.md).")] = False,
    db: DbOpt = None,
) -> None:
    """Print the sheet's follow link (or with --keep its keeper's link), made if it has
    none: whoever opens it on `belote serve` follows (or keeps) the sheet; a sheet made
    here is otherwise seen only from the server's own machine.  The command does not
    know the server's address: it prints the link's path, the whole link with --base."""
    store = _open(db, json_mode)
    try:
        try:
            answer = share_answer(store, sheet_id, keep=keep, renew=renew, revoke=revoke,
                                  base=base)
        except BeloteError as exc:
            fail(str(exc), json_mode)
    finally:
        store.close()
    if json_mode:
        echo(dumps(answer))
        return
    what = ("keeper's link (add, undo and edit hands)" if keep
            else "follow link (read only, the page follows the score live)")
    if answer["revoked"]:
        echo(f"sheet {answer['id']}: {what.split(' (')[0]} revoked: the old link no longer "
             "opens the sheet")
        return
    echo(f"sheet {answer['id']}: {what}:")
    if answer["url"] is not None:
        echo(f"  {answer['url']}")
    else:
        echo(f"  {answer['path']}")
        echo("after the address the players reach `belote serve` at (http://HOST:PORT; "
             "--base URL prints the whole link)")


def register(app: typer.Typer) -> None:
    app.add_typer(sheet_app, name="sheet")
