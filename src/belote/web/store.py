"""Rooms kept on disk: the same SQLite file as the score sheets.

Each room is a row (its rules, bots, visibility, invitation, seed, status);
each seat a row (who holds it: kind, name, secret token, the browser identity
that took it); and each game an append-only log, one row per event in order:

* ``start``: the game began (``{}``);
* ``deal``: a deal was dealt (``{"dealer": "N", "deck": [...]}``, the deck in
  dealing order, so the deal is the same after a restart);
* ``action``: a call, a kitty discard or a card, as
  :meth:`belote.round.Round.actions_json` writes it.

A move is written (and committed) before the room acknowledges it, so a server
killed at any moment restarts every game where it was: :meth:`RoomStore.log`
gives the events back, :meth:`belote.web.rooms.Room.restore` replays them
through the engine, every action checked again.  At start-up only the open
rooms' rows are read (:meth:`RoomStore.open_rooms`, one query); a room's seats
and log are read when it is first opened again
(:meth:`belote.web.rooms.RoomManager.get`).

A room remembers who opened it: ``client``, the network it came from
(:func:`belote.web.network.network_of`), and ``creator``, the browser identity
(added to databases of older versions when they are opened; NULL for their
rooms), so the per-client room counts hold over a restart.

Writes happen on the event loop's thread, one short transaction each, in WAL
mode with ``synchronous = NORMAL``: a committed move survives the process
being killed (the operating system holds the WAL); only a power cut may lose
the last moves.  The score sheets keep ``synchronous = FULL``.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from belote.errors import BeloteError

_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS web_keys (
        name TEXT PRIMARY KEY, value TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS rooms (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        touched REAL NOT NULL,
        profile TEXT NOT NULL,
        options TEXT NOT NULL,
        bots TEXT NOT NULL,
        name TEXT NOT NULL,
        visibility TEXT NOT NULL,
        invite TEXT,
        seed INTEGER NOT NULL,
        client TEXT NOT NULL,
        closed TEXT,
        creator TEXT)""",
    """CREATE TABLE IF NOT EXISTS room_seats (
        room TEXT NOT NULL REFERENCES rooms(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        token TEXT,
        owner TEXT,
        PRIMARY KEY (room, seat))""",
    """CREATE TABLE IF NOT EXISTS room_log (
        room TEXT NOT NULL REFERENCES rooms(id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (room, seq))""",
)


class StoreError(BeloteError):
    """The rooms' database cannot be read or written (full disk, read-only file...)."""


@dataclass(frozen=True)
class RoomRow:
    id: str
    created: float
    touched: float
    profile: str
    options: dict[str, Any]
    bots: str
    name: str
    visibility: str
    invite: str | None
    seed: int
    client: str
    closed: str | None
    creator: str | None = None  # the browser identity that opened it (its room count)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    name: str
    token: str | None
    owner: str | None


