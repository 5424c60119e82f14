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
    # One line per subcommand module; each defines `register(app)`.
    from belote.cli import replay
    replay.register(app)
    from belote.cli import score
    score.register(app)
    from belote.cli import tournament
    tournament.register(app)
    # (more subcommands are registered here)


_register()


def main() -> None:
    app()
