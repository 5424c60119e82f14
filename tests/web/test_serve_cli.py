"""`belote serve` on the command line (the browser tests start it for real)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
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


@pytest.mark.parametrize(("args", "message"), [
    (["--bot-delay", "nan"], "--bot-delay: nan is not a number of seconds in 0..3600"),
    (["--turn-timer", "3601"], "--turn-timer: 3601.0 is not a number of seconds in 0..3600"),
    (["--idle-hours", "0"], "--idle-hours: 0.0 is not a number of hours in 0.01..8760"),
    (["--rooms-per-minute", "0.05"], "--rooms-per-minute: 0.05 is not a rate in 0.1..100000"),
    (["--messages-per-second", "1e6"],
     "--messages-per-second: 1000000.0 is not a rate in 0.1..100000"),
])
def test_numbers_out_of_range_are_plain_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["serve", *args])
    assert result.exit_code == 2
    assert result.output == f"error: {message}\n"


def test_the_network_flags_are_documented() -> None:
    result = runner.invoke(app, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0
    for option in ("--allowed-host", "--trusted-proxy", "--sockets-per-network",
                   "--network-messages-per-second", "--secure-cookie"):
        assert option in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--trusted-proxy", "10.0.0.300"],
     "--trusted-proxy: '10.0.0.300' is not an IP address or network"),
    (["--trusted-proxy", "10.0.0.1", "--trusted-proxy", "proxy.example"],
     "--trusted-proxy: 'proxy.example' is not an IP address or network"),
    (["--trusted-proxy", "10.0.0.1/8"],
     "--trusted-proxy: '10.0.0.1/8' is not an IP address or network"),
    (["--allowed-host", "belote.example.org:443"],
     "--allowed-host: 'belote.example.org:443' is not a host name or an IP address "
     "(without a port)"),
    (["--allowed-host", "https://belote.example.org"],
     "--allowed-host: 'https://belote.example.org' is not a host name or an IP address "
     "(without a port)"),
    (["--sockets-per-network", "0"], "--sockets-per-network: 0 is too small (at least 1)"),
    (["--network-messages-per-second", "0"],
     "--network-messages-per-second: 0.0 is not a rate in 0.1..1000000"),
])
def test_bad_network_flags_are_plain_errors(args: list[str], message: str | None) -> None:
    result = runner.invoke(app, ["serve", "--port", "0", *args])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and "Traceback" not in result.output
    if message is not None:
        assert result.output == f"error: {message}\n"


def _served_settings(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> dict[str, Any]:
    """The settings ``belote serve ARGS`` hands to the app (the server is not started)."""
    import uvicorn

    import belote.web
    import belote.web.app

    seen: dict[str, Any] = {}

    def fake_create_app(db: Any, **kwargs: Any) -> object:
        seen.update(kwargs)
        return object()

    def fake_run(server: uvicorn.Server) -> None:
        seen["config"] = server.config

    monkeypatch.setattr(belote.web, "create_app", fake_create_app, raising=False)
    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    # (the test process's own collector is left as it is)
    monkeypatch.setattr(belote.web.app, "serving_gc", lambda: seen.update(gc=True))
    result = runner.invoke(app, ["serve", "--port", "0", *args])
    assert result.exit_code == 0, result.output
    return seen


def test_served_without_compression_and_with_the_serving_gc(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn is told not to compress the WebSocket messages (it would by default,
    each state costing CPU to compress), with the frames bounded, and the collector
    is set for serving once start-up is done."""
    from belote.web.settings import Limits

    seen = _served_settings(monkeypatch, [])
    config = seen["config"]
    assert config.ws_per_message_deflate is False
    assert config.ws_max_size == Limits().max_json * 2 and config.proxy_headers is False
    assert config.http == "h11" and config.h11_max_incomplete_event_size == 64 * 1024
    assert seen["gc"] is True


_SERVE_ONCE = """
import asyncio, sys, threading, time, urllib.request
if sys.argv[1] == "without-uvloop":
    sys.modules["uvloop"] = None  # as where it is not installed
import uvicorn
from belote.cli import main
port, seen = sys.argv[2], {}
serve = uvicorn.Server.serve
async def serve_once(self, sockets=None):
    seen["loop"] = type(asyncio.get_running_loop()).__module__.split(".")[0]
    def ask():
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    seen["status"] = r.status
                    break
            except OSError:
                time.sleep(0.1)
        self.should_exit = True
    threading.Thread(target=ask, daemon=True).start()
    await serve(self, sockets)
uvicorn.Server.serve = serve_once
try:
    main(["serve", "--port", port, "--db", sys.argv[3]])
finally:  # (main exits)
    print("served:", seen.get("loop"), seen.get("status"))
"""


