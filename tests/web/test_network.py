"""`belote serve` on a real network: the Host allow-list (DNS rebinding), who the
client is behind a trusted proxy, limits per network (/24, /64), WebSockets
(identity, the hello timeout, open connections), the signed identity cookie,
secrets kept out of logs, and the visibilities the API accepts.

Each test plays the attacker's request and checks that it is refused and that
nothing changed; each protection's test was run with the protection removed
and failed.
"""

from __future__ import annotations

import asyncio
import logging
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from belote.errors import BeloteError
from belote.sheets import SheetStore
from belote.web import RoomSettings, create_app
from belote.web.rooms import Room
from belote.web.security import (
    COOKIE,
    RedactSecrets,
    allowed_host_names,
    forwarded_client,
    host_name,
    parse_proxies,
    redact,
)
from belote.web.security import Limits as Limits
from tests.web.conftest import GENEROUS
from tests.web.support import (
    ORIGIN,
    TestClient,
    WebSocketTestSession,
    free_port,
    live_server,
    new_identity,
    receive,
    send,
    until_state,
)

FAST = RoomSettings(bot_delay=0.0, trick_pause=0.0, deal_pause=60.0)
HOST_REFUSED = "refused: this server does not answer to the name in the Host header"


@contextmanager
def serve(db: Path, limits: Limits = GENEROUS, *, base_url: str = ORIGIN,
          peer: tuple[str, int] = ("testclient", 50000), **options: Any
          ) -> Iterator[TestClient]:
    app = create_app(db, settings=FAST, seed=3, limits=limits, **options)
    with TestClient(app, base_url=base_url, client=peer) as c:
        yield c


def as_peer(client: TestClient, host: str) -> None:
    """Requests of ``client`` come from the direct peer ``host`` from now on."""
    setattr(client._transport, "client", (host, 50000))  # noqa: B010 - the test transport


def new_room(client: TestClient, **headers: str) -> httpx.Response:
    r: httpx.Response = client.post("/api/rooms", json={"profile": "classic", "bots": "random"},
                       headers=headers)
    return r


def room_of(client: TestClient, room_id: str) -> Room:
    room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    return room


def closed(ws: WebSocketTestSession) -> tuple[list[dict[str, Any]], int, str]:
    """Read until the server closes: the messages, the close code and reason."""
    seen: list[dict[str, Any]] = []
    for _ in range(10_000):
        try:
            seen.append(receive(ws))
        except WebSocketDisconnect as exc:
            return seen, exc.code, exc.reason
    raise AssertionError("the connection was never closed")


def make_sheet(client: TestClient) -> str:
    r = client.post("/sheets", data={"profile": "classic", "target": "1000"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    location: str = r.headers["location"]
    return location


# --- 1. the Host allow-list (DNS rebinding) ------------------------------------------------


def test_a_rebound_name_gets_no_cookie_and_cannot_delete_a_sheet(db: Path) -> None:
    """A page of rebind.example (resolving to 127.0.0.1) read /api/session for its own
    cookie and token, then deleted sheets with a matching Origin."""
    with serve(db) as owner:
        new_identity(owner)
        sheet = make_sheet(owner)
        sheet_id = sheet.rsplit("/", 1)[1]
    rebound = "http://rebind.example:8000"
    with serve(db, base_url=rebound) as attacker:
        r = attacker.get("/api/session")
        assert r.status_code == 400 and r.json() == {"error": HOST_REFUSED,
                                                      "code": "unknown_host"}
        assert "set-cookie" not in r.headers and "csrf" not in r.text
        page = attacker.get("/", headers={"Accept": "text/html"})
        assert page.status_code == 400 and "does not answer to this name" in page.text
        page = attacker.get("/", headers={"Accept": "text/html", "Accept-Language": "fr"})
        assert page.status_code == 400 and "ne répond pas à ce nom" in page.text
        for path in ("/sheets", "/rooms", "/static/style.css", f"/api/sheets/{sheet_id}"):
            assert attacker.get(path).status_code == 400, path
        r = attacker.post(f"{sheet}/delete", headers={"Origin": rebound},
                          follow_redirects=False)
        assert r.status_code == 400
        with pytest.raises(WebSocketDenialResponse) as denied, \
                attacker.websocket_connect("/ws/rooms/ABC"):
            pass  # pragma: no cover - never accepted
        assert denied.value.status_code == 400 and HOST_REFUSED in denied.value.text
    with SheetStore(db) as store:  # still there
        assert store.state(int(sheet_id))["id"] == int(sheet_id)


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:39999",
                                  "[::1]:8000", "LOCALHOST:80", "belote.example.org",
                                  "belote.example.org:443"])
