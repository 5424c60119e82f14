"""The analyses behind the players' statistics, worked out in the background.

"My games" shows the points a player's cards lost on average over his deals whose
analysis is kept (:mod:`belote.analysis_cache`, double dummy: :data:`DD_ONLY`).  The
page never analyses: it hands the deals not analysed yet to this server's one
:class:`AnalysisFiller`, a thread that analyses them one at a time, the oldest asked
first, and keeps each analysis through the store's writer thread; the next visit
counts them ("average over 37 deals analysed out of 52").

The search itself runs in a child process (one, made on the first deal asked and
kept): the compiled solver holds the interpreter's lock for the whole of a search,
so run on a thread of the server it would stall the event loop, and every table
with it, for tens of milliseconds at a time.  The thread only waits for the child.

The work is bounded: at most :data:`MAX_QUEUED` deals wait (those asked beyond are
asked again at a later visit), a deal is queued once, and the thread stops with the
server's store (the child is then shut down, an analysis under way abandoned).  A deal the
analysis refuses (a record the engine no longer reads) is logged and not asked again
while the server runs.
"""

from __future__ import annotations

import logging
import multiprocessing
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

from belote.analysis_cache import DD_ONLY, analyse, deal_hash, store_analysis
from belote.errors import BeloteError
from belote.web.store import RoomStore, StoreError

log = logging.getLogger("belote.web.analysis_fill")

MAX_QUEUED: Final = 200  # deals waiting at most
MAX_REMEMBERED: Final = 10_000  # deals remembered as done or refused (then forgotten)


def _analyse_dd(record: dict[str, Any]) -> dict[str, Any]:
    """One deal's double-dummy analysis (in the child process)."""
    return analyse(record, DD_ONLY)


def _keeper(record: dict[str, Any], analysis: dict[str, Any]
            ) -> Callable[[sqlite3.Connection], None]:
    """The write that keeps one analysis (on the store's writer thread)."""
    def write(conn: sqlite3.Connection) -> None:
        store_analysis(conn, record, DD_ONLY, analysis)

    return write


class AnalysisFiller:
    """One server's background analyses (module doc).  :meth:`want` is called by the
    pages (any thread), the analyses run on the filler's own thread, started on the
    first deal asked."""

    def __init__(self, store: RoomStore, max_queued: int = MAX_QUEUED) -> None:
        self.store = store
        self.max_queued = max_queued
        self._queue: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        self._guard = threading.Lock()
        self._waiting: set[str] = set()  # queued or under way
        self._seen: set[str] = set()  # analysed (being written) or refused
        self._thread: threading.Thread | None = None
        self._pool: ProcessPoolExecutor | None = None

    def want(self, records: Iterable[dict[str, Any]]) -> int:
        """Queue the deals of ``records`` neither waiting nor done, up to the bound;
        how many were queued."""
        added = 0
        with self._guard:
            for record in records:
                if len(self._waiting) >= self.max_queued:
                    break
                key = deal_hash(record)
                if key in self._waiting or key in self._seen:
                    continue
                self._waiting.add(key)
                self._queue.put((key, record))
                added += 1
            if added and self._thread is None:
                self._thread = threading.Thread(target=self._run, name="belote-analyses",
                                                daemon=True)
                self._thread.start()
        return added

    def waiting(self) -> int:
        """The deals queued or under way."""
        with self._guard:
            return len(self._waiting)

    def _run(self) -> None:
        # A fresh interpreter (spawn), not a fork of a server that runs threads.
        self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        try:
            self._serve(self._pool)
        finally:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def _serve(self, pool: ProcessPoolExecutor) -> None:
        while not self.store.closed:
            try:
                key, record = self._queue.get(timeout=1.0)
            except queue.Empty:
                continue
            job = pool.submit(_analyse_dd, record)
            while True:  # waiting for the child; the store closing abandons the job
                try:
                    found = job.result(timeout=1.0)
                    break
                except FuturesTimeout:
                    if self.store.closed:
                        return
                except BeloteError as exc:
                    log.warning("a deal of the history cannot be analysed: %s", exc)
                    found = None
                    break
                except BrokenProcessPool:
                    log.error("the analyses' process stopped: no more analyses until "
                              "the server restarts")
                    return
                except Exception:  # a bug of the analysis: logged, the others go on
                    log.exception("a deal of the history could not be analysed")
                    found = None
                    break
            if found is not None:
                try:
                    self.store.writer.post(_keeper(record, found))
                except StoreError:
                    return  # the server stops: analysed again at a later start
            self._done(key)

    def _done(self, key: str) -> None:
        with self._guard:
            self._waiting.discard(key)
            if len(self._seen) >= MAX_REMEMBERED:
                self._seen.clear()
            self._seen.add(key)