@pytest.mark.parametrize("where", ["with-uvloop", "without-uvloop"])
def test_served_on_uvloop_where_installed_and_on_asyncio_without(
        where: str, tmp_path: Path) -> None:
    """uvloop is in the web extra and belote serve leaves uvicorn's loop on "auto": the
    server runs on uvloop where it is installed, and on asyncio's own loop where it is
    not, answering its pages either way.  In a process of its own."""
    import subprocess
    import sys

    from tests.web.support import free_port

    if where == "with-uvloop":
        pytest.importorskip("uvloop")
    out = subprocess.run([sys.executable, "-c", _SERVE_ONCE, where, str(free_port()),
                          str(tmp_path / "s.db")], capture_output=True, text=True,
                         timeout=120)
    loop = "uvloop" if where == "with-uvloop" else "asyncio"
    assert f"served: {loop} 200" in out.stdout.splitlines(), out.stdout + out.stderr


def test_every_settings_flag_comes_from_its_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """The options of `belote serve` are made from the settings fields: each flagged
    field is an option whose default is the field's, and no flag sets a field twice."""
    from belote.web.settings import Limits, RoomSettings, flags_of

    out = runner.invoke(app, ["serve", "--help"], terminal_width=300).output
    names = [how.name for cls in (RoomSettings, Limits) for _, how in flags_of(cls)]
    assert len(names) == len(set(names)) >= 12
    for name in names:
        assert name in out
    seen = _served_settings(monkeypatch, [])
    assert seen["settings"] == RoomSettings() and seen["limits"] == Limits()


def test_settings_flags_reach_the_app_in_their_units(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _served_settings(monkeypatch, [
        "--bot-delay", "0.1", "--idle-hours", "2", "--turn-timer", "45", "--max-rooms", "77",
        "--messages-per-second", "3", "--rooms-per-minute", "5", "--sockets-per-network", "9"])
    rooms, limits = seen["settings"], seen["limits"]
    assert (rooms.bot_delay, rooms.idle_ttl, rooms.turn_timer, rooms.max_rooms) == (
        0.1, 7200.0, 45.0, 77)
    assert (limits.messages_per_second, limits.messages_burst) == (3.0, 12)
    assert (limits.rooms_per_minute, limits.rooms_burst, limits.sockets_per_network) == (
        5.0, 10, 9)
    assert _served_settings(monkeypatch, ["--turn-timer", "0"])["settings"].turn_timer is None
    cache = _served_settings(monkeypatch, ["--analysis-cache-mb", "3"])["settings"]
    assert cache.analysis_cache_bytes == 3 * 2**20


def test_a_whole_number_flag_out_of_range_names_its_bound() -> None:
    result = runner.invoke(app, ["serve", "--max-rooms", "0"])
    assert result.exit_code == 2
    assert result.output == "error: --max-rooms: 0 is too small (at least 1)\n"


def test_the_serving_gc_freezes_start_up_and_raises_the_thresholds() -> None:
    """In a process of its own (the tests' collector is left as it is)."""
    import subprocess
    import sys

    code = ("import gc; from belote.web.app import GC_THRESHOLDS, serving_gc; "
            "before = gc.get_freeze_count(); serving_gc(); "
            "print(before == 0 < gc.get_freeze_count(), gc.get_threshold() == GC_THRESHOLDS)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.split() == ["True", "True"]


def test_the_serving_gc_freezes_what_any_collection_leaves_and_scans_it_all() -> None:
    """What survives any collection, a young one included, is frozen out of the next
    ones (gc.freeze() sets the counters back, so no middle or full collection would
    ever come to go through it), and the full scan of the thread that serving_gc
    starts frees what was frozen and became garbage in a cycle.  In a process of its
    own, the scan every 1.5 s instead of every hour."""
    import subprocess
    import sys

    code = """
import gc, time, weakref
import belote.web.app as web_app
web_app.FULL_SCAN_S = 1.5
started = time.monotonic()
web_app.serving_gc()
class Node: pass
def cycle():
    node = Node(); node.me = node
    return node, weakref.ref(node)
node, ref = cycle()
gc.collect(0)  # a young collection: node is alive, then frozen
frozen = not any(o is node for o in gc.get_objects())
del node  # garbage now, in a cycle
gc.collect(0)
gc.collect(1)
kept = ref() is not None  # no collection goes through what is frozen
early = time.monotonic() - started < 1.0  # (the thread's scan had not come yet)
while ref() is not None and time.monotonic() - started < 30:
    time.sleep(0.05)
print(frozen, kept, early, ref() is None)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.split() == ["True", "True", "True", "True"], out.stdout + out.stderr
