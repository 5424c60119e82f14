"""The fast paths of the `belote` command: JSON faces run straight from the engine.

A program that scores each hand with ``belote score hand --json`` starts a
process per hand; these paths answer without importing typer, rich or any
other subcommand.  :func:`run` takes only the exact flags listed below (in any
order); anything else (``--help``, another flag, a typo) returns False and the
typer command runs instead, which answers the same JSON and every error.

=====================  ==========================================
command                flags taken here
=====================  ==========================================
``score hand``         ``--json`` or ``--jsonl``, ``--file PATH``
``score game``         ``--json`` or ``--jsonl``, ``--file PATH``
``replay``             ``--json`` or ``--jsonl``, ``--file PATH``
``solve``              ``--json`` or ``--jsonl``, ``--file PATH``
``rotation N``         ``--json``
``rules``              ``--json`` (or nothing)
``sheet add ID``       ``--json`` or ``--jsonl``, ``--file PATH``, ``--db PATH``
``sheet undo ID``      ``--json``, ``--db PATH``
``sheet show ID``      ``--json``, ``--db PATH``
``sheet list``         ``--json``, ``--db PATH``
``sheet share ID``     ``--json``, ``--db PATH``, ``--base URL``,
                       ``--keep``, ``--renew``, ``--revoke``
=====================  ==========================================
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from belote.cli.common import dumps, echo, fail, run_json

_JSON_FLAGS = frozenset({"--json", "--jsonl"})


def _json_flags(args: list[str]) -> tuple[bool, str | None] | None:
    """``(jsonl, file)`` when ``args`` are only --json/--jsonl (at least one) and
    an optional --file PATH; else None."""
    seen: set[str] = set()
    file: str | None = None
    i = 0
    while i < len(args):
        token = args[i]
        if token in _JSON_FLAGS and token not in seen:
            seen.add(token)
        elif token == "--file" and file is None and i + 1 < len(args) and args[i + 1]:
            file = args[i + 1]
            i += 1
        elif token.startswith("--file=") and file is None and len(token) > 7:
            file = token[7:]
        else:
            return None
        i += 1
    if not seen:
        return None
    return "--jsonl" in seen, file


def _score_hand(obj: Any) -> dict[str, Any]:
    from belote.scoring import score_hand_json

    return score_hand_json(obj)


def _score_game(obj: Any) -> dict[str, Any]:
    from belote.scoring import score_game_json

    return score_game_json(obj)


def _replay(obj: Any) -> dict[str, Any]:
    from belote.replay import replay

    return replay(obj)


def _solve(obj: Any) -> dict[str, Any]:
    from belote.solver import solve_json

    return solve_json(obj)


_JSON_COMMANDS = {
    ("score", "hand"): _score_hand,
    ("score", "game"): _score_game,
    ("replay",): _replay,
    ("solve",): _solve,
}


def run(command: str, args: list[str]) -> bool:
    """Run ``belote command *args`` here if it is a fast path; False if not."""
    if command == "score":
        if not args or (command, args[0]) not in _JSON_COMMANDS:
            return False
        key: tuple[str, ...] = (command, args[0])
        args = args[1:]
    else:
        key = (command,)
    fn = _JSON_COMMANDS.get(key)
    if fn is not None:
        flags = _json_flags(args)
        if flags is None:
            return False
        jsonl, file = flags
        run_json(fn, file, jsonl, json_mode=True)
        return True
    if command == "rotation" and len(args) == 2 and "--json" in args:
        number = args[1] if args[0] == "--json" else args[0]
        if number.startswith("-"):
            return False
        rotation_json(number)
        return True
    if command == "sheet" and args and args[0] in _SHEET_COMMANDS:
        return _sheet(args[0], args[1:])
    if command == "rules" and args in ([], ["--json"]):
        from belote.cli.rulesdata import print_rules

        print_rules(json_mode=bool(args))
        return True
    return False


_SHEET_COMMANDS = frozenset({"add", "undo", "show", "list", "share"})
_SHEET_VALUE_FLAGS = {"add": ("--db", "--file"), "share": ("--db", "--base")}
_SHEET_SWITCHES = {"add": ("--json", "--jsonl"), "share": ("--json", "--keep", "--renew",
                                                          "--revoke")}


def check_sheet_id(value: str) -> str:
    """A sheet id too long to be one (SQLite keeps 64-bit ids) is refused here."""
    from belote.errors import BeloteError

    text = value.strip()
    if len(text) > 18:
        shown = text[:20] + "..." if len(text) > 24 else text
        raise BeloteError(
            f"sheet {shown!r}: not a sheet id (a whole number; `belote sheet list` shows them)")
    return value


def _sheet_flags(sub: str, args: list[str]) -> dict[str, Any] | None:
    """The flags of a fast `belote sheet` command, or None to leave it to typer."""
    flags: dict[str, Any] = {"ids": []}
    value_flags = _SHEET_VALUE_FLAGS.get(sub, ("--db",))
    switches = _SHEET_SWITCHES.get(sub, ("--json",))
    i = 0
    while i < len(args):
        token = args[i]
        name, eq, value = token.partition("=")
        if token in switches and token not in flags:
            flags[token] = True
        elif name in value_flags and name not in flags and eq and value:
            flags[name] = value
        elif token in value_flags and token not in flags and i + 1 < len(args) and args[i + 1]:
            flags[token] = args[i + 1]
            i += 1
        elif not token.startswith("-"):
            flags["ids"].append(token)
        else:
            return None
        i += 1
    if "--json" not in flags and "--jsonl" not in flags:
        return None
    if len(flags["ids"]) != (0 if sub == "list" else 1):
        return None
    return flags


def _sheet(sub: str, args: list[str]) -> bool:
    """``belote sheet add|undo|show|list|share --json`` straight from the store."""
    flags = _sheet_flags(sub, args)
    if flags is None:
        return False
    from belote.errors import BeloteError
    from belote.sheets import SheetStore, share_answer

    db = flags.get("--db") or os.environ.get("BELOTE_DB") or None
    try:
        sheet_id = check_sheet_id(flags["ids"][0]) if flags["ids"] else ""
        store = SheetStore(db, small_tables=True)
    except BeloteError as exc:
        fail(str(exc), json_mode=True)
    try:
        if sub == "add":
            run_json(lambda obj: store.add_hand(sheet_id, obj), flags.get("--file"),
                     "--jsonl" in flags, json_mode=True)
            return True
        try:
            if sub == "list":
                state: dict[str, Any] = {"sheets": store.sheets()}
            elif sub == "undo":
                state = store.undo(sheet_id)
            elif sub == "share":
                state = share_answer(store, sheet_id, keep="--keep" in flags,
                                     renew="--renew" in flags, revoke="--revoke" in flags,
                                     base=flags.get("--base"))
            else:
                state = store.state(sheet_id)
        except BeloteError as exc:
            fail(str(exc), json_mode=True)
        except OverflowError:
            fail("a number is too large for the database", json_mode=True)
        echo(dumps(state))
    finally:
        store.close()
    return True


def parse_players(text: str) -> int:
    """The number of players of ``belote rotation N``, or OptionError quoting the
    text as given."""
    from belote.rotation import check_players

    value: object = text if len(text) <= 24 else text[:20] + "..."
    with contextlib.suppress(ValueError):
        value = int(text.strip())
    return check_players(value)


def rotation_json(text: str) -> None:
    """``belote rotation N --json``."""
    from belote.errors import BeloteError
    from belote.rotation import fair_cycle, to_json

    try:
        n = parse_players(text)
        cycle = fair_cycle(n)
    except BeloteError as exc:
        fail(str(exc), json_mode=True)
    echo(dumps(to_json(n, cycle)))
