"""`belote serve`: the web app (score sheets, a table against bots, rooms with friends).

Listens on the loopback interface by default (``--host 0.0.0.0`` shares it on
the local network; put it behind a reverse proxy with TLS to share it further,
with ``--allowed-host`` for its public name, ``--trusted-proxy`` for the proxy's
address and ``--secure-cookie``).  Only the loopback names, the address it
listens on and the ``--allowed-host`` names are answered; forwarded addresses
are believed from the ``--trusted-proxy`` peers only.  The score sheets, the
rooms and their games live in the same database as ``belote sheet`` (``--db``,
``$BELOTE_DB``, or the user data folder), so games survive a restart.
"""

from __future__ import annotations

import errno
import socket
from pathlib import Path
from typing import Annotated

import typer

from belote.cli.common import check_int, echo, fail
from belote.errors import BeloteError

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")


def _check_names(hosts: list[str], proxies: list[str]) -> None:
    """Fail with a plain message (exit 2) on an --allowed-host that is no host name
    or an --trusted-proxy that is no IP address or network."""
    from belote.web.security import allowed_host_names, parse_proxies

    for flag, check, values in (("--allowed-host", allowed_host_names, hosts),
                                ("--trusted-proxy", parse_proxies, proxies)):
        for value in values:
            try:
                check([value])
            except ValueError as exc:
                fail(f"{flag}: {exc}")


