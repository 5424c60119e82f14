"""`belote rules`: the profiles and every option with its values and each
profile's default, read from the code (see :mod:`belote.cli.rulesdata`)."""

from __future__ import annotations

from typing import Annotated

import typer

from belote.cli.rulesdata import print_rules

JsonOpt = Annotated[bool, typer.Option("--json", help="Answer in JSON (docs/json.md).")]


def register(app: typer.Typer) -> None:
    @app.command("rules")
    def rules_command(json_mode: JsonOpt = False) -> None:
        """The profiles, and every option with its values and each profile's default.

        The options are explained in docs/rules.md.  With --json:
        {"profiles": {NAME: {"players", "deck", "bidding"}}, "options": {NAME:
        {"values", "default": {PROFILE: VALUE}}}}.
        """
        print_rules(json_mode)
