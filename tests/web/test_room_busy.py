"""Another program holds the database's write lock (``belote sheet add`` from a
script, a backup): the server goes on answering.

A subprocess opens the file, takes the write lock (``BEGIN IMMEDIATE``) and keeps
it until it is told to let go.  Meanwhile every page answers at its usual speed
(in WAL mode a reader never waits, and the event loop never waits for the lock:
it tries it once and otherwise hands the write to the writer thread), a move is
refused within a second with a plain message in the player's language, the game
unchanged, and a sheet's hand is refused with a 503, nothing written.  Once the
lock is let go the same move is played; after a restart everything acknowledged
is there and nothing refused.  The room writer's own behaviour (moves grouped in
one commit, one refused write not taking the others with it) is tested last.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from belote.errors import BeloteError, Refusal
from belote.play import SEAT_NAMES
from belote.web import create_app
from belote.web.refusals import say_refusal
from belote.web.rooms import Room
from belote.web.store import BUSY_MESSAGE, RoomStore, SeatRow, StoreBusy, StoreError
from tests.web.conftest import GENEROUS
from tests.web.support import (
    TestClient,
    WebSocketTestSession,
    add_hand,
    new_identity,
    new_sheet,
    receive,
    send,
    sheet_state,
)
from tests.web.test_room_durability import (
    SETTINGS,
    drive,
    quiet_mid_deal,
    same_game,
    seated,
    take_seats,
)

# A page answers within this while the lock is held (it takes a few ms; the margin is
# for a shared, noisy machine).  Without the change a page that touches the room waits
# for SQLite's 5 s busy timeout.
PAGE_S = 0.2
# A move is refused within this (the writer waits 0.5 s for the lock).
MOVE_S = 1.0
# A sheet's hand is refused within about this (the web waits 0.5 s for the lock).
SHEET_S = 1.5

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
conn.close()
print("released", flush=True)
"""


@contextmanager
def write_lock_held(db: Path) -> Iterator[None]:
    """Another process holds the database's write lock until the block ends."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "locked"
        yield
    finally:
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "released"
        proc.wait(timeout=10)
        proc.stdin.close()
        proc.stdout.close()


def timed_get(client: TestClient, path: str) -> tuple[float, Any]:
    start = time.perf_counter()
    r = client.get(path)
    return time.perf_counter() - start, r


def error_after(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next error message of ``ws`` (states before it skipped)."""
    for _ in range(100):
        msg = receive(ws)
        if msg["type"] == "error":
            return msg
    raise AssertionError("no error came")