def _check_port(host: str, port: int) -> None:
    """Fail with a plain message (exit 2) when the address cannot be listened on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        fail(f"--host {host!r}: unknown host ({exc.strerror})")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            why = "the port is in use" if exc.errno == errno.EADDRINUSE else (
                exc.strerror or str(exc))
            fail(f"cannot listen on {host}:{port}: {why}")


def _check_range(flag: str, value: float, what: str, low: float, high: float) -> None:
    """Fail with a plain message (exit 2) unless ``low <= value <= high`` (NaN fails)."""
    if not low <= value <= high:
        fail(f"{flag}: {value!r} is not {what} in {low}..{high}")


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: Annotated[str, typer.Option(
            "--host", help="Address to listen on (loopback by default).")] = "127.0.0.1",
        port: Annotated[int, typer.Option(
            "--port", help="Port to listen on (0: any free port).")] = 8000,
        db: Annotated[Path | None, typer.Option(
            "--db", envvar="BELOTE_DB", show_envvar=True,
            help="The sheets database (default: ~/.local/share/belote/sheets.db).")] = None,
        bot_delay: Annotated[float, typer.Option(
            "--bot-delay", help="Seconds a bot waits before it acts.")] = 0.6,
        trick_pause: Annotated[float, typer.Option(
            "--trick-pause",
            help="More seconds before a bot leads a new trick (the last stays shown).")] = 0.9,
        deal_pause: Annotated[float, typer.Option(
            "--deal-pause",
            help="Seconds a finished deal stays shown unless a player asks for the next.",
        )] = 30.0,
        grace: Annotated[float, typer.Option(
            "--grace",
            help="Seconds a dropped player keeps his seat before a bot plays for him.")] = 20.0,
        turn_timer: Annotated[float, typer.Option(
            "--turn-timer",
            help="Seconds a player has for each move before a bot plays it (0: no limit).",
        )] = 0.0,
        idle_hours: Annotated[float, typer.Option(
            "--idle-hours", help="A room nobody visits for this long is closed.")] = 6.0,
        rooms_per_client: Annotated[int, typer.Option(
            "--rooms-per-client", help="Open tables one address may hold.")] = 30,
        rooms_per_minute: Annotated[float, typer.Option(
            "--rooms-per-minute",
            help="New tables one network (/24 or /64) may open a minute.")] = 10.0,
        messages_per_second: Annotated[float, typer.Option(
            "--messages-per-second",
            help="WebSocket messages a connection may send a second (bursts of 4x).")] = 10.0,
        network_messages_per_second: Annotated[float, typer.Option(
            "--network-messages-per-second",
            help="WebSocket messages all the connections of one network (/24 or /64) may "
                 "send a second (bursts of 4x).")] = 100.0,
        sockets_per_network: Annotated[int, typer.Option(
            "--sockets-per-network",
            help="WebSocket connections one network (/24 or /64) may hold open.")] = 64,
        allowed_host: Annotated[list[str] | None, typer.Option(
            "--allowed-host",
            help="A name the server answers to besides localhost, 127.0.0.1, [::1] and "
                 "--host (its public name behind a proxy; repeatable). Any other Host "
                 "header is refused.")] = None,
        trusted_proxy: Annotated[list[str] | None, typer.Option(
            "--trusted-proxy",
            help="The address (or network) of a reverse proxy whose X-Forwarded-For and "
                 "X-Forwarded-Proto are believed (repeatable; none by default).")] = None,
        secure_cookie: Annotated[bool, typer.Option(
            "--secure-cookie",
            help="Mark the identity cookie Secure (served over HTTPS by a proxy).")] = False,
        seed: Annotated[int | None, typer.Option(
            "--seed", help="Make the deals and bots of every room reproducible.")] = None,
        log_level: Annotated[str, typer.Option(
            "--log-level", help="uvicorn's log level: critical, error, warning, info, debug.",
        )] = "info",
    ) -> None:
        """Serve the web app: score sheets, a table against bots, rooms with friends."""
        check_int("--port", port, 0, 65535)
        for flag, seconds in (("--bot-delay", bot_delay), ("--trick-pause", trick_pause),
                              ("--deal-pause", deal_pause), ("--grace", grace),
                              ("--turn-timer", turn_timer)):
            _check_range(flag, seconds, "a number of seconds", 0, 3600)
        _check_range("--idle-hours", idle_hours, "a number of hours", 0.01, 24 * 365)
        check_int("--rooms-per-client", rooms_per_client, 1, 100_000)
        _check_range("--rooms-per-minute", rooms_per_minute, "a rate", 0.1, 100_000)
        _check_range("--messages-per-second", messages_per_second, "a rate", 0.1, 100_000)
        _check_range("--network-messages-per-second", network_messages_per_second, "a rate",
                     0.1, 1_000_000)
        check_int("--sockets-per-network", sockets_per_network, 1, 1_000_000)
        try:
            import uvicorn

            from belote.web import create_app
            from belote.web.rooms import RoomSettings
            from belote.web.security import Limits, install_log_redaction
        except ImportError as exc:
            fail(f"the web app needs the 'web' extra (pip install 'belote[web]'): {exc}")
        hosts = list(allowed_host or [])
        proxies = list(trusted_proxy or [])
        _check_names(hosts, proxies)
        if log_level not in ("critical", "error", "warning", "info", "debug"):
            fail(f"--log-level: {log_level!r} is not critical, error, warning, info or debug")
        _check_port(host, port)
        settings = RoomSettings(bot_delay=bot_delay, trick_pause=trick_pause,
                                deal_pause=deal_pause, grace=grace,
                                turn_timer=turn_timer or None, idle_ttl=idle_hours * 3600)
        limits = Limits(rooms_per_client=rooms_per_client, rooms_per_minute=rooms_per_minute,
                        rooms_burst=max(1, int(rooms_per_minute * 2)),
                        messages_per_second=messages_per_second,
                        messages_burst=max(1, int(messages_per_second * 4)),
                        network_messages_per_second=network_messages_per_second,
                        network_messages_burst=max(1, int(network_messages_per_second * 4)),
                        sockets_per_network=sockets_per_network)
        if host not in WILDCARD:  # the address it listens on is a name it answers to
            hosts.append(host)
        try:
            web = create_app(db, settings=settings, seed=seed, limits=limits,
                             secure_cookie=secure_cookie, local_owner=host in LOOPBACK,
                             allowed_hosts=hosts, trusted_proxies=proxies)
        except BeloteError as exc:
            fail(str(exc))
        if host not in LOOPBACK:
            echo(f"warning: listening on {host}: anyone on the network can reach the app",
                 err=True)
        shown = f"[{host}]" if ":" in host else host
        echo(f"belote: serving on http://{shown}:{port}/ (Ctrl+C to stop)", err=True)
        # Frames and bodies are bounded (the app checks JSON sizes; uvicorn drops
        # larger WebSocket frames).  uvicorn's own reading of X-Forwarded-* is off:
        # the app believes them from --trusted-proxy peers only (web.security).
        # Its logs are configured by Config, then the filter that blanks the
        # invitations and tokens of logged addresses goes on them.
        config = uvicorn.Config(web, host=host, port=port, log_level=log_level,
                                ws_max_size=limits.max_json * 2, proxy_headers=False,
                                h11_max_incomplete_event_size=64 * 1024)
        install_log_redaction()
        uvicorn.Server(config).run()
