"""What every `belote` subcommand shares: JSON input and output, and errors.

CONTRACT.md: input is one JSON object on stdin (or ``--file PATH``), or JSON
Lines with ``--jsonl`` (one answer line per input line, a bad line answering
``{"error": "..."}`` while the others are still answered).  Errors exit with
status 2 and one ``error: ...`` line on stderr, never a traceback; with
``--json`` stdout carries ``{"error": "..."}`` too.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import typer

from belote.errors import BeloteError

EXIT_ERROR = 2

JsonFn = Callable[[Any], dict[str, Any]]


class CommandError(BeloteError):
    """An error of the command line itself (bad file, bad JSON)."""


def fail(message: str, json_mode: bool = False) -> NoReturn:
    """Print ``error: message`` (and the JSON form when ``json_mode``) and exit 2."""
    if json_mode:
        typer.echo(json.dumps({"error": message}, ensure_ascii=False))
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_ERROR)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def read_text(file: Path | None) -> str:
    if file is None:
        return sys.stdin.read()
    try:
        return file.read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {str(file)!r}: {exc.strerror or exc}") from None


def parse_json(text: str, where: str = "input") -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{where}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None


def run_json(fn: JsonFn, file: Path | None, jsonl: bool, json_mode: bool = True) -> None:
    """Answer ``fn(input)`` for one JSON object, or for each line with ``jsonl``.

    ``fn`` raises :class:`~belote.errors.BeloteError` (a ``ValueError``) for bad
    input; that becomes the error line.  With ``jsonl`` every line is answered
    and the exit status is 2 when any line failed.
    """
    try:
        text = read_text(file)
    except BeloteError as exc:
        fail(str(exc), json_mode)
    if not jsonl:
        try:
            result = fn(parse_json(text))
        except (BeloteError, ValueError) as exc:
            fail(str(exc), json_mode)
        typer.echo(dumps(result))
        return
    failed = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            answer = fn(parse_json(line, f"line {number}"))
        except (BeloteError, ValueError) as exc:
            failed = True
            message = f"line {number}: {exc}" if not str(exc).startswith("line ") else str(exc)
            typer.echo(dumps({"error": message}))
            typer.echo(f"error: {message}", err=True)
            continue
        typer.echo(dumps(answer))
    if failed:
        raise typer.Exit(EXIT_ERROR)


def require_object(obj: Any, where: str = "input") -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise CommandError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    return obj
