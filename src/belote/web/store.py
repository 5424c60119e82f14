"""Rooms kept on disk: the same SQLite file as the score sheets.

Each room is a row (its rules, bots, visibility, invitation, seed, status);
each seat a row (who holds it: kind, name, secret token, the browser identity
that took it, and ``secret_until``: the deal whose past stays hidden from a
human who took the seat over from a bot mid-deal, docs/rules.md §12.1); and
each game an append-only log, one row per event in order:

* ``start``: the game began (``{}``);
* ``deal``: a deal was dealt (``{"dealer": "N", "deck": [...]}``, the deck in
  dealing order, so the deal is the same after a restart);
* ``action``: a call, a kitty discard or a card, as
  :meth:`belote.round.Round.actions_json` writes it.

The log is the game's record (docs/json.md) written a row at a time: read in order it
is :meth:`belote.game.Match.to_record`'s record (:func:`record_of_log`), which the room
reads back after a restart and the players' history (:meth:`RoomStore.games_of`) keeps.
A room's finished game (or a closed room's finished deals) is summed up once in the
history's tables (:mod:`belote.history`, ``source`` ``web``, the room's id as the game's)
when a player first asks for it; who may see it is read from the seats each time.

A move is written (and committed) before the room acknowledges it, so a server
killed at any moment restarts every game where it was: :meth:`RoomStore.log`
gives the events back, :meth:`belote.web.rooms.Room.restore` replays them
through the engine, every action checked again.  At start-up only the open
rooms' rows are read (:meth:`RoomStore.open_rooms`, one query); a room's seats
and log are read when it is first opened again
(:meth:`belote.web.room_manager.RoomManager.get`).

A room remembers who opened it: ``client``, the network it came from
(:func:`belote.web.network.network_of`), and ``creator``, the browser identity
(added to databases of older versions when they are opened; NULL for their
rooms), so the per-client room counts hold over a restart.

Where writes happen.  One connection writes the rooms, used by one thread at a time.
The writes queued during one turn of the event loop go together at its end
(:meth:`Writer._end_of_tick`): when each is a plain write of a few rows (a move, the
seats, a room's row: ``inline``), the writer thread has nothing queued nor in hand and
the database's write lock is free at once, the event loop commits them itself, as one
transaction (a savepoint each, so one refused write does not take the others with
it), some tenths of a millisecond, and the rooms' futures are answered in that same
turn.  Otherwise the batch goes to the writer thread (:class:`Writer`) through a
queue, which commits what is waiting as one transaction and answers the batch back to
the loop in one call.  The loop never waits for the lock: it tries it once.  The
thread's way costs a busy loop turns and the interpreter's lock handed over and back
(its wake-up waits for the lock up to the switch interval, 5 ms, and so may a
statement that lets it go), which is why a move's rows are not written there when
they need not be.  While another process holds the database's write lock (``belote
sheet add``, a backup) the writer thread waits at most :data:`BUSY_WAIT_S` for each
write, then refuses it with a plain :class:`StoreBusy`; nothing of it is written, and
the room takes the move back (:meth:`belote.web.rooms.Room._reload`).  Touching a room
(someone looked at it) and closing one that cannot be restored are written the same
way without being waited for.  No commit copies the log into the database (SQLite's
checkpoint after the commit that passes 1,000 pages: milliseconds on the loop); the
thread does, on a connection of its own, every :data:`CHECKPOINT_EVERY` writes committed.

Reads (a room's log after a refused move, the rooms at start-up, a closed
room's reason) run on the caller's thread over a second connection: in WAL
mode a reader never waits for a writer.

The database runs in WAL mode with ``synchronous = NORMAL``: a committed move
survives the process being killed (the operating system holds the WAL); only a
power cut may lose the last moves.  The score sheets keep ``synchronous = FULL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import secrets
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from belote import analysis_cache, history
from belote.errors import REFUSAL_ENGLISH, BeloteError, Refusal
from belote.history import GameSummary, Player
from belote.play import SEAT_NAMES

log = logging.getLogger("belote.web.store")

BUSY_WAIT_S: Final = 0.5  # how long a write waits for another process's lock
SETUP_WAIT_S: Final = 5.0  # ... at start-up (the schema), before the server answers
READ_WAIT_S: Final = 1.0  # a read waits only for a rare exclusive lock (WAL recovery)
MIN_TRY_S: Final = 0.1  # a write tries the lock at least this long (behind a long queue)
MAX_BATCH: Final = 500  # writes committed together (taken while fewer wait)
# Writes committed between two copies of the log into the database (a write adds a
# page or two to the log: SQLite's own copy comes every 1,000 pages).
CHECKPOINT_EVERY: Final = 1_000
CHECKPOINT_TRIES: Final = 8  # copies made again while commits come (Writer._checkpoint)
CHECKPOINT_ALONE_FRAMES: Final = 4_000  # pages of the log past which the loop waits for it
LOG_INSERT: Final = "INSERT INTO room_log (room, seq, kind, data) VALUES (?,?,?,?)"
MAX_IN_PLAY: Final = 10_000  # rooms remembered as still played (summarise_room)
BUSY_MESSAGE: Final = REFUSAL_ENGLISH[Refusal.GAME_NOT_SAVED]

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
        creator TEXT,
        finished REAL)""",
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


