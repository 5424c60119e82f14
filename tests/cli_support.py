"""Driving the interactive `belote` commands from tests: typed answers in, the output
as one line of words out, and a sheet's JSON."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from belote.cli import app

runner = CliRunner()


def ctrl_c_heard() -> None:
    """For ``subprocess.Popen(preexec_fn=...)`` of a child a test sends SIGINT: the child
    starts with SIGINT's default action, so that Python turns it into KeyboardInterrupt.
    A shell starts its background jobs with SIGINT ignored (``cmd &`` without job
    control, ``nohup``), and a Python child that inherits the ignore never hears Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(args: list[str], answers: list[str], db: Path) -> tuple[int, str]:
    """Run ``belote ARGS`` with ``answers`` typed one a line, on the sheets database ``db``:
    the exit code and the output with its whitespace folded."""
    result = runner.invoke(app, args, input="\n".join(answers) + "\n",
                           env={"BELOTE_DB": str(db), "COLUMNS": "200"})
    return result.exit_code, " ".join(result.output.split())


def sheet_json(db: Path, sheet_id: int = 1) -> dict[str, Any]:
    """``belote sheet show ID --json`` on ``db``."""
    result = runner.invoke(app, ["sheet", "show", str(sheet_id), "--json", "--db", str(db)])
    assert result.exit_code == 0, result.output
    state: dict[str, Any] = json.loads(result.stdout)
    return state
