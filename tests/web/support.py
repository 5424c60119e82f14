"""Helpers of the web tests: a WebSocket reader with a deadline, a room driven by
the test, and a server started on a free loopback port."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self, TypeVar
from urllib.parse import urljoin

import anyio
import httpx

with warnings.catch_warnings():
    # starlette asks for httpx2; httpx is what the project declares.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient as _StarletteClient
    from starlette.testclient import WebSocketTestSession as WebSocketTestSession

from belote.cards import card_name, scan_forward
from belote.play import SEAT_NAMES
from belote.round import Round
from belote.web.rooms import Room

# The name the test clients ask for: a loopback name the server answers to by
# default (Starlette's own "testserver" is refused, as any unknown Host is).
HOST = "localhost"
ORIGIN = f"http://{HOST}"


class TestClient(_StarletteClient):
    """Starlette's TestClient asking for :data:`HOST` (``Host: localhost``)."""

    __test__ = False  # not a test class for pytest

    def __init__(self, app: Any, base_url: str = ORIGIN, **kwargs: Any) -> None:
        super().__init__(app, base_url=base_url, **kwargs)

    def websocket_connect(self, url: str, subprotocols: Any = None, **kwargs: Any
                          ) -> WebSocketTestSession:
        """As Starlette's, to the client's own host (:data:`HOST` by default) in
        place of its fixed ``ws://testserver``."""
        base = str(self.base_url).replace("http", "ws", 1)
        return super().websocket_connect(urljoin(base, url), subprotocols, **kwargs)


CARD_IN_JSON = re.compile(r'"([789TJQKA][SHDC])"')
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]



T = TypeVar("T")


