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
import inspect
import socket
from collections.abc import Callable
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


def _setting_options() -> list[inspect.Parameter]:
    """The options made from the settings fields that carry a flag
    (:mod:`belote.web.settings`): name, default, help and type come from there."""
    from belote.web.settings import Limits, RoomSettings, flags_of, option_default

    params = []
    for cls in (RoomSettings, Limits):
        for f, how in flags_of(cls):
            default = option_default(f, how)
            kind = float if isinstance(default, float) else int
            params.append(inspect.Parameter(
                f.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                annotation=Annotated[kind, typer.Option(how.name, help=how.help)]))
    return params


def _with_setting_options(fn: Callable[..., None]) -> Callable[..., None]:
    """``fn`` (which takes the settings as ``**settings``) with the settings' options
    added to its signature, where typer reads its options."""
    signature = inspect.signature(fn, eval_str=True)
    fixed = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    params = fixed + _setting_options()
    fn.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    fn.__annotations__ = {p.name: p.annotation for p in params}
    return fn


def register(app: typer.Typer) -> None:
    @app.command("serve")
    @_with_setting_options
    def serve(
        host: Annotated[str, typer.Option(
            "--host", help="Address to listen on (loopback by default).")] = "127.0.0.1",
        port: Annotated[int, typer.Option(
            "--port", help="Port to listen on (0: any free port).")] = 8000,
        db: Annotated[Path | None, typer.Option(
            "--db", envvar="BELOTE_DB", show_envvar=True,
            help="The sheets database (default: ~/.local/share/belote/sheets.db).")] = None,
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
        **settings: float,
    ) -> None:
        """Serve the web app: score sheets, a table against bots, rooms with friends."""
        check_int("--port", port, 0, 65535)
        from belote.web.settings import (
            Limits,
            RoomSettings,
            check_option,
            flags_of,
            settings_from_options,
        )

        for cls in (RoomSettings, Limits):
            for f, how in flags_of(cls):
                why = check_option(how, settings[f.name])
                if why:
                    fail(why)
        try:
            import uvicorn

            from belote.web import create_app
            from belote.web.app import serving_gc, uvicorn_options
            from belote.web.security import install_log_redaction
        except ImportError as exc:
            fail(f"the web app needs the 'web' extra (pip install 'belote[web]'): {exc}")
        hosts = list(allowed_host or [])
        proxies = list(trusted_proxy or [])
        _check_names(hosts, proxies)
        if log_level not in ("critical", "error", "warning", "info", "debug"):
            fail(f"--log-level: {log_level!r} is not critical, error, warning, info or debug")
        _check_port(host, port)
        room_settings = settings_from_options(RoomSettings, settings)
        limits = settings_from_options(Limits, settings)
        if host not in WILDCARD:  # the address it listens on is a name it answers to
            hosts.append(host)
        try:
            web = create_app(db, settings=room_settings, seed=seed, limits=limits,
                             secure_cookie=secure_cookie, local_owner=host in LOOPBACK,
                             allowed_hosts=hosts, trusted_proxies=proxies)
        except BeloteError as exc:
            fail(str(exc))
        if host not in LOOPBACK:
            echo(f"warning: listening on {host}: anyone on the network can reach the app",
                 err=True)
        shown = f"[{host}]" if ":" in host else host
        echo(f"belote: serving on http://{shown}:{port}/ (Ctrl+C to stop)", err=True)
        # Frames and bodies bounded, WebSocket messages not compressed
        # (web.app.uvicorn_options).  uvicorn's own reading of X-Forwarded-* is off:
        # the app believes them from --trusted-proxy peers only (web.security).
        # Its logs are configured by Config, then the filter that blanks the
        # invitations and tokens of logged addresses goes on them.
        config = uvicorn.Config(web, host=host, port=port, log_level=log_level,
                                proxy_headers=False, **uvicorn_options(limits))
        install_log_redaction()
        serving_gc()  # start-up is done: frozen out of the collections
        uvicorn.Server(config).run()