def test_the_server_answers_while_another_program_holds_the_database(db: Path) -> None:
    app = create_app(db, settings=SETTINGS, seed=5, limits=GENEROUS)
    with TestClient(app) as client:
        room_id, invite, tokens = take_seats(client, 300)
        room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
        sheet = new_sheet(client)
        owner = dict(client.cookies), client.headers["X-CSRF-Token"]  # the sheet's
        pages = [f"/rooms/{room_id}?invite={invite}", "/rooms", "/sheets", sheet,
                 f"/api/rooms/{room_id}?invite={invite}"]
        for path in pages:  # the templates compiled, as on a running server
            assert client.get(path).status_code == 200, path
        with seated(client, room_id, tokens) as socks:
            latest = drive(room, socks, random.Random(3), quiet_mid_deal)
            turn = SEAT_NAMES.index(latest[0]["deal"]["turn"])
            card = latest[turn]["deal"]["legal"][0]
            actions, seq = room.actions, room.seq
            before = {seat: room.state_for(seat) for seat in (*tokens, None)}
            with client.websocket_connect(f"/ws/rooms/{room_id}",
                                          headers={"Accept-Language": "fr"}) as french:
                send(french, {"type": "hello", "token": tokens[turn]})
                assert receive(french)["type"] == "welcome"
                assert receive(french)["type"] == "state"

                with write_lock_held(db):
                    # (a) Every page at its usual speed; a visit that saves the room's
                    # "touched" time does not wait for it either.
                    room._saved_touch -= 120
                    for path in pages:
                        took, r = timed_get(client, path)
                        assert r.status_code == 200, (path, r.text)
                        assert took < PAGE_S, (path, took)
                    # (b) The move is refused within a second, in the player's language,
                    # the game as it was.
                    start = time.perf_counter()
                    send(french, {"type": "play", "card": card})
                    msg = error_after(french)
                    took = time.perf_counter() - start
                    assert took < MOVE_S, took
                    assert msg["message"] == say_refusal("fr", StoreBusy.refused(
                        Refusal.GAME_NOT_SAVED)) and msg["code"] == "game_not_saved"
                    assert msg["message"].startswith("La partie n'a pas pu être enregistrée")
                    assert room.actions == actions and room.seq == seq
                    for seat in (*tokens, None):
                        same_game(before[seat], room.state_for(seat))
                    # Two messages for the room while the lock is held: one after the
                    # other, each refused, nothing half-done.
                    start = time.perf_counter()
                    send(socks[turn], {"type": "play", "card": card})
                    send(socks[turn], {"type": "play", "card": card})
                    for _ in range(2):
                        assert error_after(socks[turn])["message"] == say_refusal(
                            "en", StoreBusy.refused(Refusal.GAME_NOT_SAVED))
                    assert time.perf_counter() - start < 2 * MOVE_S
                    assert room.actions == actions and room.seq == seq
                    # (c) A sheet's hand: 503 within about a second, nothing written.
                    start = time.perf_counter()
                    r = add_hand(client, sheet, taker="NS", points_team="NS", points="100")
                    took = time.perf_counter() - start
                    assert r.status_code == 503, r.text
                    assert took < SHEET_S, took
                    assert say_refusal("en", BeloteError.refused(Refusal.SHEETS_BUSY)) in (
                        html.unescape(r.text))
                    assert sheet_state(client, sheet)["hands"] == []
                    # A new room: refused plainly, none made.
                    new_identity(client)
                    count = len(client.app.state.rooms.rooms)  # type: ignore[attr-defined]
                    r = client.post("/api/rooms", json={})
                    assert r.status_code == 503 and "database is busy" in r.json()["error"]
                    assert len(client.app.state.rooms.rooms) == count  # type: ignore[attr-defined]

            # (d) Let go: the same move is played, and sent twice at once only once.
            assert sqlite3.connect(db).execute(
                "SELECT COUNT(*) FROM room_log WHERE room = ?", (room_id,)).fetchone()[0] == seq
            send(socks[turn], {"type": "play", "card": card})
            send(socks[turn], {"type": "play", "card": card})
            refused = error_after(socks[turn])  # the second: the card is gone
            assert "could not be saved" not in refused["message"]
            assert room.actions >= actions + 1
            log = room.store.log(room_id) if room.store is not None else []
            assert log[seq][1] == "action" and log[seq][2]["card"] == card
            assert [e for e in log[seq:] if e[2].get("card") == card] == [log[seq]]
            client.cookies.clear()
            client.cookies.update(owner[0])  # the sheet's owner again
            client.headers["X-CSRF-Token"] = owner[1]
            r = add_hand(client, sheet, taker="NS", points_team="NS", points="100")
            assert r.status_code == 303, r.text
            acked = room.actions
    # After a restart: what was acknowledged, nothing refused.
    app = create_app(db, settings=SETTINGS, seed=5, limits=GENEROUS)
    with TestClient(app) as client:
        room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
        assert room.actions == acked
        log = room.store.log(room_id) if room.store is not None else []
        assert [e for e in log if e[2].get("card") == card] == [log[seq]]
        client.cookies.update(owner[0])  # the sheet's owner (his cookie outlives a restart)
        assert len(sheet_state(client, sheet)["hands"]) == 1