def record_of_log(profile: str, options: dict[str, Any],
                  log: list[tuple[int, str, Any]]) -> dict[str, Any] | None:
    """The game's record (:meth:`belote.game.Match.to_record`) that a room's log holds
    (its ``deal`` and ``action`` rows in order), or None before the game started."""
    deals: list[dict[str, Any]] = []
    started = False
    for _seq, kind, data in log:
        if kind == "start":
            started = True
        elif kind == "deal":
            deals.append({"dealer": data["dealer"], "deck": data["deck"], "actions": []})
        elif kind == "action":
            deals[-1]["actions"].append(data)
    if not started:
        return None
    return {"version": 1, "profile": profile, "options": options,
            "first_dealer": deals[0]["dealer"] if deals else "N", "deals": deals}


class StoreError(BeloteError):
    """The rooms' database cannot be read or written (full disk, read-only file...)."""


class StoreBusy(StoreError):
    """Another process held the database's write lock longer than :data:`BUSY_WAIT_S`:
    the write was refused, nothing of it written."""


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
    finished: bool = False  # its game is over (it no longer counts as an open table)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    name: str
    token: str | None
    owner: str | None
    secret_until: int = 0  # taken over mid-deal: the deal whose past stays hidden (§12.1)


Write = Callable[[sqlite3.Connection], Any]


@dataclass
class _Job:
    write: Write
    deadline: float  # monotonic: refused as busy if the lock is not had by then
    future: asyncio.Future[Any] | None  # None: nobody waits (failures are logged)
    loop: asyncio.AbstractEventLoop | None
    # A plain write of a few rows, quick and never waiting for anything: it may be
    # committed on the event loop's own thread (Writer._end_of_tick).
    inline: bool = False
    # The write only inserts these rows into the rooms' log (LOG_INSERT): the batch's
    # are inserted together (Writer._transaction).
    log_rows: list[tuple[str, int, str, str]] | None = None


class _Checkpoint:
    """The queue's order to the thread: copy the log's pages into the database
    (:meth:`Writer._checkpoint`)."""


_CHECKPOINT: Final = _Checkpoint()


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(exc)


# An event's data as its row keeps it: json.dumps(data, separators=(",", ":")), with
# the encoder made once (json.dumps makes one a call for other separators).
_compact: Final = json.JSONEncoder(separators=(",", ":")).encode