def test_loopback_names_and_the_allowed_ones_are_answered(db: Path, host: str) -> None:
    with serve(db, allowed_hosts=["belote.example.org"]) as client:
        r = client.get("/api/session", headers={"Host": host})
        assert r.status_code == 200, (host, r.text)


@pytest.mark.parametrize("host", ["evil.example", "belote.example.org.evil.example",
                                  "x.belote.example.org", "127.0.0.2", "[::2]", "",
                                  "localhost:http", "local host", "[::1", "0x7f.1"])
def test_any_other_host_is_a_400(db: Path, host: str) -> None:
    with serve(db, allowed_hosts=["belote.example.org"]) as client:
        r = client.get("/api/session", headers={"Host": host})
        assert r.status_code == 400, host
        assert r.json() == {"error": HOST_REFUSED, "code": "unknown_host"}


def test_a_request_without_host_is_a_400(db: Path) -> None:
    """An HTTP/1.0 request may carry no Host at all: refused too (raw ASGI)."""
    app = create_app(db, settings=FAST)
    sent: list[dict[str, Any]] = []

    async def receive_() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send_(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/api/session", "raw_path": b"",
             "query_string": b"", "headers": [], "client": ("127.0.0.1", 1),
             "scheme": "http", "http_version": "1.0", "root_path": "", "asgi": {"version": "3.0"}}
    asyncio.run(app(scope, receive_, send_))  # type: ignore[arg-type]
    assert sent[0]["status"] == 400
    assert HOST_REFUSED.encode() in sent[1]["body"]


def test_allowed_host_names_are_checked() -> None:
    assert allowed_host_names(["Belote.Example.org", "2001:db8::1", "192.0.2.7"]) >= {
        "belote.example.org", "[2001:db8::1]", "192.0.2.7", "localhost"}
    assert host_name("[2001:DB8::1]:443") == "[2001:db8::1]"
    for bad in ("belote.example.org:443", "http://belote.example.org", "a b", "",
                "[::1]:80", "x/y"):
        with pytest.raises(ValueError, match="is not a host name"):
            allowed_host_names([bad])
    with pytest.raises(BeloteError, match="allowed host: 'a b'"):
        create_app(":memory:", allowed_hosts=["a b"])
    with pytest.raises(BeloteError, match=r"trusted proxy: '10\.0\.0\.300'"):
        create_app(":memory:", trusted_proxies=["10.0.0.300"])


# --- 2. X-Forwarded-For from trusted proxies only ------------------------------------------


def test_forwarded_addresses_are_read_from_trusted_proxies_only() -> None:
    proxies = parse_proxies(["10.0.0.1", "10.1.0.0/16"])
    # Not a proxy: the peer, whatever it says.
    assert forwarded_client("192.0.2.5", ["198.51.100.7"], proxies) == "192.0.2.5"
    assert forwarded_client("127.0.0.1", ["198.51.100.7"], ()) == "127.0.0.1"
    # The proxy: the right-most address that is not a proxy (a client's own
    # X-Forwarded-For is on the left, where nothing is believed).
    assert forwarded_client("10.0.0.1", ["198.51.100.7"], proxies) == "198.51.100.7"
    assert forwarded_client("10.0.0.1", ["1.2.3.4, 198.51.100.7"], proxies) == "198.51.100.7"
    assert forwarded_client("10.0.0.1", ["1.2.3.4", "198.51.100.7, 10.1.2.3"],
                            proxies) == "198.51.100.7"
    assert forwarded_client("10.0.0.1", ["[2001:db8::5]:443"], proxies) == "2001:db8::5"
    assert forwarded_client("10.0.0.1", ["garbage"], proxies) == "10.0.0.1"
    assert forwarded_client("10.0.0.1", [], proxies) == "10.0.0.1"
    for bad in ("10.0.0.300", "proxy.example", "10.0.0.1/8", ""):
        with pytest.raises(ValueError, match="is not an IP address or network"):
            parse_proxies([bad])


