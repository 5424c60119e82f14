"""A deal analysed in a child process: the one way the web server runs an analysis, for
the review of a deal (:mod:`belote.web.review`, with its progress on the page) and for
the statistics' background analyses (:mod:`belote.web.analysis_fill`).

* **Never on a thread of the server.**  The compiled solver holds the interpreter's
  lock for the whole of a search: run on a thread of the server it would stall the
  event loop, and every table with it.  :func:`belote.analysis_cache.analyse` runs in
  a child process (the ``spawn`` start method: a clean interpreter, nothing of the
  server's threads); the server's thread that called :meth:`AnalysisProcess.run` only
  waits for its messages.
* **Kept between analyses.**  The child is made on the first analysis and answers the
  next ones (a fresh interpreter costs some tenths of a second); one analysis at a
  time each.  A child that died (killed, crashed) is made again by the next analysis.
* **Its messages.**  The child tells its progress (actions done out of the deal's) and
  its answer through a pipe: ``("progress", done, total)``, then ``("done", analysis)``,
  ``("refused", message)`` (the analysis refused the record: :class:`AnalysisRefused`)
  or ``("bug", traceback)`` (any other exception: :class:`AnalysisBug`).
* **Stopped at once.**  :meth:`AnalysisProcess.stop` kills the child (the server
  stops, the review's task was cancelled) and runs no analysis after; a ``cancelled``
  callback that answers true (the store closed), asked at each message of the child
  and every :data:`POLL_S`, kills it too (the next analysis makes another).  The
  analysis under way then raises :class:`AnalysisStopped`.
"""

from __future__ import annotations

import multiprocessing
import threading
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Final

from belote.analysis_cache import AnalysisSettings, analyse
from belote.errors import BeloteError

POLL_S: Final = 0.5  # how often a waiting run asks whether it is cancelled
JOIN_S: Final = 5.0  # how long a child asked to end may take before it is killed


class AnalysisStopped(BeloteError):
    """The child stopped before the analysis's end (stopped, cancelled, or it died)."""


class AnalysisRefused(BeloteError):
    """The analysis refused the deal (a record the engine no longer reads)."""


class AnalysisBug(BeloteError):
    """The analysis failed on an unexpected exception (its traceback in the message)."""


def _serve(conn: Connection) -> None:
    """The child: analyses asked through ``conn`` one after the other, until the pipe
    closes."""
    while True:
        try:
            record, settings = conn.recv()
        except (EOFError, OSError):
            return

        def progress(done: int, total: int) -> None:
            conn.send(("progress", done, total))

        try:
            answer = analyse(record, settings, progress=progress)
        except BeloteError as exc:
            conn.send(("refused", str(exc)))
        except Exception:  # a bug of the analysis: said, and the child goes on
            conn.send(("bug", traceback.format_exc()))
        else:
            conn.send(("done", answer))


class AnalysisProcess:
    """A child process that analyses deals (module doc).  :meth:`run` from a worker
    thread (it waits), one analysis at a time; :meth:`stop` from any thread."""

    def __init__(self, name: str = "belote-analysis") -> None:
        self.name = name
        self.process: Any = None  # the child (multiprocessing's SpawnProcess)
        self._conn: Connection | None = None
        self._run_lock = threading.Lock()
        self._guard = threading.Lock()  # self.process, self._conn and self.stopped
        self.stopped = False

    def run(self, record: dict[str, Any], settings: AnalysisSettings,
            progress: Callable[[int, int], None] | None = None,
            cancelled: Callable[[], bool] | None = None) -> dict[str, Any]:
        """The analysis of deal ``record`` with ``settings`` (its JSON), ``progress``
        called as the child tells it; :class:`AnalysisStopped` if the child is stopped
        (:meth:`stop`, ``cancelled()`` true) or dies first, :class:`AnalysisRefused`
        or :class:`AnalysisBug` as the child answers."""
        with self._run_lock:
            conn = self._child()
            try:
                conn.send((record, settings))
                while True:
                    if cancelled is not None and cancelled():
                        self._forget(conn)
                        raise AnalysisStopped("the analysis was stopped")
                    if not conn.poll(POLL_S):
                        continue
                    message = conn.recv()
                    if message[0] == "progress":
                        if progress is not None:
                            progress(int(message[1]), int(message[2]))
                    elif message[0] == "done":
                        return dict(message[1])
                    elif message[0] == "refused":
                        raise AnalysisRefused(str(message[1]))
                    else:
                        raise AnalysisBug(str(message[1]))
            except (EOFError, OSError):
                self._forget(conn)
                raise AnalysisStopped("the analysis stopped before its end") from None

    def _child(self) -> Connection:
        """The pipe to a live child, made now if there is none."""
        with self._guard:
            if self.stopped:
                raise AnalysisStopped("the server is stopping")
            if self.process is not None and self.process.is_alive() \
                    and self._conn is not None:
                return self._conn
            ctx = multiprocessing.get_context("spawn")
            mine, theirs = ctx.Pipe(duplex=True)
            process = ctx.Process(target=_serve, args=(theirs,), daemon=True, name=self.name)
            process.start()
            theirs.close()
            self.process, self._conn = process, mine
            return mine

    def _forget(self, conn: Connection) -> None:
        """The child behind ``conn`` is gone: the next analysis makes another."""
        with self._guard:
            if self._conn is conn:
                self._end(kill=True)

    def _end(self, kill: bool) -> None:
        process, conn = self.process, self._conn
        self.process = self._conn = None
        if conn is not None:
            conn.close()  # the child's recv ends: it returns
        if process is not None:
            if kill:
                process.kill()
            process.join(timeout=JOIN_S)
            if process.is_alive():
                process.kill()
                process.join()

    def stop(self) -> None:
        """Kill the child now (an analysis under way raises :class:`AnalysisStopped`);
        no analysis runs after."""
        with self._guard:
            self.stopped = True
            process = self.process
            if process is not None and process.is_alive():
                process.kill()
                process.join(timeout=JOIN_S)

    def close(self) -> None:
        """End the child (asked to, killed after :data:`JOIN_S`); the next analysis
        makes another."""
        with self._guard:
            self._end(kill=False)
