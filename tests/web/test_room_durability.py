"""Issue 10: every room and table survives a restart, ``kill -9`` included.

Rooms, their seats and each game's log live in the sheets' SQLite database; a
move is written before it is acknowledged.  In-process: the app is stopped and
built again on the same database.  As a real process: ``belote serve`` is killed
with SIGKILL mid-deal (as tests/test_sheet_durability.py kills ``belote sheet
add``), started again, the players reconnect with their seat tokens, every
acknowledged move is there, and the game is played to its end, bots included.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from belote.play import SEAT_NAMES
from belote.web import RoomSettings, create_app
from belote.web.rooms import Room
from tests.web.conftest import GENEROUS
from tests.web.support import (
    TestClient,
    WebSocketTestSession,
    free_port,
    new_identity,
    receive,
    send,
)

SETTINGS = RoomSettings(bot_delay=0.0, trick_pause=0.0, deal_pause=60.0)
HUMANS = (0, 2)  # N and S; bots at E and W
State = dict[str, Any]


def choose(rng: random.Random, state: State) -> dict[str, Any]:
    deal = state["deal"]
    if deal["phase"] == "bidding":
        return {"type": "call", "call": rng.choice(deal["legal"])}
    return {"type": "play", "card": rng.choice(deal["legal"]),
            "declare": rng.random() < 0.8, "belote": rng.random() < 0.8}


def quiet_mid_deal(state: State) -> bool:
    """A human is to play, the cards of the deal half played: the table waits."""
    deal = state["deal"]
    return (not state["between_deals"] and deal is not None and deal["phase"] == "play"
            and deal["tricks"] >= 3 and SEAT_NAMES.index(deal["turn"]) in HUMANS)


def same_game(before: State, after: State) -> None:
    """The game of ``after`` is the game of ``before`` (who is connected aside)."""
    skip = {"version", "seats"}
    assert {k: v for k, v in after.items() if k not in skip} == \
        {k: v for k, v in before.items() if k not in skip}
    assert [(s["kind"], s["name"]) for s in after["seats"]] == \
        [(s["kind"], s["name"]) for s in before["seats"]]


def check_final(state: State) -> None:
    score = state["score"]
    assert state["status"] == "finished" and score["finished"]
    assert score["winner"] in ("NS", "EW")
    for team in ("NS", "EW"):
        assert score["totals"][team] == sum(h["score"][team] for h in score["hands"])


# --- in-process: the app stopped and built again ---------------------------------------


def drive(room: Room, socks: dict[int, WebSocketTestSession], rng: random.Random,
          stop: Callable[[State], bool], seen: dict[int, State] | None = None
          ) -> dict[int, State]:
    """Play the humans' turns (and ask for the next deals) until ``stop`` holds for
    the table's state at a moment the table waits for a human, or the game ends.
    ``seen``: the states the sockets have already been read to.  Answers each
    human's latest state, all at the room's version."""
    latest: dict[int, State] = dict(seen or {})

    def read_to(seat: int, version: int) -> None:
        while latest.get(seat, {}).get("version", -1) < version:
            msg = receive(socks[seat])
            assert msg["type"] != "error", msg
            if msg["type"] == "state":
                latest[seat] = msg

    for _ in range(20_000):
        version = room.version
        for seat in socks:
            read_to(seat, version)
        state = max(latest.values(), key=lambda s: int(s["version"]))
        now = state["version"]
        if state["status"] == "finished":
            return latest
        if state["between_deals"]:
            first = next(iter(socks))
            send(socks[first], {"type": "next"})
            read_to(first, now + 1)
            continue
        turn = SEAT_NAMES.index(state["deal"]["turn"])
        mine = latest.get(turn)
        if mine is not None and mine["version"] == now and mine["deal"]["legal"]:
            if all(s["version"] == now for s in latest.values()) and stop(state):
                return latest
            send(socks[turn], choose(rng, mine))
            read_to(turn, now + 1)
        else:  # a bot's turn: the next change
            read_to(next(iter(socks)), now + 1)
    raise AssertionError("the game did not end")


def take_seats(client: TestClient, target: int) -> tuple[str, str, dict[int, str]]:
    """A room with friends: two people (N, S; two browsers) and two bots, started."""
    new_identity(client)
    r = client.post("/api/rooms", json={"profile": "classic", "bots": "random",
                                        "target": target})
    assert r.status_code == 201, r.text
    room_id, invite = r.json()["id"], r.json()["invite"]
    tokens: dict[int, str] = {}
    for seat in HUMANS:
        new_identity(client)
        r = client.post(f"/api/rooms/{room_id}/seats",
                        json={"seat": SEAT_NAMES[seat], "name": f"P{seat}", "invite": invite})
        assert r.status_code == 200, r.text
        tokens[seat] = r.json()["token"]
    for bot in ("E", "W"):
        r = client.post(f"/api/rooms/{room_id}/seats",
                        json={"seat": bot, "bot": True, "token": tokens[2]})
        assert r.status_code == 200, r.text
    r = client.post(f"/api/rooms/{room_id}/start", json={"token": tokens[0]})
    assert r.status_code == 200, r.text
    return room_id, invite, tokens


@contextmanager
def seated(client: TestClient, room_id: str, tokens: dict[int, str]
           ) -> Iterator[dict[int, WebSocketTestSession]]:
    socks: dict[int, WebSocketTestSession] = {}
    try:
        for seat, token in tokens.items():
            ws = client.websocket_connect(f"/ws/rooms/{room_id}")
            ws.__enter__()
            socks[seat] = ws
            send(ws, {"type": "hello", "token": token})
            assert receive(ws) == {"type": "welcome", "seat": SEAT_NAMES[seat]}
        yield socks
    finally:
        for ws in socks.values():
            ws.__exit__(None, None, None)


def test_a_room_comes_back_after_the_app_restarts(db: Path) -> None:
    rng = random.Random(2024)
    app = create_app(db, settings=SETTINGS, seed=5, limits=GENEROUS)
    with TestClient(app) as client:
        room_id, invite, tokens = take_seats(client, 300)
        room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
        with seated(client, room_id, tokens) as socks:
            latest = drive(room, socks, rng, quiet_mid_deal)
        assert quiet_mid_deal(latest[0])
        before = {seat: room.state_for(seat) for seat in (*HUMANS, None)}
        assert before[0]["deal"] == latest[0]["deal"] and before[2]["deal"] == latest[2]["deal"]
        actions, seq = room.actions, room.seq
    # A new app on the same database: the room is back, its game where it was.
    app = create_app(db, settings=SETTINGS, seed=5, limits=GENEROUS)
    with TestClient(app) as client:
        room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
        assert room.invite == invite and room.actions == actions and room.seq == seq
        assert [s.kind for s in room.seats] == ["human", "bot", "human", "bot"]
        assert all(room.seat_of_token(tokens[seat]) == seat for seat in HUMANS)
        for seat in (*HUMANS, None):
            same_game(before[seat], room.state_for(seat))
        # Nobody is back yet: both humans are away (within their grace).
        assert [s["away"] for s in room.state_for(None)["seats"]] == [True, False, True, False]
        new_identity(client)
        r = client.get(f"/api/rooms/{room_id}?invite={invite}")
        assert r.status_code == 200
        same_game(before[None], r.json())
        # They come back with their tokens and play the game to its end.
        with seated(client, room_id, tokens) as socks:
            first = {seat: receive(ws) for seat, ws in socks.items()}
            for seat in HUMANS:
                assert first[seat]["type"] == "state"
                assert first[seat]["deal"] == before[seat]["deal"]
            latest = drive(room, socks, rng, lambda s: False, first)
        check_final(latest[0])
        assert room.actions > actions + 30 and len(latest[0]["score"]["hands"]) >= 2
        assert latest[0]["score"]["hands"] == latest[2]["score"]["hands"]
    # Finished, it is still there after one more restart (and says so).
    app = create_app(db, settings=SETTINGS, seed=5, limits=GENEROUS)
    with TestClient(app) as client:
        room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
        assert room.status == "finished"


def test_a_room_that_nobody_visits_is_closed_and_says_so(db: Path) -> None:
    settings = RoomSettings(bot_delay=0.0, trick_pause=0.0, deal_pause=60.0, idle_ttl=60.0)
    app = create_app(db, settings=settings, seed=5, limits=GENEROUS)
    with TestClient(app) as client:
        room_id, invite, tokens = take_seats(client, 300)
        manager = client.app.state.rooms  # type: ignore[attr-defined]
        room = manager.get(room_id)
        assert client.portal is not None
        closed = client.portal.call(manager.sweep, time.time() + 30)
        assert closed == 0
        closed = client.portal.call(manager.sweep, room.touched + 61)
        assert closed == 1 and room_id not in manager.rooms
        r = client.get(f"/api/rooms/{room_id}?invite={invite}")
        assert r.status_code == 404
        assert "closed" in r.json()["error"] and "nobody visited it" in r.json()["error"]
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            send(ws, {"type": "hello", "token": tokens[0]})
            msg = receive(ws)
            assert msg["fatal"] is True and "nobody visited it" in msg["message"]
    # Closed for good: not restored after a restart.
    app = create_app(db, settings=settings, seed=5, limits=GENEROUS)
    with TestClient(app) as client:
        new_identity(client)
        assert room_id not in client.app.state.rooms.rooms  # type: ignore[attr-defined]
        r = client.get(f"/rooms/{room_id}?invite={invite}")
        assert r.status_code == 404 and "nobody visited it" in r.text


def test_a_move_that_cannot_be_saved_is_not_acknowledged(db: Path) -> None:
    """The database turns read-only while a game is played: the player's card is
    refused with a plain error (not acknowledged, not played), and once the
    database can be written again the same card is played."""
    app = create_app(db, settings=SETTINGS, seed=5, limits=GENEROUS)
    with TestClient(app, raise_server_exceptions=False) as client:
        room_id, _invite, tokens = take_seats(client, 300)
        room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
        with seated(client, room_id, tokens) as socks:
            latest = drive(room, socks, random.Random(1), quiet_mid_deal)
            turn = SEAT_NAMES.index(latest[0]["deal"]["turn"])
            mine = latest[turn]
            card = mine["deal"]["legal"][0]
            actions, seq = room.actions, room.seq
            assert room.store is not None
            conn: sqlite3.Connection = room.store.writer._conn  # the writer thread's
            conn.execute("PRAGMA query_only = 1")
            try:
                send(socks[turn], {"type": "play", "card": card})
                msg = receive(socks[turn])
                while msg["type"] == "state" and msg["error"] is None:
                    msg = receive(socks[turn])
                text = msg["message"] if msg["type"] == "error" else msg["error"]
                assert "could not be saved" in text
                assert room.actions == actions and room.seq == seq
                assert room.round is not None and room.round.current_player() == turn
                assert card in room.state_for(turn)["deal"]["hand"]
                # Creating a room meanwhile: a 4xx or 503 with a message, not a 500.
                new_identity(client)
                r = client.post("/api/rooms", json={})
                assert r.status_code in (409, 422, 503), r.text
                assert "error" in r.json()
            finally:
                conn.execute("PRAGMA query_only = 0")
            send(socks[turn], {"type": "play", "card": card})
            for _ in range(1000):
                msg = receive(socks[turn])
                if msg["type"] == "state" and msg["actions"] > actions:
                    break
            assert room.actions > actions
            log = room.store.log(room_id)
            assert log[seq][1] == "action" and log[seq][2]["card"] == card


# --- a real server, killed with SIGKILL --------------------------------------------------


class Server:
    """``belote serve`` on a free loopback port, over ``db``."""

    def __init__(self, db: Path) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "belote", "serve", "--port", str(port), "--db", str(db),
             "--log-level", "warning", "--bot-delay", "0", "--trick-pause", "0",
             "--deal-pause", "0", "--seed", "7"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise AssertionError(f"belote serve exited {self.proc.returncode}: {out}")
            try:
                if httpx.get(self.url + "/", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "belote serve did not answer within 30 s"
            time.sleep(0.05)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        assert self.proc.returncode == -signal.SIGKILL
        if self.proc.stdout:
            self.proc.stdout.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


class Person:
    """A browser (its cookie jar and CSRF token) and, once seated, its WebSocket."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=10)
        r = self.http.get("/api/session")
        assert r.status_code == 200, r.text
        self.http.headers["X-CSRF-Token"] = r.json()["csrf"]
        self.ws: ClientConnection | None = None
        self.seat = -1
        self.token = ""
        self.latest: State = {}

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = self.http.post(path, json=body)
        assert r.status_code in (200, 201), (path, r.status_code, r.text)
        answer: dict[str, Any] = r.json()
        return answer

    def connect(self, server: Server, room_id: str) -> State:
        """The WebSocket, hello with the seat's token: the first state."""
        cookie = {"Cookie": f"belote_id={self.http.cookies['belote_id']}"}  # as a browser
        self.ws = connect(f"{server.ws_url}/ws/rooms/{room_id}", open_timeout=10,
                          additional_headers=cookie).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        welcome = json.loads(self.ws.recv(timeout=10))
        assert welcome == {"type": "welcome", "seat": SEAT_NAMES[self.seat]}, welcome
        self.latest = {}
        self.read(10.0)
        return self.latest

    def read(self, timeout: float) -> None:
        """The messages that came: the first within ``timeout``, then those already there."""
        assert self.ws is not None
        wait = timeout
        while True:
            try:
                text = self.ws.recv(timeout=wait)
            except TimeoutError:
                return
            wait = 0.0
            msg = json.loads(text)
            # "next" may come after the server dealt on by itself (--deal-pause 0).
            assert msg["type"] != "error" or msg["message"] == "the deal is not over", msg
            if msg["type"] == "state":
                self.latest = msg

    def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(msg))

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None