def run_async(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run`` in a thread of its own (whatever loop this thread may hold)."""
    out: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            out.append(asyncio.run(main()))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return out[0]


def receive(ws: WebSocketTestSession, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of ``ws`` as JSON; fails instead of waiting forever."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    obj = json.loads(message["text"])
    assert isinstance(obj, dict)
    return obj


def send(ws: WebSocketTestSession, obj: dict[str, Any]) -> None:
    ws.send_text(json.dumps(obj))


def until_state(
    ws: WebSocketTestSession, version: int | None = None, seen: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Read messages until a state at ``version`` (any state when None); every
    message read is appended to ``seen``."""
    for _ in range(10_000):
        msg = receive(ws)
        if seen is not None:
            seen.append(msg)
        if msg["type"] == "state" and (version is None or msg["version"] >= version):
            return msg
    raise AssertionError("no state message came")


def cards_in(msg: dict[str, Any]) -> set[str]:
    """Every card name anywhere in a message (cards travel as JSON strings)."""
    return set(CARD_IN_JSON.findall(json.dumps(msg)))


def hidden_from(rnd: Round, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may not see now: the cards in the
    other seats' hands, except the turned card (it goes to the taker in sight of
    all, docs/rules.md §3.4) and the declarations shown at trick 2 (§7.6)."""
    view = rnd.view(0 if seat is None else seat)
    hands = [rnd.hand(s) for s in range(rnd.players)]
    hidden: set[str] = set()
    for other in range(4):
        if other != seat:
            hidden |= {card_name(c) for c in scan_forward(hands[other])}
    if rnd.turned is not None:
        hidden.discard(card_name(rnd.turned))
    for shown in view.shown:
        for d in shown:
            hidden -= set(d.card_names())
    return hidden


def new_identity(client: TestClient) -> str:
    """Act as a new browser: a fresh identity cookie, and its CSRF token sent with
    every request (as the pages' forms and scripts do); answers the token."""
    client.cookies.clear()
    r = client.get("/api/session")
    assert r.status_code == 200, r.text
    token: str = r.json()["csrf"]
    client.headers["X-CSRF-Token"] = token
    return token


def new_sheet(client: TestClient, **fields: str) -> str:
    """Open a classic score sheet "Friday" (Us against Them) through the web form, with
    ``fields`` overriding the form's; its page's path."""
    data = {"name": "Friday", "profile": "classic", "target": "", "team_ns": "Us",
            "team_ew": "Them", **fields}
    r = client.post("/sheets", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    location: str = r.headers["location"]
    assert re.fullmatch(r"/sheets/\d+", location)
    return location


def add_hand(client: TestClient, sheet: str, **fields: str) -> Any:
    """Post the hand form of a sheet (no redirect followed)."""
    return client.post(sheet + "/hands", data=fields, follow_redirects=False)


def sheet_state(client: TestClient, sheet: str) -> dict[str, Any]:
    """The sheet's JSON (``GET /api/sheets/ID``)."""
    state: dict[str, Any] = client.get("/api" + sheet).json()
    return state


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def live_server(db: Path, *extra: str) -> Iterator[str]:
    """``belote serve`` (the real command) on a free loopback port; yields its URL."""
    port = free_port()
    cmd = [sys.executable, "-m", "belote", "serve", "--port", str(port), "--db", str(db),
           "--log-level", "warning", *extra]
    env = dict(os.environ)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read().decode() if proc.stdout else ""
                raise AssertionError(f"belote serve exited {proc.returncode}: {out}")
            try:
                if httpx.get(url + "/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("belote serve did not answer within 30 s")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()


class Table:
    """A room whose seats (four, three or two) are all held by the test over WebSockets.

    With no bot at the table nothing moves unless the test acts, so after each
    action every socket is read up to the room's version: the messages of each
    seat are then exactly the states of the game as it stands (``seen``)."""

    def __init__(self, client: TestClient, profile: str = "classic",
                 target: int | None = None, options: dict[str, Any] | None = None) -> None:
        body: dict[str, Any] = {"profile": profile, "bots": "random"}
        if target is not None:
            body["target"] = target
        if options:
            body["options"] = options
        r = client.post("/api/rooms", json=body)
        assert r.status_code == 201, r.text
        self.id: str = r.json()["id"]
        self.invite: str = r.json()["invite"]
        self.room: Room = client.app.state.rooms.get(self.id)  # type: ignore[attr-defined]
        self.n = self.room.players
        self.tokens: list[str] = []
        for seat in SEAT_NAMES[:self.n]:
            new_identity(client)  # one seat per browser
            r = client.post(f"/api/rooms/{self.id}/seats",
                            json={"seat": seat, "name": "P", "invite": self.invite})
            assert r.status_code == 200, r.text
            self.tokens.append(r.json()["token"])
        self.client = client
        self.sockets: list[WebSocketTestSession] = []
        self.seen: list[list[dict[str, Any]]] = [[] for _ in range(self.n)]
        self.latest: list[dict[str, Any]] = [{} for _ in range(self.n)]

    def __enter__(self) -> Self:
        for seat in range(self.n):
            ws = self.client.websocket_connect(f"/ws/rooms/{self.id}")
            ws.__enter__()
            self.sockets.append(ws)
            send(ws, {"type": "hello", "token": self.tokens[seat]})
            self._read(seat, lambda m: m["type"] == "welcome")
            self._read(seat, lambda m: m["type"] == "state")
        self.sync()
        return self

    def __exit__(self, *exc: object) -> None:
        for ws in self.sockets:
            ws.__exit__(None, None, None)

    def _read(self, seat: int, stop: Any) -> dict[str, Any]:
        for _ in range(10_000):
            msg = receive(self.sockets[seat])
            self.seen[seat].append(msg)
            if msg["type"] == "state":
                self.latest[seat] = msg
            if stop(msg):
                return msg
        raise AssertionError("the awaited message never came")  # pragma: no cover

    def sync(self) -> list[dict[str, Any]]:
        """Read every socket up to the room's current version; the latest states."""
        version = self.room.version
        for seat in range(self.n):
            if self.latest[seat].get("version", -1) < version:
                self._read(seat, lambda m: m["type"] == "state" and m["version"] >= version)
        return list(self.latest)

    def act(self, seat: int, msg: dict[str, Any]) -> dict[str, Any]:
        """Send ``msg`` from ``seat``; its answer (an error, or the new state), all synced."""
        before = self.room.version
        send(self.sockets[seat], msg)
        answer = self._read(seat, lambda m: m["type"] == "error" or (
            m["type"] == "state" and m["version"] > before))
        self.sync()
        return answer

    def start(self) -> list[dict[str, Any]]:
        return [self.act(0, {"type": "start"}), *self.sync()[1:]]

    def to_illegal_card(self, rng: random.Random) -> tuple[int, str]:
        """Play on (legal moves) to a seat holding a card it may not play: (seat, card)."""
        for _ in range(2000):
            states = self.latest
            if states[0]["between_deals"]:
                self.act(0, {"type": "next"})
                continue
            turn = SEAT_NAMES.index(states[0]["deal"]["turn"])
            mine = states[turn]["deal"]
            illegal = [c for c in mine["hand"] if c not in mine["legal"]]
            if mine["phase"] == "play" and illegal:
                return turn, illegal[0]
            choice: dict[str, Any]
            if mine["phase"] == "bidding":
                choice = {"type": "call", "call": rng.choice(mine["legal"])}
            else:
                choice = {"type": "play", "card": rng.choice(mine["legal"])}
            self.act(turn, choice)
        raise AssertionError("no illegal card came up")  # pragma: no cover


# A browser test's wait for any one thing (a page, a selector, a function).
WAIT_MS = 20_000
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}


def open_page(browser: Any, errors: list[str], *, viewport: dict[str, int] = DESKTOP,
              locale: str = "en-US", console: tuple[int, ...] | None = None,
              wait_ms: int = WAIT_MS, **context: Any) -> Any:
    """A page in a browser context of its own (``viewport``, ``locale`` and any other of
    Playwright's context settings), waiting ``wait_ms`` for anything, its script errors
    put in ``errors``.  With ``console`` (HTTP statuses, possibly none) the console's
    errors go there too, but for failed loads of those statuses: answers the test asks
    for on purpose (a form refused with 422, a stranger's 404)."""
    page = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=1,
                               **context).new_page()
    page.set_default_timeout(wait_ms)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if console is not None:
        expected = tuple(f"status of {status}" for status in console)

        def _console(msg: Any) -> None:
            if msg.type == "error" and not any(e in msg.text for e in expected):
                errors.append(msg.text)

        page.on("console", _console)
    return page


# What sticks out of the screen: the page's width, the screen's, the first culprits.
OVERFLOW = """() => {
  const w = window.innerWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 0.5 && !el.closest(".table-wrap")) {
      out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}`);
    }
  }
  return [document.documentElement.scrollWidth, w, out.slice(0, 5)];
}"""


def no_sideways_scroll(page: Any, what: str) -> None:
    """Nothing on ``page`` sticks out past the screen's right edge (``what`` names the
    page in the failure, with the first culprits)."""
    scroll_width, width, culprits = page.evaluate(OVERFLOW)
    assert scroll_width <= width, f"{what}: {scroll_width} px wide at {width}: {culprits}"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), what


def wait_my_turn_or_result(page: Any) -> None:
    """In a browser page of a table: until it is our turn or the deal's result shows."""
    page.wait_for_function(
        "() => { const r = document.getElementById('room');"
        " return r.dataset.myturn === '1' || !document.getElementById('result').hidden; }")
