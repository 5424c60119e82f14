"""The flags and the progress bar that several `belote` subcommands share.

This is the typer and rich side of the command line: :mod:`belote.cli.common` stays
free of both, for the fast paths of :mod:`belote.cli`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Protocol

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = [
    "FileOpt",
    "JsonOpt",
    "JsonlOpt",
    "NoProgressOpt",
    "OptionOpt",
    "ProfileOpt",
    "SeedOpt",
    "Update",
    "progress_bar",
]

FileOpt = Annotated[
    Path | None, typer.Option("--file", metavar="PATH",
        help="Read the input from PATH instead of stdin.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Answer in JSON (docs/json.md).")]
JsonlOpt = Annotated[
    bool, typer.Option("--jsonl", help="One input per line, one answer per line.")
]
ProfileOpt = Annotated[str, typer.Option(
    "--profile", metavar="NAME", help="Rules profile (`belote rules` lists them).")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", metavar="NAME=VALUE",
                 help="Override an option (`belote rules` lists them), repeatable."),
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", metavar="N",
        help="Seed of the decks and bots (default: drawn).")
]
NoProgressOpt = Annotated[
    bool, typer.Option("--no-progress", help="No progress bar (it is drawn on a terminal only).")
]

class Update(Protocol):
    """How far the work is: ``done`` units of ``total`` (given once it is known)."""

    def __call__(self, done: int, total: int | None = None) -> None: ...


@contextmanager
def progress_bar(
    command: str, unit: str, console: Console, show: bool, total: int | None = None
) -> Iterator[Update | None]:
    """A progress bar on ``console`` (stderr) while the block runs, when ``show`` and the
    console is a terminal; the block gets its ``update``, or None when no bar is drawn."""
    if not show or not console.is_terminal:
        yield None
        return
    with Progress(
        TextColumn(f"[bold]{command}"), BarColumn(), MofNCompleteColumn(),
        TextColumn(unit), TimeElapsedColumn(), TimeRemainingColumn(),
        console=console, transient=True,
    ) as bar:
        task = bar.add_task(unit, total=total)

        def update(done: int, total: int | None = None) -> None:
            bar.update(task, completed=done, total=total)

        yield update