def play_live(people: list[Person], rng: random.Random,
              stop: Callable[[State, Person | None], bool]) -> tuple[State, Person | None]:
    """Play the people's turns until ``stop(state, who_just_acted)`` or the end of the
    game.  ``stop`` is asked at each quiet moment (``who_just_acted`` None) and
    right after each acknowledged move of a person (that person); answers the
    state and who acted."""
    acted: set[int] = set()
    for _ in range(50_000):
        for p in people:
            p.read(0.0)
        state = max((p.latest for p in people), key=lambda s: int(s["version"]))
        now = int(state["version"])
        if state["status"] == "finished":
            return state, None
        quiet = all(p.latest["version"] == now for p in people)
        if state["between_deals"]:
            if now not in acted:
                acted.add(now)
                people[0].send({"type": "next"})
            people[0].read(0.05)
            continue
        turn = SEAT_NAMES.index(state["deal"]["turn"])
        who = next((p for p in people if p.seat == turn), None)
        if who is None or not quiet or not who.latest["deal"]["legal"]:
            people[0].read(0.05)  # a bot's turn, or a state on its way
            continue
        time.sleep(0.02)  # nothing changes while a person is to play: check it
        for p in people:
            p.read(0.0)
        if any(p.latest["version"] != now for p in people):
            continue
        if stop(state, None):
            return state, None
        if now in acted:
            people[0].read(0.05)
            continue
        acted.add(now)
        who.send(choose(rng, who.latest))
        deadline = time.monotonic() + 10
        while who.latest["version"] == now:  # the move acknowledged: a new state
            assert time.monotonic() < deadline, "the move was never acknowledged"
            who.read(1.0)
        if stop(who.latest, who):
            return who.latest, who
    raise AssertionError("the game did not end")