class Writer:
    """The rooms' writes (module doc): one connection, used by one thread at a time:
    the event loop's, which commits a turn's plain writes itself when nothing else
    is queued and the database's lock is free, or the writer thread, which commits
    what waits in its queue as one transaction and waits for another process's lock."""

    def __init__(self, path: str, busy_wait: float = BUSY_WAIT_S) -> None:
        self.path = path
        self.busy_wait = busy_wait
        self._conn = sqlite3.connect(path, timeout=SETUP_WAIT_S, isolation_level=None,
                                     check_same_thread=False)
        # Batches of writes (a list each, in order), a checkpoint, None to stop.
        self._queue: queue.SimpleQueue[list[_Job] | _Checkpoint | None] = \
            queue.SimpleQueue()
        # Writes queued by the event loop during its current tick: committed or
        # handed over together at the end of the tick (:meth:`_put`).
        self._tick: list[_Job] = []
        self._tick_loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False  # the thread saw the stop
        self._closed = False  # no more writes are taken
        # A write is queued before the stop, or refused; the event loop commits only
        # while it holds it and the thread has nothing (:attr:`_pending`).
        self._guard = threading.Lock()
        self._pending = 0  # batches in the queue or being written by the thread
        self._taken = 0  # (the thread's) batches taken from the queue, not yet done
        self._checkpoint_due = False  # (the thread's) a checkpoint was asked for
        self._checkpoints: sqlite3.Connection | None = None  # (the thread's own)
        self.commits = 0  # transactions committed (a measure of the grouping)
        self._since_checkpoint = 0  # writes committed since the last checkpoint asked for
        self.inline_commits = 0  # ... of them on the event loop's thread

    @property
    def conn(self) -> sqlite3.Connection:
        """The writer's connection: only for the set-up, before :meth:`start`."""
        assert self._thread is None
        return self._conn

    def start(self) -> None:
        """The busy handler is the writer's own (each write's deadline): SQLite
        itself does not wait.  The log's pages are copied into the database by the
        thread (:data:`CHECKPOINT_EVERY`), never by a commit: a commit on the event
        loop's thread would otherwise copy some thousand pages now and then."""
        self._conn.execute("PRAGMA busy_timeout = 0")
        self._conn.execute("PRAGMA wal_autocheckpoint = 0")
        self._thread = threading.Thread(target=self._run, name="belote-room-writer",
                                        daemon=True)
        self._thread.start()

    @property
    def closed(self) -> bool:
        """Whether the writer takes no more writes (the server stops)."""
        return self._closed

    def stop(self) -> None:
        """Write what is queued, then stop the thread and close the connection."""
        with self._guard:
            self._closed = True
            self._hand_over()
            self._queue.put(None)
        if self._thread is not None:
            self._thread.join()
        if self._checkpoints is not None:
            self._checkpoints.close()
        self._conn.close()

    def submit(self, write: Write, inline: bool = False,
               log_rows: list[tuple[str, int, str, str]] | None = None
               ) -> asyncio.Future[Any]:
        """Queue ``write(conn)`` (from the event loop): the future holds its answer
        once committed, or :class:`StoreError` (:class:`StoreBusy`) when refused.
        ``inline``: a plain write of a few rows that never waits for anything nor
        queues another write (it may be committed on the event loop's thread).
        ``log_rows``: what ``write`` does is inserting these rows into the rooms'
        log (:data:`LOG_INSERT`), nothing else, answering None."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._put(_Job(write, time.monotonic() + self.busy_wait, future, loop, inline,
                       log_rows))
        return future

    def post(self, write: Write, inline: bool = False) -> None:
        """Queue ``write(conn)`` with nobody waiting: a failure is only logged."""
        self._put(_Job(write, time.monotonic() + self.busy_wait, None, None, inline))

    def _put(self, job: _Job) -> None:
        """Queue a write.  From an event loop, the writes of one tick of the loop
        go together at its end (:meth:`_end_of_tick`); from elsewhere, to the
        thread at once."""
        with self._guard:
            if self._closed:
                raise StoreError.refused(Refusal.GAME_NOT_SAVED_STOPPING)
            try:
                loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
            except RuntimeError:  # not from an event loop's thread
                loop = None
            if self._tick and loop is not self._tick_loop:
                self._hand_over()  # (another loop's tick, which may never end)
            if loop is None:
                self._pending += 1
                self._queue.put([job])
                return
            if not self._tick:
                self._tick_loop = loop
                loop.call_soon(self._end_of_tick)
            self._tick.append(job)

    def _end_of_tick(self) -> None:
        """The tick's writes, committed here on the event loop's thread when each is
        a plain write (``inline``), the thread has nothing queued nor in hand and the
        database's lock is free at once (one transaction, about a tenth of a
        millisecond, answered in this same turn of the loop); otherwise handed to
        the thread (one wake-up of the thread, not one a write).

        On a busy loop the thread's way costs turns of the loop and the hand-overs
        of the interpreter's lock: its wake-up waits for the lock up to the switch
        interval (5 ms), a statement that lets the lock go may wait as long again
        to get it back, and its answer is read a turn of the loop later."""
        with self._guard:
            batch = self._tick
            if (not batch or self._pending or self._closed or self._thread is None
                    or not all(job.inline for job in batch)):
                self._hand_over()
                return
            self._tick = []
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                if _is_busy(exc):  # another process writes: the thread waits for it
                    self._pending += 1
                    self._queue.put(batch)
                else:
                    self._answer(self._failed(batch, exc), here=self._tick_loop)
                return
            answers = self._transaction(conn, batch)
            self.inline_commits += 1
        self._answer(answers, here=self._tick_loop)

    def _hand_over(self) -> None:
        """Put the tick's writes in the queue, in order (under :attr:`_guard`)."""
        if self._tick:
            batch, self._tick = self._tick, []
            self._pending += 1
            self._queue.put(batch)

    # --- the thread ----------------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping:
            first = self._queue.get()
            if first is None:
                break
            if isinstance(first, _Checkpoint):
                self._checkpoint()
                continue
            self._taken += 1
            batch = list(first)
            self._drain(batch)
            self._commit(batch)
            if self._checkpoint_due:
                self._checkpoint()
        # Stopped: anything left (queued after the stop) is written too.
        rest: list[_Job] = []
        self._drain(rest)
        self._commit(rest)

    def _drain(self, batch: list[_Job]) -> None:
        """Add the writes waiting in the queue to ``batch`` (noting a stop or a
        checkpoint asked for)."""
        while len(batch) < MAX_BATCH:
            try:
                jobs = self._queue.get_nowait()
            except queue.Empty:
                return
            if jobs is None:
                self._stopping = True
            elif isinstance(jobs, _Checkpoint):
                self._checkpoint_due = True
            else:
                self._taken += 1
                batch.extend(jobs)

    def _checkpoint(self) -> None:
        """Copy the log's pages into the database, on the thread's own connection
        (``PASSIVE``: as far as no reader needs them, never waiting), while the event
        loop may commit meanwhile.  The log starts again from its beginning (its
        file stops growing) only at a commit that finds it all copied: so the copy is
        made again, up to :data:`CHECKPOINT_TRIES` times, while commits came during
        the last one (each time a few pages, quick).  If the log still holds more than
        :data:`CHECKPOINT_ALONE_FRAMES` pages, the copy is made with the loop's
        commits held back (to the thread, as when it writes): some milliseconds, once
        in a long while."""
        self._checkpoint_due = False
        try:
            if self._checkpoints is None:
                self._checkpoints = sqlite3.connect(self.path, timeout=0,
                                                    isolation_level=None,
                                                    check_same_thread=False)
            frames = 0
            for _ in range(CHECKPOINT_TRIES):
                [(busy, frames, copied)] = self._checkpoints.execute(
                    "PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                if busy or frames == copied:
                    break
            # All copied is not yet the log started again (a transaction begun before
            # the copy's end may commit after it): while the log keeps growing, the
            # copy is made with the loop's commits held back, and the next one starts it.
            if frames > CHECKPOINT_ALONE_FRAMES:
                with self._guard:  # (no commit of the loop is under way, nor begins)
                    self._pending += 1
                try:
                    self._checkpoints.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                finally:
                    with self._guard:
                        self._pending -= 1
        except sqlite3.Error as exc:  # tried again after the next commits
            log.debug("the rooms' checkpoint: %s", exc)

    def _committed(self, writes: int) -> None:
        """A transaction of ``writes`` writes was committed: every
        :data:`CHECKPOINT_EVERY` writes, the thread is asked to copy the log into
        the database."""
        self.commits += 1
        self._since_checkpoint += writes
        if self._since_checkpoint >= CHECKPOINT_EVERY:
            self._since_checkpoint = 0
            self._queue.put(_CHECKPOINT)

    def _lock(self, batch: list[_Job]) -> list[_Job]:
        """``BEGIN IMMEDIATE``, tried again until each write's deadline (at least
        :data:`MIN_TRY_S` after the first try): a write whose deadline passes is
        refused as busy; answers the writes that got the lock, those queued while
        it waited included."""
        conn = self._conn
        first = time.monotonic()
        while batch:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return batch
            except sqlite3.Error as exc:
                if not _is_busy(exc):
                    self._fail(batch, exc)
                    return []
            now = time.monotonic()
            late = [j for j in batch if max(j.deadline, first + MIN_TRY_S) <= now]
            if late:
                self._fail(late, StoreBusy.refused(Refusal.GAME_NOT_SAVED))
                batch = [j for j in batch if max(j.deadline, first + MIN_TRY_S) > now]
            time.sleep(0.005)
            self._drain(batch)
        return batch

    def _commit(self, batch: list[_Job]) -> None:
        """Commit ``batch`` (and what comes while it waits for the lock), then let
        the event loop commit again (the connection is free) before the answers go."""
        batch = self._lock(batch)
        answers = self._transaction(self._conn, batch) if batch else []
        with self._guard:
            self._pending -= self._taken
            self._taken = 0
        self._answer(answers)

    def _transaction(self, conn: sqlite3.Connection, batch: list[_Job]
                     ) -> list[tuple[_Job, Any, BaseException | None]]:
        """The writes of ``batch`` in the transaction begun (``BEGIN IMMEDIATE``), a
        savepoint each (a write that fails is given its error, the others go on),
        then committed: each write's answer or error.  The writes that only insert
        rows of the log go first, all their rows in one statement and one savepoint
        (on the event loop's thread a statement costs the loop's time); if it fails,
        they are written again one by one, each with its own answer."""
        everyone = batch
        done: list[tuple[_Job, Any]] = []
        failed: list[tuple[_Job, BaseException]] = []
        try:
            rows_only = [job for job in batch if job.log_rows is not None]
            if len(rows_only) > 1:
                conn.execute("SAVEPOINT rows")
                try:
                    conn.executemany(LOG_INSERT, [row for job in rows_only
                                                  for row in job.log_rows or ()])
                except sqlite3.Error:  # one of them (a row already there): one by one
                    conn.execute("ROLLBACK TO rows")
                else:
                    done = [(job, None) for job in rows_only]
                    batch = [job for job in batch if job.log_rows is None]
                conn.execute("RELEASE rows")
            for job in batch:
                conn.execute("SAVEPOINT job")
                try:
                    answer = job.write(conn)
                except Exception as exc:  # given to the one who asked
                    conn.execute("ROLLBACK TO job")
                    conn.execute("RELEASE job")
                    failed.append((job, exc))
                    continue
                conn.execute("RELEASE job")
                done.append((job, answer))
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            if not isinstance(exc, sqlite3.Error):
                raise
            # Nothing of the batch is written: each write is told (its own error for
            # one that failed before, the batch's for the others, done or not yet).
            own_errors = {id(job): own for job, own in failed}
            return [(job, None, own_errors.get(id(job), exc)) for job in everyone]
        self._committed(len(everyone))
        return ([(job, answer, None) for job, answer in done]
                + [(job, None, own) for job, own in failed])

    @staticmethod
    def _failed(jobs: list[_Job], exc: BaseException
                ) -> list[tuple[_Job, Any, BaseException | None]]:
        return [(job, None, exc) for job in jobs]

    def _fail(self, jobs: list[_Job], exc: BaseException) -> None:
        self._answer(self._failed(jobs, exc))

    @staticmethod
    def _answer(answers: list[tuple[_Job, Any, BaseException | None]],
                here: asyncio.AbstractEventLoop | None = None) -> None:
        """Give each write its answer: the answers to one event loop in one call
        (one wake-up of the loop for the whole batch), at once to ``here``, the
        event loop whose thread this is."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any,
                                                            BaseException | None]]] = {}
        for job, answer, exc in answers:
            if isinstance(exc, sqlite3.Error):
                exc = StoreBusy.refused(Refusal.GAME_NOT_SAVED) if _is_busy(exc) else (
                    StoreError.refused(Refusal.GAME_NOT_SAVED_ERROR, detail=str(exc)))
            if job.future is None or job.loop is None:
                if exc is not None:
                    log.error("a room's write failed: %s", exc)
                continue
            by_loop.setdefault(job.loop, []).append((job.future, answer, exc))
        for loop, settled in by_loop.items():
            if loop is here:
                _settle(settled)
                continue
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, settled)


def _settle(answers: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    """The writer's answers given to their futures (on their event loop)."""
    for future, answer, exc in answers:
        if future.done():
            continue
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(answer)


class RoomStore:
    """The rooms' tables in the database at ``path`` (``":memory:"`` for none kept:
    a temporary file, removed at :meth:`close`).

    Writes are coroutines answered by the writer thread (module doc); reads are
    plain calls."""

    def __init__(self, path: str | os.PathLike[str], busy_wait: float = BUSY_WAIT_S) -> None:
        self.path = str(path)
        # rooms whose log was read as a game still played: their log's length then
        # (RoomStore.summarise_room reads such a log again only once it grew)
        self._in_play: dict[str, tuple[int, bool]] = {}
        self._temporary: str | None = None
        if self.path == ":memory:":
            fd, self._temporary = tempfile.mkstemp(prefix="belote-rooms-", suffix=".db")
            os.close(fd)
            self.path = self._temporary
        Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            self.writer = Writer(self.path, busy_wait)
            self._setup(self.writer.conn)
            self._conn = sqlite3.connect(self.path, timeout=READ_WAIT_S, isolation_level=None,
                                         check_same_thread=False)
            self._conn.execute(f"PRAGMA busy_timeout = {int(READ_WAIT_S * 1000)}")
        except sqlite3.Error as exc:
            raise StoreError(f"database {self.path!r}: {exc}") from None
        self.writer.start()

    @staticmethod
    def _setup(conn: sqlite3.Connection) -> None:
        """The tables (and the seats' ``secret_until`` added to an older file) and the
        server's key, once at start-up."""
        conn.execute(f"PRAGMA busy_timeout = {int(SETUP_WAIT_S * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA:
                conn.execute(statement)
            history.setup(conn)
            analysis_cache.setup(conn)
            columns = {r[1] for r in conn.execute("PRAGMA table_info(room_seats)")}
            if "secret_until" not in columns:
                conn.execute("ALTER TABLE room_seats ADD COLUMN "
                             "secret_until INTEGER NOT NULL DEFAULT 0")
            columns = {r[1] for r in conn.execute("PRAGMA table_info(rooms)")}
            if "creator" not in columns:  # NULL for the rooms made before
                conn.execute("ALTER TABLE rooms ADD COLUMN creator TEXT")
            if "finished" not in columns:  # NULL (played, or not known) for those before
                conn.execute("ALTER TABLE rooms ADD COLUMN finished REAL")
            conn.execute("INSERT OR IGNORE INTO web_keys (name, value) VALUES ('csrf', ?)",
                         (secrets.token_hex(32),))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    @property
    def closed(self) -> bool:
        """Whether the store is closing or closed (the server stops)."""
        return self.writer.closed

    def close(self) -> None:
        """Write what is queued, then close (the server stops)."""
        self.writer.stop()
        self._conn.close()
        if self._temporary is not None:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.remove(self._temporary + suffix)

    async def _write(self, write: Write) -> Any:
        """A plain write of the rooms' rows (:meth:`Writer.submit`'s ``inline``)."""
        return await self.writer.submit(write, inline=True)

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise StoreError.refused(Refusal.STORE_UNREADABLE, what="rooms",
                                     detail=str(exc)) from None

    # --- the server's key ------------------------------------------------------------

    def secret_key(self) -> bytes:
        """The server's secret (CSRF tokens), made once (at the set-up) and kept."""
        return bytes.fromhex(self._read("SELECT value FROM web_keys WHERE name = 'csrf'")[0][0])

    # --- rooms ---------------------------------------------------------------------------

    async def add_room(self, row: RoomRow, seats: list[SeatRow]) -> None:
        def write(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO rooms (id, created, touched, profile, options, bots, name, "
                "visibility, invite, seed, client, closed, creator) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (row.id, row.created, row.touched, row.profile, json.dumps(row.options),
                 row.bots, row.name, row.visibility, row.invite, row.seed, row.client,
                 row.closed, row.creator))
            for s in seats:
                self._put_seat(conn, row.id, s)

        await self._write(write)

    @staticmethod
    def _put_seat(conn: sqlite3.Connection, room: str, s: SeatRow) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO room_seats (room, seat, kind, name, token, owner, "
            "secret_until) VALUES (?,?,?,?,?,?,?)",
            (room, s.seat, s.kind, s.name, s.token, s.owner, s.secret_until))

    async def put_seats(self, room: str, seats: list[SeatRow]) -> None:
        def write(conn: sqlite3.Connection) -> None:
            for s in seats:
                self._put_seat(conn, room, s)

        await self._write(write)

    async def append(self, room: str, seq: int, kind: str, data: Any,
                     seats: list[SeatRow] | None = None) -> None:
        """Event ``seq`` of the room's log (and seats changed with it), committed."""
        await self.append_events(room, [(seq, kind, data)], seats)

    async def append_events(self, room: str, events: list[tuple[int, str, Any]],
                            seats: list[SeatRow] | None = None) -> None:
        """Events of the room's log (and seats changed with them), committed together
        or not at all."""
        rows = [(room, seq, kind, _compact(data))
                for seq, kind, data in events]

        def write(conn: sqlite3.Connection) -> None:
            conn.executemany(LOG_INSERT, rows)
            for s in seats or ():
                self._put_seat(conn, room, s)

        # Only rows of the log: inserted with the batch's others in one statement.
        await self.writer.submit(write, inline=True, log_rows=None if seats else rows)

    def touch_later(self, room: str, when: float | None = None) -> None:
        """The room was visited: written by the writer, nobody waiting for it."""
        at = time.time() if when is None else when
        with contextlib.suppress(StoreError):  # the server stops: it was seen anyway
            self.writer.post(lambda conn: conn.execute(
                "UPDATE rooms SET touched = ? WHERE id = ?", (at, room)), inline=True)

    def finish_later(self, room: str, when: float | None = None) -> None:
        """The room's game is over (its last action is written before): kept so that,
        after a restart, the room no longer counts among its creator's open tables
        before anyone opens it again."""
        at = time.time() if when is None else when
        with contextlib.suppress(StoreError):  # the server stops: the log says it anyway
            self.writer.post(lambda conn: conn.execute(
                "UPDATE rooms SET finished = ? WHERE id = ?", (at, room)), inline=True)

    async def close_room(self, room: str, reason: str) -> None:
        await self._write(lambda conn: conn.execute(
            "UPDATE rooms SET closed = ? WHERE id = ?", (reason, room)))

    def close_room_later(self, room: str, reason: str) -> None:
        """:meth:`close_room`, nobody waiting for it (a room that cannot be restored)."""
        with contextlib.suppress(StoreError):  # the server stops: tried at the next start
            self.writer.post(lambda conn: conn.execute(
                "UPDATE rooms SET closed = ? WHERE id = ?", (reason, room)), inline=True)

    async def close_rooms(self, reasons: dict[str, str]) -> None:
        """Close several rooms at once (one transaction), each with its reason."""
        await self._write(lambda conn: conn.executemany(
            "UPDATE rooms SET closed = ? WHERE id = ?",
            [(reason, room) for room, reason in reasons.items()]))

    def close_rooms_later(self, reasons: dict[str, str]) -> None:
        """:meth:`close_rooms`, nobody waiting for it (rooms closed to make room: a
        failed write is logged, and the rooms come back asleep after a restart)."""
        rows = [(reason, room) for room, reason in reasons.items()]
        with contextlib.suppress(StoreError):  # the server stops: tried at the next start
            self.writer.post(lambda conn: conn.executemany(
                "UPDATE rooms SET closed = ? WHERE id = ?", rows), inline=True)

    def open_rooms(self) -> list[RoomRow]:
        rows = self._read(
            "SELECT id, created, touched, profile, options, bots, name, visibility, invite, "
            "seed, client, closed, creator, finished FROM rooms WHERE closed IS NULL "
            "ORDER BY created")
        return [self._room(r) for r in rows]

    def closed_reason(self, room: str) -> str | None:
        rows = self._read("SELECT closed FROM rooms WHERE id = ?", (room,))
        return rows[0][0] if rows else None

    @staticmethod
    def _room(r: Any) -> RoomRow:
        return RoomRow(id=r[0], created=r[1], touched=r[2], profile=r[3],
                       options=json.loads(r[4]), bots=r[5], name=r[6], visibility=r[7],
                       invite=r[8], seed=r[9], client=r[10], closed=r[11], creator=r[12],
                       finished=r[13] is not None)

    def holds_seat(self, identity: str) -> bool:
        """Whether the browser ``identity`` holds a person's seat in an open room (the
        rooms asleep on disk included)."""
        return bool(self._read(
            "SELECT 1 FROM room_seats JOIN rooms ON rooms.id = room_seats.room "
            "WHERE room_seats.owner = ? AND room_seats.kind = 'human' "
            "AND rooms.closed IS NULL LIMIT 1", (identity,)))

    def seats(self, room: str) -> list[SeatRow]:
        rows = self._read("SELECT seat, kind, name, token, owner, secret_until FROM room_seats "
                          "WHERE room = ? ORDER BY seat", (room,))
        return [SeatRow(*r) for r in rows]

    def log(self, room: str) -> list[tuple[int, str, Any]]:
        rows = self._read("SELECT seq, kind, data FROM room_log WHERE room = ? ORDER BY seq",
                          (room,))
        return [(seq, kind, json.loads(data)) for seq, kind, data in rows]


    # --- the players' history ----------------------------------------------------------

    def rooms_of(self, identity: str, limit: int = 50) -> list[tuple[str, bool]]:
        """The rooms where the browser ``identity`` holds a person's seat, the last
        opened first: each id and whether the room is closed."""
        return [(r[0], r[1] is not None) for r in self._read(
            "SELECT rooms.id, rooms.closed FROM rooms JOIN room_seats "
            "ON rooms.id = room_seats.room WHERE room_seats.owner = ? "
            "AND room_seats.kind = 'human' GROUP BY rooms.id "
            "ORDER BY rooms.created DESC, rooms.id LIMIT ?", (identity, limit))]

    def holds_room_seat(self, identity: str, room: str) -> bool:
        """Whether ``identity`` holds a person's seat of ``room``."""
        return bool(self._read(
            "SELECT 1 FROM room_seats WHERE room = ? AND owner = ? AND kind = 'human'",
            (room, identity)))

    def seats_held(self, identity: str, rooms: list[str]) -> dict[str, set[str]]:
        """The seats (letters) where ``identity`` holds a person's seat, in each of
        ``rooms`` where it holds one."""
        out: dict[str, set[str]] = {}
        for i in range(0, len(rooms), 500):
            part = rooms[i:i + 500]
            for room, seat in self._read(
                    "SELECT room, seat FROM room_seats WHERE owner = ? AND kind = 'human' "
                    f"AND room IN ({','.join('?' * len(part))})", (identity, *part)):
                out.setdefault(room, set()).add(SEAT_NAMES[seat])
        return out

    def not_analysed(self, games: list[GameSummary]) -> list[dict[str, Any]]:
        """The records of ``games``' played deals without a double-dummy analysis kept
        (:func:`belote.analysis_cache.not_analysed`), the games' order."""
        try:
            return analysis_cache.not_analysed(self._conn, games)
        except sqlite3.Error as exc:
            raise StoreError.refused(Refusal.STORE_UNREADABLE, what="analyses",
                                     detail=str(exc)) from None

    def loss_measures(self, games: list[GameSummary]) -> dict[str, history.SeatMeasure]:
        """The points lost per card of ``games``' deals analysed and kept
        (:func:`belote.analysis_cache.loss_measures`), for the statistics."""
        try:
            return analysis_cache.loss_measures(self._conn, games)
        except sqlite3.Error as exc:
            raise StoreError.refused(Refusal.STORE_UNREADABLE, what="analyses",
                                     detail=str(exc)) from None

    def kept_games(self, ids: list[str]) -> dict[str, GameSummary]:
        """The games of ``ids`` already summed up in the history (without their deals)."""
        try:
            return {g.id: g for g in history.list_games(self._conn, source="web", ids=ids)}
        except sqlite3.Error as exc:
            raise StoreError.refused(Refusal.STORE_UNREADABLE, what="history",
                                     detail=str(exc)) from None

    def kept_game(self, room: str) -> GameSummary | None:
        """The game of ``room`` summed up in the history, with its deals, or None."""
        try:
            return history.get_game(self._conn, room)
        except sqlite3.Error as exc:
            raise StoreError.refused(Refusal.STORE_UNREADABLE, what="history",
                                     detail=str(exc)) from None

    def summarise_room(self, room: str, closed: bool) -> GameSummary | None:
        """The game of ``room`` read from its log and summed up (:func:`belote.history.summarise`):
        only a finished game, or the finished deals of a closed room's; None for a game
        still played (its deals are the players' to see at the table) or without a
        finished deal.  Kept in the history's tables (by the writer, nobody waiting)."""
        rows = self._read("SELECT profile, options, created, touched FROM rooms WHERE id = ?",
                          (room,))
        if not rows:
            return None
        profile, options, created, touched = rows[0]
        count = self._read("SELECT COUNT(*) FROM room_log WHERE room = ?", (room,))[0][0]
        if self._in_play.get(room) == (count, closed):
            return None  # read already as a game still played, and nothing came since
        events = self.log(room)
        record = record_of_log(profile, json.loads(options), events)
        if record is None:
            return None
        players = [Player(SEAT_NAMES[s.seat], s.name or SEAT_NAMES[s.seat],
                          "human" if s.kind == "human" else "bot") for s in self.seats(room)]
        try:
            game = history.summarise(record, game_id=room, source="web", seats=players,
                                     created=created, updated=touched)
        except BeloteError as exc:
            log.warning("room %s: its game cannot be read back: %s", room, exc)
            return None
        if not (game.finished or closed) or not game.deals:
            if len(self._in_play) >= MAX_IN_PLAY:
                self._in_play.clear()
            self._in_play[room] = (len(events), closed)
            return None
        self._in_play.pop(room, None)
        with contextlib.suppress(StoreError):  # the server stops: summed up again later
            self.writer.post(lambda conn: history.put(conn, game))
        return game