def test_a_forwarded_address_escapes_no_limit_without_a_trusted_proxy(db: Path) -> None:
    """uvicorn believed X-Forwarded-For from any loopback peer: a local process (or a
    pass-through proxy) got a new client for every room."""
    limits = Limits(rooms_per_minute=0.1, rooms_burst=1, rooms_per_client=100)
    with serve(db, limits, peer=("127.0.0.1", 40000)) as client:
        new_identity(client)
        assert new_room(client, **{"X-Forwarded-For": "198.51.100.7"}).status_code == 201
        r = new_room(client, **{"X-Forwarded-For": "203.0.113.9"})
        assert r.status_code == 429, r.text


def test_behind_a_trusted_proxy_each_client_counts_for_itself(db: Path) -> None:
    limits = Limits(rooms_per_minute=0.1, rooms_burst=1, rooms_per_client=100)
    with serve(db, limits, peer=("10.0.0.1", 40000), trusted_proxies=["10.0.0.1"]) as client:
        new_identity(client)
        assert new_room(client, **{"X-Forwarded-For": "198.51.100.7"}).status_code == 201
        # The same client again, even claiming another address on the left: refused.
        for chain in ("198.51.100.7", "192.0.2.1, 198.51.100.7"):
            r = new_room(client, **{"X-Forwarded-For": chain})
            assert r.status_code == 429, chain
        # Another client behind the proxy.
        assert new_room(client, **{"X-Forwarded-For": "203.0.113.9"}).status_code == 201
        # A peer that is not the proxy: its forwarded address is not believed.
        as_peer(client, "192.0.2.50")
        assert new_room(client, **{"X-Forwarded-For": "192.0.2.77"}).status_code == 201
        r = new_room(client, **{"X-Forwarded-For": "233.252.0.1"})
        assert r.status_code == 429


def test_forwarded_proto_is_believed_from_a_trusted_proxy_only(db: Path) -> None:
    """The CSRF check compares the Origin's scheme with the request's: behind a TLS
    proxy the request is https only when the proxy says so."""
    https = {"Origin": "https://localhost", "X-Forwarded-Proto": "https"}
    with serve(db, peer=("10.0.0.1", 40000), trusted_proxies=["10.0.0.1"]) as client:
        new_identity(client)
        assert new_room(client, **https).status_code == 201
        assert new_room(client, Origin="https://localhost").status_code == 403
    with serve(db, peer=("10.0.0.1", 40000)) as client:
        new_identity(client)
        r = new_room(client, **https)
        assert r.status_code == 403 and "another site" in r.json()["error"]


# --- 3. limits per network ---------------------------------------------------------------


@pytest.mark.parametrize(("first", "same", "other"), [
    ("192.0.2.7", "192.0.2.200", "192.0.3.7"),
    ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:3::1"),
])
def test_new_rooms_are_counted_per_network(db: Path, first: str, same: str,
                                           other: str) -> None:
    """An IPv6 /64 is millions of addresses: a new one for each room escaped the limit."""
    limits = Limits(rooms_per_minute=0.1, rooms_burst=1, rooms_per_client=100)
    with serve(db, limits) as client:
        new_identity(client)
        as_peer(client, first)
        assert new_room(client).status_code == 201
        as_peer(client, same)
        new_identity(client)
        r = new_room(client)
        assert r.status_code == 429 and "too many new tables" in r.json()["error"]
        as_peer(client, other)
        assert new_room(client).status_code == 201


