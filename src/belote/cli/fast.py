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
``rules``              ``--json``
=====================  ==========================================
"""

from __future__ import annotations

import contextlib
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
    if command == "rules" and args in ([], ["--json"]):
        from belote.cli.rulesdata import print_rules

        print_rules(json_mode=bool(args))
        return True
    return False


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