def test_a_sheet_page_opens_its_store_without_a_lock(db: Path) -> None:
    """The sheets are set up once at start; a request's store opens a connection
    only (no journal mode, no schema check), so a page is not held by a writer."""
    app = create_app(db, settings=SETTINGS, seed=5, limits=GENEROUS)
    with TestClient(app) as client:
        new_identity(client)
        sheet = new_sheet(client)
        access = client.app.state.sheets  # type: ignore[attr-defined]
        statements: list[str] = []
        with access.open() as store:
            store._conn.set_trace_callback(statements.append)
            store.state(int(sheet.rsplit("/", 1)[1]))
        assert not [s for s in statements if "journal_mode" in s or "user_version" in s
                    or "IMMEDIATE" in s]
        assert access.timeout <= 0.5


# --- the room writer -----------------------------------------------------------------


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_waiting_writes_are_committed_together(tmp_path: Path) -> None:
    """Writes queued while the writer is busy go in one transaction."""
    store = RoomStore(tmp_path / "rooms.db")
    gate = threading.Event()

    async def scenario() -> None:
        stuck = store.writer.submit(lambda conn: gate.wait(10))
        await asyncio.sleep(0.05)
        commits = store.writer.commits
        writes = [asyncio.ensure_future(store.append(f"r{i}", 1, "start", {}))
                  for i in range(200)]
        await asyncio.sleep(0.05)
        gate.set()
        await stuck
        await asyncio.gather(*writes)
        assert store.writer.commits - commits == 2  # the stuck one, then the 200 together

    try:
        run(scenario())
        assert len(store.log("r7")) == 1
    finally:
        store.close()


def test_the_writes_of_one_tick_are_handed_to_the_writer_together(tmp_path: Path) -> None:
    """The event loop wakes the writer thread once a tick, not once a write (a switch
    of threads each on a busy machine), and its answers come back together, in order."""
    store = RoomStore(tmp_path / "rooms.db")
    gate = threading.Event()

    async def scenario() -> None:
        stuck = store.writer.submit(lambda conn: gate.wait(10))
        await asyncio.sleep(0.05)
        writes = [asyncio.ensure_future(store.append(f"r{i}", 1, "start", {}))
                  for i in range(20)]
        await asyncio.sleep(0)  # (the appends queue their writes)
        assert store.writer._tick and store.writer._queue.qsize() == 0
        await asyncio.sleep(0)  # the end of the tick
        assert not store.writer._tick and store.writer._queue.qsize() == 1
        gate.set()
        await stuck
        await asyncio.gather(*writes)

    try:
        run(scenario())
        assert all(len(store.log(f"r{i}")) == 1 for i in range(20))
    finally:
        store.close()


def test_a_write_from_another_thread_is_handed_over_at_once(tmp_path: Path) -> None:
    store = RoomStore(tmp_path / "rooms.db")
    try:
        done = threading.Event()
        thread = threading.Thread(target=lambda: store.writer.post(lambda conn: done.set()))
        thread.start()
        thread.join()
        assert done.wait(10)
    finally:
        store.close()


def test_a_refused_write_does_not_take_the_others_with_it(tmp_path: Path) -> None:
    store = RoomStore(tmp_path / "rooms.db")
    gate = threading.Event()

    async def scenario() -> None:
        await store.append("r", 1, "start", {})
        stuck = store.writer.submit(lambda conn: gate.wait(10))
        await asyncio.sleep(0.05)
        again = asyncio.ensure_future(store.append("r", 1, "start", {}))  # seq 1 is taken
        other = asyncio.ensure_future(store.append("r", 2, "deal", {"dealer": "N"}))
        await asyncio.sleep(0.05)
        gate.set()
        await stuck
        with pytest.raises(StoreError, match="could not be saved"):
            await again
        await other

    try:
        run(scenario())
        assert [e[1] for e in store.log("r")] == ["start", "deal"]
    finally:
        store.close()