def test_open_websockets_are_capped_per_network(db: Path) -> None:
    """One client held 300 idle sockets; now a network holds at most the limit."""
    limits = Limits(sockets_per_network=2, hello_seconds=60.0)
    first, second = ExitStack(), ExitStack()
    with serve(db, limits) as client, first, second:
        new_identity(client)
        room = new_room(client).json()["id"]
        as_peer(client, "2001:db8:7:7::1")
        first.enter_context(client.websocket_connect(f"/ws/rooms/{room}"))
        as_peer(client, "2001:db8:7:7::2")
        second.enter_context(client.websocket_connect(f"/ws/rooms/{room}"))
        # Both held open (no hello yet): the third of the network is refused.
        with client.websocket_connect(f"/ws/rooms/{room}") as c:
            seen, code, reason = closed(c)
        assert code == 1013 and "too many open connections" in reason and seen == []
        # Another network is not affected.
        as_peer(client, "2001:db8:7:8::1")
        with client.websocket_connect("/ws/rooms/ZZ") as d:
            send(d, {"type": "hello"})
            seen, code, _ = closed(d)
        assert code == 4404  # it reached the route: no such room
        # A closed socket frees its place.
        first.close()
        as_peer(client, "2001:db8:7:7::3")
        with client.websocket_connect("/ws/rooms/ZZ") as e:
            send(e, {"type": "hello"})
            _seen, code, _ = closed(e)
        assert code == 4404


def test_messages_are_limited_per_network_too(db: Path) -> None:
    """Many connections of one network, each under its own rate: together they are
    cut at the network's."""
    limits = Limits(messages_per_second=1000.0, messages_burst=1000,
                    network_messages_per_second=0.001, network_messages_burst=6,
                    rooms_per_minute=6000.0, rooms_burst=100)
    with serve(db, limits) as client:
        new_identity(client)
        r = new_room(client)
        room_id, invite = r.json()["id"], r.json()["invite"]
        with client.websocket_connect(f"/ws/rooms/{room_id}") as a, \
                client.websocket_connect(f"/ws/rooms/{room_id}") as b:
            for ws in (a, b):
                send(ws, {"type": "hello", "invite": invite})
                until_state(ws)
            for _ in range(2):
                for ws in (a, b):
                    send(ws, {"type": "ping"})
                    assert receive(ws) == {"type": "pong"}
            send(a, {"type": "ping"})  # the network's seventh message
            seen, code, _ = closed(a)
        assert code == 1008 and seen[-1]["code"] == "too_many_messages"
        assert seen[-1]["message"].startswith("Too many messages")


# --- 4. WebSockets: identity, hello timeout ----------------------------------------------


def test_a_websocket_without_identity_is_refused(db: Path) -> None:
    """Two cookie-less sockets with the invitation took two seats (each had no
    identity, so "one seat per browser" saw two browsers)."""
    with serve(db) as client:
        new_identity(client)
        r = new_room(client)
        room_id, invite = r.json()["id"], r.json()["invite"]
        client.cookies.clear()
        for seat in ("N", "E"):
            with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
                send(ws, {"type": "hello", "invite": invite})
                send(ws, {"type": "join", "seat": seat, "name": "Ghost"})
                seen, code, reason = closed(ws)
                assert code == 4401 and "no identity cookie" in reason and seen == []
        # A cookie the server never gave (or a forged signature) is no identity.
        for value in ("A" * 32, "A" * 32 + "." + "B" * 22):
            client.cookies.set(COOKIE, value)
            with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
                _seen, code, _ = closed(ws)
                assert code == 4401
        assert [s.kind for s in room_of(client, room_id).seats] == ["open"] * 4


def test_a_silent_websocket_is_closed(db: Path) -> None:
    """A connection that never says hello is closed after hello_seconds."""
    limits = Limits(hello_seconds=0.2)
    with serve(db, limits) as client:
        new_identity(client)
        r = new_room(client)
        room_id = r.json()["id"]
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            seen, code, _ = closed(ws)
        assert code == 4408
        assert seen[-1]["fatal"] is True and seen[-1]["code"] == "no_hello"
        assert seen[-1]["message"].startswith("No hello in time")
        # A connection that says hello in time stays open afterwards.
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            send(ws, {"type": "hello", "invite": r.json()["invite"]})
            until_state(ws)
            time.sleep(0.4)
            send(ws, {"type": "ping"})
            assert receive(ws) == {"type": "pong"}


# --- 5. the signed identity cookie ------------------------------------------------------


def _set_cookie(r: httpx.Response) -> str | None:
    found = re.search(rf"{COOKIE}=([^;]+)", r.headers.get("set-cookie", ""))
    return found.group(1) if found else None