def cards_on_table(deal: State) -> list[str]:
    """The cards of the current trick, or of the last one when none is led yet."""
    return [c["card"] for c in deal["trick"]["cards"]]


def test_belote_serve_killed_mid_deal_loses_no_acknowledged_move(tmp_path: Path) -> None:
    """Two people (N, S) and two bots; ``belote serve`` is killed with SIGKILL
    twice mid-deal: once while the table waits for a person (the state after the
    restart is the state before, to the card), once right after a person's card
    was acknowledged (the card is still played).  Then the game is finished."""
    db = tmp_path / "sheets.db"
    rng = random.Random(77)
    server = Server(db)
    people: list[Person] = []
    try:
        host, guest = Person(server.url), Person(server.url)
        people = [host, guest]
        room = host.post("/api/rooms", {"profile": "classic", "bots": "random",
                                        "target": 400})
        room_id, invite = room["id"], room["invite"]
        for person, seat in ((host, 0), (guest, 2)):
            answer = person.post(f"/api/rooms/{room_id}/seats",
                                 {"seat": SEAT_NAMES[seat], "name": f"P{seat}",
                                  "invite": invite})
            person.seat, person.token = seat, answer["token"]
        for bot in ("E", "W"):
            host.post(f"/api/rooms/{room_id}/seats",
                      {"seat": bot, "bot": True, "token": host.token})
        host.post(f"/api/rooms/{room_id}/start", {"token": host.token})
        for p in people:
            p.connect(server, room_id)

        # 1. Killed while the table waits for a person, cards half played.
        play_live(people, rng, lambda s, who: who is None and quiet_mid_deal(s))
        before = {p.seat: p.latest for p in people}
        server.kill()
        for p in people:
            p.close()
        server = Server(db)
        after = {p.seat: p.connect(server, room_id) for p in people}
        for seat in HUMANS:
            assert after[seat]["deal"] == before[seat]["deal"]
            assert after[seat]["score"] == before[seat]["score"]
            assert after[seat]["actions"] == before[seat]["actions"]

        # 2. Killed right after a person's card is acknowledged (bots may be playing).
        def just_played(state: State, who: Person | None) -> bool:
            deal = state["deal"]
            return (who is not None and deal is not None and not state["between_deals"]
                    and deal["phase"] == "play" and deal["tricks"] < 7
                    and bool(deal["trick"]["cards"]))

        acked, mover = play_live(people, rng, just_played)
        assert mover is not None and acked["status"] == "playing"
        assert SEAT_NAMES[mover.seat] in [c["seat"] for c in acked["deal"]["trick"]["cards"]]
        server.kill()
        for p in people:
            p.close()
        server = Server(db)
        back = mover.connect(server, room_id)
        deal, was = back["deal"], acked["deal"]
        assert deal["number"] == was["number"] and deal["calls"] == was["calls"]
        assert deal["hand"] == was["hand"]  # the card did not come back to the hand
        assert back["actions"] >= acked["actions"]
        played = [c["card"] for c in deal["trick"]["cards"]]
        if deal["tricks"] == was["tricks"]:
            assert played[:len(was["trick"]["cards"])] == cards_on_table(was)
        else:
            assert deal["tricks"] == was["tricks"] + 1
            last = [c["card"] for c in deal["last_trick"]["cards"]]
            assert last[:len(was["trick"]["cards"])] == cards_on_table(was)
        for p in people:
            if p is not mover:
                p.connect(server, room_id)

        # 3. The game goes on to its end, bots included.
        final, _ = play_live(people, rng, lambda s, who: False)
        for p in people:
            p.read(0.3)
        check_final(final)
        assert all(p.latest["status"] == "finished" for p in people)
        assert len(final["score"]["hands"]) >= 2
    finally:
        for p in people:
            p.close()
            p.http.close()
        server.stop()