class RoomStore:
    """The rooms' tables in the database at ``path`` (``":memory:"`` for none kept)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            self._conn = sqlite3.connect(self.path, timeout=5.0, isolation_level=None,
                                         check_same_thread=False)
            self._conn.execute("PRAGMA busy_timeout = 5000")
            if self.path != ":memory:":
                self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            with self._write():
                for statement in _SCHEMA:
                    self._conn.execute(statement)
                self._migrate()
        except sqlite3.Error as exc:
            raise StoreError(f"database {self.path!r}: {exc}") from None

    def close(self) -> None:
        self._conn.close()

    def _migrate(self) -> None:
        """Bring a database of an older version up to this schema (in the opening
        transaction): the rooms' ``creator`` column (NULL for the rooms made before)."""
        columns = {r[1] for r in self._conn.execute("PRAGMA table_info(rooms)")}
        if "creator" not in columns:
            self._conn.execute("ALTER TABLE rooms ADD COLUMN creator TEXT")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(f"the game could not be saved ({exc}); nothing was changed"
                             ) from None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"the rooms could not be read ({exc})") from None

    # --- the server's key ------------------------------------------------------------

    def secret_key(self) -> bytes:
        """The server's secret (CSRF tokens), made once and kept."""
        rows = self._read("SELECT value FROM web_keys WHERE name = 'csrf'")
        if rows:
            return bytes.fromhex(rows[0][0])
        key = secrets.token_hex(32)
        with self._write() as conn:
            conn.execute("INSERT OR IGNORE INTO web_keys (name, value) VALUES ('csrf', ?)",
                         (key,))
        return bytes.fromhex(self._read("SELECT value FROM web_keys WHERE name = 'csrf'")[0][0])

    # --- rooms ---------------------------------------------------------------------------

    def add_room(self, row: RoomRow, seats: list[SeatRow]) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO rooms (id, created, touched, profile, options, bots, name, "
                "visibility, invite, seed, client, closed, creator) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (row.id, row.created, row.touched, row.profile, json.dumps(row.options),
                 row.bots, row.name, row.visibility, row.invite, row.seed, row.client,
                 row.closed, row.creator))
            for s in seats:
                self._put_seat(conn, row.id, s)

    @staticmethod
    def _put_seat(conn: sqlite3.Connection, room: str, s: SeatRow) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO room_seats (room, seat, kind, name, token, owner) "
            "VALUES (?,?,?,?,?,?)", (room, s.seat, s.kind, s.name, s.token, s.owner))

    def put_seats(self, room: str, seats: list[SeatRow]) -> None:
        with self._write() as conn:
            for s in seats:
                self._put_seat(conn, room, s)

    def append(self, room: str, seq: int, kind: str, data: Any,
               seats: list[SeatRow] | None = None) -> None:
        """Event ``seq`` of the room's log (and seats changed with it), committed."""
        with self._write() as conn:
            conn.execute("INSERT INTO room_log (room, seq, kind, data) VALUES (?,?,?,?)",
                         (room, seq, kind, json.dumps(data, separators=(",", ":"))))
            for s in seats or ():
                self._put_seat(conn, room, s)

    def touch(self, room: str, when: float | None = None) -> None:
        with self._write() as conn:
            conn.execute("UPDATE rooms SET touched = ? WHERE id = ?",
                         (time.time() if when is None else when, room))

    def close_room(self, room: str, reason: str) -> None:
        with self._write() as conn:
            conn.execute("UPDATE rooms SET closed = ? WHERE id = ?", (reason, room))

    def open_rooms(self) -> list[RoomRow]:
        rows = self._read(
            "SELECT id, created, touched, profile, options, bots, name, visibility, invite, "
            "seed, client, closed, creator FROM rooms WHERE closed IS NULL ORDER BY created")
        return [self._room(r) for r in rows]

    def close_rooms(self, reasons: dict[str, str]) -> None:
        """Close several rooms at once (one transaction), each with its reason."""
        with self._write() as conn:
            conn.executemany("UPDATE rooms SET closed = ? WHERE id = ?",
                             [(reason, room) for room, reason in reasons.items()])

    def closed_reason(self, room: str) -> str | None:
        rows = self._read("SELECT closed FROM rooms WHERE id = ?", (room,))
        return rows[0][0] if rows else None

    @staticmethod
    def _room(r: Any) -> RoomRow:
        return RoomRow(id=r[0], created=r[1], touched=r[2], profile=r[3],
                       options=json.loads(r[4]), bots=r[5], name=r[6], visibility=r[7],
                       invite=r[8], seed=r[9], client=r[10], closed=r[11], creator=r[12])

    def seats(self, room: str) -> list[SeatRow]:
        rows = self._read("SELECT seat, kind, name, token, owner FROM room_seats "
                          "WHERE room = ? ORDER BY seat", (room,))
        return [SeatRow(*r) for r in rows]

    def log(self, room: str) -> list[tuple[int, str, Any]]:
        rows = self._read("SELECT seq, kind, data FROM room_log WHERE room = ? ORDER BY seq",
                          (room,))
        return [(seq, kind, json.loads(data)) for seq, kind, data in rows]