def test_the_identity_cookie_is_signed(db: Path, tmp_path: Path) -> None:
    """Any 22-64 character value was adopted as an identity."""
    with serve(db) as client:
        r = client.get("/api/session")
        value = _set_cookie(r)
        assert value is not None and re.fullmatch(r"[\w-]{22,64}\.[\w-]{22}", value)
        identity = value.split(".")[0]
        csrf = r.json()["csrf"]
        # The browser's own cookie: kept, the same CSRF token, its identity in the room.
        assert _set_cookie(client.get("/api/session")) is None
        assert client.get("/api/session").json()["csrf"] == csrf
        client.headers["X-CSRF-Token"] = csrf
        room = client.post("/api/rooms", json={}).json()
        client.post(f"/api/rooms/{room['id']}/seats",
                    json={"seat": "N", "invite": room["invite"]})
        assert room_of(client, room["id"]).seats[0].owner == identity
        # Chosen, unsigned or badly signed values are replaced by a fresh identity.
        mac = value.split(".")[1]
        last = "B" if mac.endswith("A") else "A"  # (a 64th of the signatures end in A)
        forged = ["Z" * 32, "Z" * 32 + "." + mac, identity + "." + mac[:-1] + last,
                  identity + "." + mac + "x", identity + ".." + mac, identity + ".",
                  "." + mac]
        for bad in forged:
            client.cookies.clear()
            client.cookies.set(COOKIE, bad)
            r = client.get("/api/session")
            fresh = _set_cookie(r)
            assert fresh is not None and fresh != bad and fresh.split(".")[0] != identity, bad
            assert r.json()["csrf"] != csrf
            client.cookies.set(COOKIE, bad)
            r = client.post("/api/rooms", json={}, headers={"X-CSRF-Token": csrf})
            assert r.status_code == 403, bad
        # An unsigned cookie of before the signatures whose identity holds a seat (and
        # no other) is adopted once and given back signed: players keep their seats.
        client.cookies.clear()
        client.cookies.set(COOKIE, identity)
        r = client.get("/api/session")
        assert _set_cookie(r) == value and r.json()["csrf"] == csrf
        client.cookies.clear()
        client.cookies.set(COOKIE, identity[::-1])
        other = _set_cookie(client.get("/api/session"))
        assert other is not None and other.split(".")[0] not in (identity, identity[::-1])
    # After a restart (the room asleep on disk until opened), the unsigned cookie of a
    # seated player is still his: the upgrade comes with a restart.
    with serve(db) as client:
        client.cookies.set(COOKIE, identity)
        assert _set_cookie(client.get("/api/session")) == value
    # Another server's cookie (another key) is not this one's.
    with serve(tmp_path / "other.db") as other:
        other.cookies.set(COOKIE, value)
        assert _set_cookie(other.get("/api/session")) not in (None, value)


# --- 6. secrets out of logs, and out of addresses ------------------------------------------


def test_redact_blanks_the_secrets_of_an_address() -> None:
    assert redact("/rooms/AB?invite=s3cr3t") == "/rooms/AB?invite=[redacted]"
    assert redact("/api/rooms/AB?lang=fr&invite=x&token=y") == (
        "/api/rooms/AB?lang=fr&invite=[redacted]&token=[redacted]")
    assert redact("/sheets/import?csrf_token=abc") == "/sheets/import?csrf_token=[redacted]"
    assert redact("/rooms/AB#seat=S&token=tok") == "/rooms/AB#seat=S&token=[redacted]"
    assert redact("/rooms/AB?lang=fr") == "/rooms/AB?lang=fr"
    # A sheet's share links carry their secret in the path, and again in a page's
    # language switch (?next=...).
    assert redact("/sheets/7/follow/Zx9_-a") == "/sheets/7/follow/[redacted]"
    assert redact("/sheets/12/keep/Zx9_-a?x=1") == "/sheets/12/keep/[redacted]?x=1"
    assert redact("/lang/en?next=%2Fsheets%2F7%2Ffollow%2FZx9_-a") == (
        "/lang/en?next=%2Fsheets%2F7%2Ffollow%2F[redacted]")
    assert redact("/sheets/7/hands/2/edit") == "/sheets/7/hands/2/edit"
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d', ("192.0.2.1:5", "GET",
                               "/rooms/AB?invite=s3cr3t", "1.1", 200), None)
    assert RedactSecrets().filter(record) is True
    assert "s3cr3t" not in record.getMessage() and "invite=[redacted]" in record.getMessage()


