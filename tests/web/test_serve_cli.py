"""`belote serve` on the command line (the browser tests start it for real)."""

from __future__ import annotations

import socket
from pathlib import Path

from typer.testing import CliRunner

from belote.cli import app

runner = CliRunner()


def test_serve_is_registered_and_documented() -> None:
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--bot-delay", "--seed"):
        assert option in result.output
    assert "127.0.0.1" in result.output  # loopback by default


def test_a_port_in_use_is_a_plain_error(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port), "--db",
                                     str(tmp_path / "s.db")])
    assert result.exit_code == 2
    assert f"error: cannot listen on 127.0.0.1:{port}: the port is in use" in result.output
    assert "Traceback" not in result.output


def test_bad_database_and_log_level_are_plain_errors(tmp_path: Path) -> None:
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("hello, this is not SQLite" * 100)
    result = runner.invoke(app, ["serve", "--port", "0", "--db", str(not_a_db)])
    assert result.exit_code == 2 and result.output.startswith("error: database")
    result = runner.invoke(app, ["serve", "--log-level", "loud"])
    assert result.exit_code == 2 and "--log-level: 'loud'" in result.output
    result = runner.invoke(app, ["serve", "--host", "no-such-host.invalid", "--port", "0"])
    assert result.exit_code == 2 and "unknown host" in result.output