def test_a_write_waits_half_a_second_for_another_process(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    store = RoomStore(db)

    async def scenario() -> float:
        start = time.perf_counter()
        with pytest.raises(StoreBusy) as caught:
            await store.put_seats("r", [SeatRow(0, "human", "Ann", "t", None, 3)])
        assert str(caught.value) == BUSY_MESSAGE
        return time.perf_counter() - start

    try:
        with write_lock_held(db):
            took = run(scenario())
        assert 0.4 < took < MOVE_S, took
        assert store.seats("r") == []
        run(store.put_seats("r", [SeatRow(0, "human", "Ann", "t", None, 3)]))
        assert store.seats("r") == [SeatRow(0, "human", "Ann", "t", None, 3)]
    finally:
        store.close()


def test_an_older_database_gains_the_seats_secret(tmp_path: Path) -> None:
    """A file made before ``secret_until`` was kept: the column is added (0: nothing
    hidden), its seats read as before."""
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    conn.execute("""CREATE TABLE room_seats (room TEXT NOT NULL, seat INTEGER NOT NULL,
                    kind TEXT NOT NULL, name TEXT NOT NULL, token TEXT, owner TEXT,
                    PRIMARY KEY (room, seat))""")
    conn.execute("INSERT INTO room_seats VALUES ('r', 1, 'human', 'Bob', 'tok', 'me')")
    conn.commit()
    conn.close()
    store = RoomStore(db)
    try:
        assert store.seats("r") == [SeatRow(1, "human", "Bob", "tok", "me", 0)]
    finally:
        store.close()
    RoomStore(db).close()  # once added, opened again as it is


class GatedStore:
    """A store whose writes wait for the test: each is let through or refused."""

    def __init__(self) -> None:
        self.events: list[tuple[int, str, Any]] = []
        self.gate: asyncio.Queue[bool] = asyncio.Queue()
        self.waiting = asyncio.Event()

    async def append_events(self, room: str, events: list[tuple[int, str, Any]],
                            seats: list[SeatRow] | None = None) -> None:
        self.waiting.set()
        if not await self.gate.get():
            raise StoreBusy.refused(Refusal.GAME_NOT_SAVED)
        self.events.extend(events)

    async def put_seats(self, room: str, seats: list[SeatRow]) -> None:
        pass

    def log(self, room: str) -> list[tuple[int, str, Any]]:
        return list(self.events)

    def touch_later(self, room: str, when: float | None = None) -> None:
        pass


def test_nothing_is_broadcast_while_a_move_is_being_written() -> None:
    """A connection closing while a move's write is pending: the others are told
    only once the write is done, so nobody sees a move that is then refused."""
    from belote.options import make_rules
    from belote.web.clients import Client
    from belote.web.rooms import RoomSettings

    async def scenario() -> None:
        store = GatedStore()
        room = Room("gated", make_rules("classic", {}), "random", RoomSettings(), seed=4,
                    store=store)  # type: ignore[arg-type]
        room.run = lambda: None  # type: ignore[method-assign]  # no driver: the test acts
        pushed: dict[int, list[str]] = {}
        clients = []
        for seat in range(4):
            async def nothing(text: str) -> None:  # pragma: no cover - never pumped
                pass

            client = Client(nothing, f"browser {seat}")
            sink = pushed.setdefault(seat, [])
            client.push_state = sink.append  # type: ignore[method-assign,assignment]
            clients.append(client)
            await room.join(seat, f"P{seat}", client)
        store.gate.put_nowait(True)
        await room.start()
        rnd = room.round
        assert rnd is not None
        turn = rnd.current_player()
        watcher, *leavers = [s for s in range(4) if s != turn]
        for outcome, leaver in zip((False, True), leavers, strict=True):
            for sink in pushed.values():
                sink.clear()
            store.waiting.clear()
            move = asyncio.ensure_future(room.call(turn, "pass"))
            await store.waiting.wait()
            room.detach(clients[leaver])  # someone leaves meanwhile
            assert pushed[watcher] == []  # held back while the write is pending
            store.gate.put_nowait(outcome)
            if outcome:
                await move
            else:
                with pytest.raises(StoreBusy):
                    await move
            assert pushed[watcher], outcome
            last = json.loads(pushed[watcher][-1])
            calls = [c["call"] for c in last["deal"]["calls"]]
            assert calls == (["pass"] if outcome else []), outcome
            assert room.actions == (1 if outcome else 0)
        await room.stop()

    run(scenario())
