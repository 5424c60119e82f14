"""The rooms' writes committed on the event loop's own thread (``Writer._end_of_tick``).

A turn's plain writes (a move's rows, a room's seats) are committed by the event loop
itself when the writer thread has nothing queued nor in hand and the database's lock
is free at once: no hand-over to the thread and back.  Otherwise they go to the thread
as before: behind its batches (in order), or while another process holds the lock
(the thread waits for it, up to each write's deadline).  The loop's commits never
copy the log into the database (a checkpoint: some thousand pages now and then); the
thread does, every ``CHECKPOINT_EVERY`` writes committed.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from belote.web import store as store_module
from belote.web.store import RoomStore, StoreError
from tests.web.test_room_busy import write_lock_held


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_turns_plain_writes_are_committed_on_the_loops_thread(tmp_path: Path) -> None:
    store = RoomStore(tmp_path / "rooms.db")
    writer = store.writer
    ran_on: list[str] = []

    async def scenario() -> None:
        commits, inline = writer.commits, writer.inline_commits
        async def mark() -> None:
            await writer.submit(lambda conn: ran_on.append(threading.current_thread().name),
                                inline=True)

        # (the tasks start together: their writes are one turn's)
        writes = [asyncio.ensure_future(store.append(f"r{i}", 1, "start", {}))
                  for i in range(5)]
        await asyncio.gather(*writes, asyncio.ensure_future(mark()))
        # one transaction, on this thread
        assert (writer.commits - commits, writer.inline_commits - inline) == (1, 1)
        assert ran_on == [threading.current_thread().name]

    try:
        run(scenario())
        assert all(len(store.log(f"r{i}")) == 1 for i in range(5))
    finally:
        store.close()


def test_a_refused_write_on_the_loops_thread_does_not_take_the_others(tmp_path: Path) -> None:
    store = RoomStore(tmp_path / "rooms.db")

    async def scenario() -> None:
        await store.append("r", 1, "start", {})
        inline = store.writer.inline_commits
        again = asyncio.ensure_future(store.append("r", 1, "start", {}))  # seq 1 is taken
        other = asyncio.ensure_future(store.append("r", 2, "deal", {"dealer": "N"}))
        with pytest.raises(StoreError, match="could not be saved"):
            await again
        await other
        assert store.writer.inline_commits == inline + 1

    try:
        run(scenario())
        assert [e[1] for e in store.log("r")] == ["start", "deal"]
    finally:
        store.close()


def test_a_plain_write_waits_behind_the_threads_writes(tmp_path: Path) -> None:
    """While the thread holds a batch, the loop commits nothing itself: a later plain
    write goes to the thread, after what it holds (the one connection is the
    thread's meanwhile)."""
    store = RoomStore(tmp_path / "rooms.db")
    writer = store.writer
    gate = threading.Event()
    order: list[str] = []

    def stuck(conn: Any) -> None:
        gate.wait(10)
        order.append("stuck")

    async def scenario() -> None:
        first = writer.submit(stuck)  # (not plain: the thread's)
        await asyncio.sleep(0.05)
        inline = writer.inline_commits
        plain = writer.submit(lambda conn: order.append("plain"), inline=True)
        logged = asyncio.ensure_future(store.append("r", 1, "start", {}))
        await asyncio.sleep(0.05)
        assert not plain.done() and not logged.done()
        gate.set()
        await asyncio.gather(first, plain, logged)
        assert writer.inline_commits == inline  # both went to the thread
        await store.append("r", 2, "deal", {"dealer": "N"})  # the thread is idle again
        assert writer.inline_commits == inline + 1

    try:
        run(scenario())
        assert order == ["stuck", "plain"]
        assert [e[1] for e in store.log("r")] == ["start", "deal"]
    finally:
        store.close()


def test_a_plain_write_while_another_process_writes_waits_for_it(tmp_path: Path) -> None:
    """The loop tries the lock once and never waits: held by another process, the
    write goes to the thread, which commits it once the lock is let go (within the
    write's half second)."""
    db = tmp_path / "rooms.db"
    store = RoomStore(db)
    writer = store.writer

    async def scenario() -> None:
        inline = writer.inline_commits
        with write_lock_held(db):
            pending = asyncio.ensure_future(store.append("r", 1, "start", {}))
            await asyncio.sleep(0.15)
            assert not pending.done()
        await pending
        assert writer.inline_commits == inline

    try:
        run(scenario())
        assert [e[1] for e in store.log("r")] == ["start"]
    finally:
        store.close()


def test_the_loops_commits_never_copy_the_log_the_thread_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A commit on the loop's thread leaves the log's pages in the log (SQLite would
    copy them into the database at the commit that passes 1,000 pages, some
    milliseconds on the loop); the thread copies them every ``CHECKPOINT_EVERY``
    writes committed."""
    db = tmp_path / "rooms.db"
    store = RoomStore(db)
    big = {"pad": "x" * 16_000}  # 300 rows: some 1,200 pages of the log

    async def scenario() -> None:
        monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 1_000_000)
        before = db.stat().st_size
        await asyncio.gather(*(store.append(f"r{i}", 1, "deal", big) for i in range(300)))
        await asyncio.sleep(0.2)
        assert db.stat().st_size - before < 1_000_000  # still in the log
        monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 1)
        await store.append("r", 1, "start", {})  # the thread is asked to copy
        for _ in range(100):
            if db.stat().st_size - before > 4_000_000:
                break
            await asyncio.sleep(0.05)
        assert db.stat().st_size - before > 4_000_000

    try:
        run(scenario())
        assert len(store.log("r7")) == 1
    finally:
        store.close()


def test_a_turns_moves_are_inserted_in_one_statement(tmp_path: Path) -> None:
    """The writes that only add rows to the log (a move each) go in together: one
    statement and one savepoint for all, not a savepoint a move (each a statement
    run on the loop's thread)."""
    store = RoomStore(tmp_path / "rooms.db")
    conn = store.writer._conn
    seen: list[str] = []

    async def scenario() -> None:
        conn.set_trace_callback(seen.append)
        writes = [asyncio.ensure_future(store.append(f"r{i}", 1, "start", {}))
                  for i in range(4)]
        await asyncio.gather(*writes)
        conn.set_trace_callback(None)

    try:
        run(scenario())
        assert [s.split()[0] for s in seen] == [
            "BEGIN", "SAVEPOINT", "INSERT", "INSERT", "INSERT", "INSERT", "RELEASE", "COMMIT"]
        assert all(len(store.log(f"r{i}")) == 1 for i in range(4))
    finally:
        store.close()


class _FailingSavepoint:
    """The writer's connection, whose second ``SAVEPOINT job`` fails as a disk would."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.savepoints = 0

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "SAVEPOINT job":
            self.savepoints += 1
            if self.savepoints == 2:
                raise sqlite3.OperationalError("disk I/O error")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def test_a_batch_that_fails_midway_answers_every_write(tmp_path: Path) -> None:
    """A statement of the batch's own fails (not a write's): nothing is written, and
    every write of it is told so, those not reached yet included (they waited
    forever, and their rooms' locks with them)."""
    store = RoomStore(tmp_path / "rooms.db")
    writer = store.writer
    real = writer._conn
    writer._conn = _FailingSavepoint(real)  # type: ignore[assignment]

    def insert(room: str) -> Callable[[sqlite3.Connection], object]:
        return lambda conn: conn.execute(
            "INSERT INTO room_log (room, seq, kind, data) VALUES (?, 1, 'start', '{}')",
            (room,))

    async def scenario() -> list[BaseException | None]:
        futures = [writer.submit(insert(f"r{i}"), inline=True) for i in range(3)]
        done, _ = await asyncio.wait(futures, timeout=5)
        assert len(done) == 3
        return [f.exception() for f in futures]

    try:
        errors = run(scenario())
        assert all(isinstance(e, StoreError) and "disk I/O error" in str(e) for e in errors)
        assert all(store.log(f"r{i}") == [] for i in range(3))
    finally:
        writer._conn = real
        store.close()


def test_the_log_starts_again_while_the_loop_keeps_committing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The thread's copies run while the loop commits (a commit every few
    milliseconds, as a busy server's); the log starts again from its beginning
    once a commit finds it all copied, so its file stays small (without the copies
    it holds everything written: some 3.6 MB here)."""
    db = tmp_path / "rooms.db"
    store = RoomStore(db)
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 5)
    monkeypatch.setattr(store_module, "CHECKPOINT_ALONE_FRAMES", 200)
    pad = {"pad": "x" * 3000}

    async def scenario() -> None:
        for seq in range(1, 301):
            await asyncio.gather(*(store.append(f"r{i}", seq, "action", pad)
                                   for i in range(4)))
            await asyncio.sleep(0.002)

    try:
        run(scenario())
        # (the log's file keeps the size of its longest run: SQLite writes it again
        # from its beginning, and removes it when the last connection closes)
        size = (tmp_path / "rooms.db-wal").stat().st_size
        assert size < 1_500_000, size
    finally:
        store.close()
