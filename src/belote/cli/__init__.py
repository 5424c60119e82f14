"""The `belote` command.

:func:`main` is a small dispatcher that imports only what the command run
needs:

* ``belote``, ``belote --help`` and ``belote --version`` answer from the static
  table :data:`COMMANDS`, importing no subcommand, typer nor rich;
* the JSON faces that a program calls once per hand (``score hand --json``,
  ``score game --json``, ``rotation N --json``, ``replay --json``,
  ``solve --json``, ``rules``, ``sheet add/undo/show/list --json``, with
  ``--jsonl``, ``--file`` and ``--db``) run straight from the engine
  (:mod:`belote.cli.fast`);
* anything else builds a typer app holding that one command (its module
  imported then, and only it) and runs it.

Every error, a usage error included, is one ``error: ...`` line on stderr with
exit status 2 (and ``{"error": ...}`` on stdout under ``--json``/``--jsonl``);
never a traceback nor a boxed panel.  ``BELOTE_DEBUG=1`` shows the traceback
of an unexpected error.

``belote.cli.app`` (built on first use) is the typer app with every command,
for :class:`typer.testing.CliRunner`; it answers errors the same way.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, Final, NoReturn

from belote import __version__

PROG: Final = "belote"
SUMMARY: Final = (
    "Belote, coinche and contrée: rules, score calculator, score sheets and bots."
)

#: name, module, one-line summary: the help lists them in this order.
COMMANDS: Final[tuple[tuple[str, str, str], ...]] = (
    ("score", "belote.cli.score",
     "Score hands and games: the calculator, or JSON (hand, game)."),
    ("sheet", "belote.cli.sheet", "Score sheets kept in a database: new, add, undo, edit..."),
    ("rotation", "belote.cli.rotation", "A fair rotation table for 5, 6 or 7 players."),
    ("rules", "belote.cli.rules", "The profiles and every option, its values and defaults."),
    ("replay", "belote.cli.replay", "Check and score one played hand from its record."),
    ("solve", "belote.cli.solve", "The double-dummy value of a position and of each card."),
    ("analyze", "belote.cli.analyze", "Where each card and call of a played deal lost points."),
    ("play", "belote.cli.play", "Play a game against bots in the terminal."),
    ("history", "belote.cli.history",
     "The games played: their deals and results, statistics per player."),
    ("simulate", "belote.cli.simulate", "Bots play deals at one table; the score and contracts."),
    ("tournament", "belote.cli.tournament",
     "Bots against each other over duplicate deals: win rates, Elo."),
    ("serve", "belote.cli.serve", "The web app: score sheets, tables against bots, rooms."),
)

HELP_OPTIONS: Final = ("-h", "--help")


def _help_text() -> str:
    width = max(len(name) for name, _, _ in COMMANDS) + 2
    lines = [
        f"Usage: {PROG} [--version] [--help] COMMAND [ARGS]...",
        "",
        SUMMARY,
        "",
        "Commands:",
        *(f"  {name:<{width}}{summary}" for name, _, summary in COMMANDS),
        "",
        "Options:",
        f"  {'--version':<{width}}Show the version and exit.",
        f"  {'-h, --help':<{width}}Show this message and exit.",
        "",
        f"`{PROG} COMMAND --help` tells more about a command.  Every command answers in",
        "JSON with --json (the formats: docs/json.md); the rules, the profiles and",
        f"their options: docs/rules.md and `{PROG} rules`.",
    ]
    return "\n".join(lines)


def _json_mode(argv: list[str]) -> bool:
    return "--json" in argv or "--jsonl" in argv


def _error(message: str, argv: list[str], code: int = 2) -> NoReturn:
    from belote.cli.common import error_line

    error_line(message, _json_mode(argv))
    raise SystemExit(code)


def _module_of(name: str) -> str | None:
    for command, module, _ in COMMANDS:
        if command == name:
            return module
    return None


def build_app(only: str | None = None) -> Any:
    """The typer app: every command, or ``only`` the one named (its module alone
    imported)."""
    from belote.cli.typerapp import root_app

    app = root_app(f"{SUMMARY}\n\nThe JSON formats: docs/json.md; the rules: docs/rules.md.")
    for name, module, _ in COMMANDS:
        if only is None or name == only:
            importlib.import_module(module).register(app)
    # The command list shows the same one-line summaries as `belote --help`.
    summaries = {name: summary for name, _, summary in COMMANDS}
    infos: list[Any] = [*app.registered_commands, *app.registered_groups]
    for info in infos:
        if info.name in summaries:
            info.short_help = summaries[info.name]
    return app


_APP: Any = None


def __getattr__(name: str) -> Any:
    """``belote.cli.app``: the whole typer app, built once on first use."""
    global _APP
    if name != "app":
        raise AttributeError(f"module 'belote.cli' has no attribute {name!r}")
    if _APP is None:
        _APP = build_app()
    return _APP


def main(argv: list[str] | None = None) -> None:
    """The `belote` command; ``argv`` defaults to ``sys.argv[1:]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        _dispatch(args)
    except BrokenPipeError:
        # The reader went away (`belote ... | head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        _error("interrupted", args, 130)
    except SystemExit:
        raise
    except Exception as exc:
        if os.environ.get("BELOTE_DEBUG"):
            raise
        from belote.errors import BeloteError

        if isinstance(exc, BeloteError):
            _error(str(exc), args)
        if isinstance(exc, RecursionError):
            _error("input: nested too deeply", args)
        _error(f"internal error: {exc.__class__.__name__}: {exc} "
               "(BELOTE_DEBUG=1 shows where)", args)


def _dispatch(args: list[str]) -> None:
    if not args or args[0] in HELP_OPTIONS or args == ["help"]:
        print(_help_text())
        return
    first = args[0]
    if first in ("--version", "-V"):
        print(f"{PROG} {__version__}")
        return
    if first == "help" and len(args) == 2 and _module_of(args[1]):
        args = [args[1], "--help"]
        first = args[0]
    if first.startswith("-"):
        _error(f"no such option: {first} (`{PROG} --help` lists the commands)", args)
    if _module_of(first) is None:
        names = ", ".join(name for name, _, _ in COMMANDS)
        _error(f"no such command: {first!r} (the commands: {names})", args)
    from belote.cli import fast

    if fast.run(first, args[1:]):
        return
    app = build_app(first)
    from belote.cli.typerapp import run

    run(app, args)
