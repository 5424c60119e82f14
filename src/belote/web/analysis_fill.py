"""The analyses behind the players' statistics, worked out in the background.

"My games" shows the points a player's cards lost on average over his deals whose
analysis is kept (:mod:`belote.analysis_cache`, double dummy: :data:`DD_ONLY`).  The
page never analyses: it hands the deals not analysed yet to this server's one
:class:`AnalysisFiller`, a thread that analyses them one at a time, the oldest asked
first, and keeps each analysis through the store's writer thread; the next visit
counts them ("average over 37 deals analysed out of 52").

The search itself runs in a child process, the review's own way
(:class:`~belote.web.analysis_worker.AnalysisProcess`: one child, made on the first
deal asked and kept): the compiled solver holds the interpreter's lock for the whole
of a search, so run on a thread of the server it would stall the event loop, and
every table with it, for tens of milliseconds at a time.  The thread only waits for
the child.  Each analysis is kept within the cache's bound (:attr:`AnalysisFiller.
cache_bytes`; the statistics' numbers stay when an analysis is dropped,
:mod:`belote.analysis_cache`).

The work is bounded: at most :data:`MAX_QUEUED` deals wait (those asked beyond are
asked again at a later visit), a deal is queued once, and the thread stops with the
server's store (the child is then killed, an analysis under way abandoned).  A deal the
analysis refuses (a record the engine no longer reads), fails on (a bug) or whose child
dies on it is logged and not asked again while the server runs; the next deal gets a
new child if needed.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterable
from typing import Any, Final

from belote.analysis_cache import DD_ONLY, deal_hash, store_analysis
from belote.web.analysis_worker import (
    AnalysisBug,
    AnalysisProcess,
    AnalysisRefused,
    AnalysisStopped,
)
from belote.web.settings import RoomSettings
from belote.web.store import RoomStore, StoreError

log = logging.getLogger("belote.web.analysis_fill")

MAX_QUEUED: Final = 200  # deals waiting at most
MAX_REMEMBERED: Final = 10_000  # deals remembered as done or refused (then forgotten)


def _keeper(record: dict[str, Any], analysis: dict[str, Any], max_bytes: int | None
            ) -> Callable[[sqlite3.Connection], None]:
    """The write that keeps one analysis within the cache's bound (on the store's
    writer thread)."""
    def write(conn: sqlite3.Connection) -> None:
        store_analysis(conn, record, DD_ONLY, analysis, max_bytes=max_bytes)

    return write


class AnalysisFiller:
    """One server's background analyses (module doc).  :meth:`want` is called by the
    pages (any thread), the analyses run on the filler's own thread, started on the
    first deal asked."""

    def __init__(self, store: RoomStore, max_queued: int = MAX_QUEUED,
                 cache_bytes: int | None = int(RoomSettings.analysis_cache_bytes)) -> None:
        self.store = store
        self.max_queued = max_queued
        self.cache_bytes = cache_bytes  # the analyses' cache's bound (None: none)
        self._queue: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        self._guard = threading.Lock()
        self._waiting: set[str] = set()  # queued or under way
        self._seen: set[str] = set()  # analysed (being written) or refused
        self._thread: threading.Thread | None = None
        self.process = AnalysisProcess("belote-analyses")

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
        try:
            self._serve()
        finally:
            self.process.stop()

    def _serve(self) -> None:
        while not self.store.closed:
            try:
                key, record = self._queue.get(timeout=1.0)
            except queue.Empty:
                continue
            found = None
            try:
                found = self.process.run(record, DD_ONLY,
                                         cancelled=lambda: self.store.closed)
            except AnalysisStopped:
                if self.store.closed:
                    return
                log.error("the analyses' process stopped on a deal of the history: "
                          "that deal is left out")
            except AnalysisRefused as exc:
                log.warning("a deal of the history cannot be analysed: %s", exc)
            except AnalysisBug as exc:  # a bug of the analysis: logged, the others go on
                log.error("a deal of the history could not be analysed:\n%s", exc)
            if found is not None:
                try:
                    self.store.writer.post(_keeper(record, found, self.cache_bytes))
                except StoreError:
                    return  # the server stops: analysed again at a later start
            self._done(key)

    def _done(self, key: str) -> None:
        with self._guard:
            self._waiting.discard(key)
            if len(self._seen) >= MAX_REMEMBERED:
                self._seen.clear()
            self._seen.add(key)
