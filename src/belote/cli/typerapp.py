"""The typer side of the `belote` command: the root app, and one-line errors.

:class:`BeloteGroup` runs typer/click in non-standalone mode and turns what
click would print as a panel (an unknown flag, a value of the wrong kind, a
missing argument) into one ``error: ...`` line naming the flag and the value,
exit status 2, and ``{"error": ...}`` on stdout under ``--json``/``--jsonl``.
Help is plain text (no rich panels, no ``<bool>``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from belote.cli.common import EXIT_ERROR, EXIT_INTERRUPTED, echo, error_line, rule_code
from belote.errors import BeloteError

CONTEXT = {"help_option_names": ["-h", "--help"]}

_REASONS = (
    ("valid integer", "is not a whole number"),
    ("valid number", "is not a number"),
    ("valid float", "is not a number"),
    ("valid boolean", "is not true or false"),
    ("is not a valid integer", "is not a whole number"),
    ("is not a valid float", "is not a number"),
)


def _value_of(opts: Sequence[str], argv: Sequence[str]) -> str | None:
    """The value given to an option (``--deals -1`` or ``--deals=-1``), if found."""
    for i, token in enumerate(argv):
        for opt in opts:
            if token == opt and i + 1 < len(argv):
                return argv[i + 1]
            if token.startswith(opt + "="):
                return token[len(opt) + 1:]
    return None


def usage_message(exc: Any, argv: Sequence[str]) -> str:
    """One line for a click usage error, naming the flag and the value."""
    text = " ".join(str(exc.format_message()).split())
    param = getattr(exc, "param", None)
    ctx = getattr(exc, "ctx", None)
    where = getattr(ctx, "command_path", None) or "belote"
    hint = f" (`{where} --help` lists them)"
    name = type(exc).__name__
    if name == "NoSuchOption":
        return text[0].lower() + text[1:].rstrip(".") + hint.replace("them", "the options")
    if param is not None and name == "BadParameter":
        opts = [o for o in getattr(param, "opts", []) if o.startswith("-")]
        label = opts[0] if opts else (getattr(param, "human_readable_name", None) or "value")
        value = _value_of(opts, argv) if opts else None
        reason = text.split(": ", 1)[1] if ": " in text else text
        for needle, plain in _REASONS:
            if needle in reason:
                reason = plain
                break
        else:
            reason = reason.rstrip(".")
        if value is not None and repr(value) not in reason:
            return f"{label}: {value!r} {reason}" if reason.startswith("is ") else (
                f"{label}: {value!r}: {reason}")
        return f"{label}: {reason}"
    text = text[0].lower() + text[1:] if text else "bad usage"
    return text.rstrip(".") + f" (`{where} --help`)"


class BeloteGroup(TyperGroup):
    """The root group: every error one line (see the module's docstring)."""

    def main(  # type: ignore[override]
        self, args: Sequence[str] | None = None, prog_name: str | None = None,
        complete_var: str | None = None, standalone_mode: bool = True, **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        json_mode = "--json" in argv or "--jsonl" in argv
        try:
            rv = super().main(args=argv, prog_name=prog_name or "belote",
                              complete_var=complete_var, standalone_mode=False, **extra)
        except SystemExit:
            raise
        except typer.Abort:
            error_line("interrupted", json_mode)
            raise SystemExit(EXIT_INTERRUPTED) from None
        except KeyboardInterrupt:
            error_line("interrupted", json_mode)
            raise SystemExit(EXIT_INTERRUPTED) from None
        except BeloteError as exc:
            error_line(str(exc), json_mode, rule_code(exc))
            raise SystemExit(EXIT_ERROR) from None
        except Exception as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # `belote sheet`: its help
                echo(str(exc.format_message()))  # type: ignore[attr-defined]
                raise SystemExit(0) from None
            if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
                error_line(usage_message(exc, argv), json_mode)
                raise SystemExit(EXIT_ERROR) from None
            if os.environ.get("BELOTE_DEBUG"):
                raise
            if isinstance(exc, RecursionError):
                error_line("input: nested too deeply", json_mode)
            else:
                error_line(f"internal error: {exc.__class__.__name__}: {exc} "
                           "(BELOTE_DEBUG=1 shows where)", json_mode)
            raise SystemExit(EXIT_ERROR) from None
        if isinstance(rv, int) and not isinstance(rv, bool) and rv:
            raise SystemExit(rv)
        if standalone_mode:
            raise SystemExit(0)
        return rv


def sub_app(help_text: str, **kwargs: Any) -> typer.Typer:
    """A command group (score, sheet) with plain help."""
    return typer.Typer(help=help_text, rich_markup_mode=None, context_settings=CONTEXT,
                       add_completion=False, **kwargs)


def root_app(help_text: str) -> typer.Typer:
    app = typer.Typer(
        name="belote", cls=BeloteGroup, add_completion=False, no_args_is_help=True,
        pretty_exceptions_enable=False, rich_markup_mode=None, context_settings=CONTEXT,
    )

    @app.callback(help=help_text)
    def _root() -> None:
        """The root: its commands are registered by their modules."""

    return app


def run(app: typer.Typer, argv: list[str]) -> None:
    command = typer.main.get_command(app)
    command.main(args=argv, prog_name="belote")
