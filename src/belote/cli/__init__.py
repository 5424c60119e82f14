"""The `belote` command (typer).  Each subcommand lives in its own module and
registers itself on :data:`app`; the core package never imports this one."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="belote",
    help="Belote, coinche and contrée: rules engine, score calculator, score sheets and bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    """Each subcommand module defines ``register(app)``; the help lists them in this order."""
    from belote.cli import (
        play,
        replay,
        rotation,
        score,
        serve,
        sheet,
        simulate,
        solve,
        tournament,
    )

    for module in (score, sheet, rotation, replay, solve, play, simulate, tournament, serve):
        module.register(app)


_register()


def main() -> None:
    app()