def test_the_seat_token_travels_in_a_header_not_the_address(db: Path) -> None:
    with serve(db) as client:
        new_identity(client)
        room = new_room(client).json()
        new_identity(client)
        token = client.post(f"/api/rooms/{room['id']}/seats",
                            json={"seat": "N", "invite": room["invite"]}).json()["token"]
        new_identity(client)  # a browser that holds no seat: the token alone
        url = f"/api/rooms/{room['id']}"
        assert client.get(url, headers={"X-Seat-Token": token}).status_code == 200
        assert client.get(url, headers={"X-Invite": room["invite"]}).status_code == 200
        assert client.get(url, params={"invite": room["invite"]}).status_code == 200
        assert client.get(url, params={"token": token}).status_code == 404
        assert client.get(url, headers={"X-Seat-Token": token[:-1]}).status_code == 404


def test_belote_serve_keeps_secrets_out_of_its_log(tmp_path: Path) -> None:
    """uvicorn's access log wrote every invitation and token of the addresses; and it
    believed X-Forwarded-For from a loopback peer (now off)."""
    port = free_port()
    cmd = [sys.executable, "-m", "belote", "serve", "--port", str(port), "--db",
           str(tmp_path / "s.db"), "--log-level", "info", "--rooms-per-minute", "0.1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=5) as http:
            for _ in range(300):
                try:
                    if http.get("/").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            csrf = http.get("/api/session").json()["csrf"]
            r = http.post("/api/rooms", json={}, headers={"X-CSRF-Token": csrf,
                                                          "X-Forwarded-For": "198.51.100.7"})
            assert r.status_code == 201, r.text
            invite = r.json()["invite"]
            assert http.get(f"/rooms/{r.json()['id']}?invite={invite}").status_code == 200
            http.get(f"/api/rooms/{r.json()['id']}?invite={invite}&token=t0ps3cr3t")
            # A forwarded address from a loopback peer is not another client.
            r = http.post("/api/rooms", json={}, headers={"X-CSRF-Token": csrf,
                                                          "X-Forwarded-For": "203.0.113.9"})
            assert r.status_code == 429, r.text
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    log = out.decode()
    assert "invite=[redacted]" in log, log
    assert invite not in log and "t0ps3cr3t" not in log


def test_belote_serve_bounds_a_request_head(tmp_path: Path) -> None:
    """A request whose head is over 64 KiB is refused or dropped, whichever HTTP parser
    is installed: uvicorn takes httptools when it is there, and httptools has no bound
    on a head (uvicorn's h11_max_incomplete_event_size bounds h11 only), so belote
    serve asks for h11 (web.app.uvicorn_options)."""
    import socket
    from urllib.parse import urlsplit

    def ask(port: int, head_bytes: int) -> bytes:
        filler = b"X-Filler: " + b"a" * head_bytes + b"\r\n"
        request = (b"GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n" + filler
                   + b"Connection: close\r\n\r\n")
        answer = b""
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            try:
                sock.sendall(request)
                while chunk := sock.recv(65536):
                    answer += chunk
            except (ConnectionResetError, BrokenPipeError):
                pass
        return answer

    with live_server(tmp_path / "s.db") as url:
        port = urlsplit(url).port
        assert port is not None
        assert ask(port, 1_000).startswith(b"HTTP/1.1 200 ")  # a head of 1 KB is served
        answer = ask(port, 200 * 1024)
        assert not answer.startswith(b"HTTP/1.1 200 "), answer[:200]


# --- 7. visibilities of the API -------------------------------------------------------------


def test_the_api_refuses_a_private_room(db: Path) -> None:
    """A private room opened by the API had no invitation: nobody could ever sit."""
    with serve(db) as client:
        new_identity(client)
        rooms = client.app.state.rooms.rooms  # type: ignore[attr-defined]
        for visibility in ("private", "PUBLIC", "", None, True, {"x": 1}):
            r = client.post("/api/rooms", json={"visibility": visibility})
            assert r.status_code == 400, visibility
            assert r.json()["error"].startswith(f"visibility: {visibility!r} is not invite "
                                                "or public")
        assert rooms == {}
        for visibility in ("invite", "public"):
            r = client.post("/api/rooms", json={"visibility": visibility})
            assert r.status_code == 201 and r.json()["invite"]
