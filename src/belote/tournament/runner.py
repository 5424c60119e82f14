"""Running a tournament: the boards cut into chunks of work, played in this process, by
local worker processes (:class:`concurrent.futures.ProcessPoolExecutor`, spawned) or
on a Ray cluster given its address (``ray`` is imported only then), and summarised.

Deck, dealer and every bot's seed come from the tournament seed and the indices of
the pairing, board, table and seat (:mod:`belote.tournament.seeding`), so the
results depend neither on the runner nor on how the boards are split.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from belote.bots.base import play_deal as bots_play_deal
from belote.bots.registry import make_bot as bots_make_bot
from belote.errors import BeloteError
from belote.options import Rules
from belote.tournament.config import TournamentConfig, TournamentError, import_optional
from belote.tournament.play import BoardResult, BotFactory, Chunk, DealDriver, play_chunk
from belote.tournament.results import TournamentResult, summarize

__all__ = ["Progress", "default_chunk_size", "run_tournament"]

Progress = Callable[[int, int], None]
"""``progress(boards_done, boards_total)``, called as chunks of boards finish."""


def _check_bots(config: TournamentConfig, make_bot: BotFactory) -> None:
    """Build each bot once here, so that a bad spec fails before any work is sent out."""
    for spec in config.bots:
        try:
            make_bot(spec, 0)
        except BeloteError:
            raise
        except (ValueError, TypeError, KeyError) as exc:
            raise TournamentError(f"bot {spec!r}: {exc}") from None


def default_chunk_size(boards: int, pairings: int, workers: int) -> int:
    """Boards per unit of work: about eight units per worker, at most 50 boards."""
    return max(1, min(boards, 50, math.ceil(boards * pairings / (8 * max(1, workers)))))


def _jobs(
    config: TournamentConfig, rules: Rules, chunk: int,
    make_bot: BotFactory, play_deal: DealDriver, keep_records: bool = False,
) -> list[Chunk]:
    return [
        Chunk(rules, config.mode, config.seed, index, (config.bots[i], config.bots[j]),
              start, min(start + chunk, config.boards), make_bot, play_deal, keep_records)
        for index, (i, j) in enumerate(config.pairings)
        for start in range(0, config.boards, chunk)
    ]


class _Tracker:
    """The boards come back: kept, counted, and reported to ``progress``."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total = total
        self.done = 0
        self.progress = progress
        self.boards: list[BoardResult] = []
        if progress is not None:
            progress(0, total)

    def add(self, chunk: Sequence[BoardResult]) -> None:
        self.boards.extend(chunk)
        self.done += len(chunk)
        if self.progress is not None:
            self.progress(self.done, self.total)


def _run_local(jobs: Sequence[Chunk], workers: int, tracker: _Tracker) -> None:
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            tracker.add(play_chunk(job))
        return
    from concurrent.futures.process import BrokenProcessPool

    # Spawned workers: no fork of a process that may run threads (a progress bar, Ray).
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context)
    try:
        pending: set[Future[list[BoardResult]]] = {pool.submit(play_chunk, j) for j in jobs}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                tracker.add(future.result())
    except BrokenProcessPool as exc:
        pool.shutdown(wait=False, cancel_futures=True)
        raise TournamentError(f"a worker process died: {exc}") from None
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _check_reachable(address: str, timeout: float = 10.0) -> None:
    """Fail fast on a ``host:port`` (or ``ray://host:port``) nobody answers at: Ray
    itself retries for minutes.  Other addresses (``auto``, ``local``) pass."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise TournamentError(
            f"cannot reach the Ray cluster at {address!r}: {exc.strerror or exc}"
        ) from None


def _run_ray(
    address: str, make_jobs: Callable[[int], list[Chunk]], tracker: _Tracker
) -> int:
    """Run on a Ray cluster (``ray.init(address=...)`` unless Ray is already
    initialised in this process); one task per chunk.  Returns the cluster's CPUs."""
    import logging

    ray = import_optional("ray", "--ray")
    started = False
    if not ray.is_initialized():
        _check_reachable(address)
        try:
            ray.init(address=address, logging_level=logging.WARNING)
        except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError...
            raise TournamentError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(play_chunk)
        pending = [remote.remote(job) for job in make_jobs(cpus)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                tracker.add(ray.get(ref))
        return cpus
    except Exception as exc:
        # A task's error comes back wrapped in Ray's (its ``cause``): the error itself,
        # its one-line message and the bot's traceback, is what the caller wants.
        cause = getattr(exc, "cause", None)
        if isinstance(cause, BeloteError):
            raise cause from None
        if isinstance(exc, BeloteError):
            raise
        raise TournamentError(f"Ray: {exc}") from None
    finally:
        if started:
            ray.shutdown()


def run_tournament(
    config: TournamentConfig,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
    make_bot: BotFactory | None = None,
    play_deal: DealDriver | None = None,
    keep_records: bool = False,
) -> TournamentResult:
    """Play a round robin of duplicate boards and summarise it.

    ``workers``: local worker processes (default: the CPU count; 1 plays in this
    process).  ``ray_address``: run on that Ray cluster instead (``"auto"``,
    ``"ray://host:10001"``, ``"local"`` for a fresh local instance); when Ray is
    already initialised in this process, that instance is used.  ``progress``
    is called with (boards done, boards in all) as work comes back.
    ``make_bot`` and ``play_deal`` replace :func:`belote.bots.make_bot` and
    :func:`belote.bots.play_deal` (module-level functions: they travel to the
    workers by pickling).  The result does not depend on ``workers``, the
    runner or ``chunk_size``.
    """
    rules = config.check()
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise TournamentError(f"workers: {workers!r} is not a positive whole number")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise TournamentError(f"chunk_size: {chunk_size!r} is not a positive whole number")
    make_bot = make_bot or bots_make_bot
    play_deal = play_deal or bots_play_deal
    _check_bots(config, make_bot)
    pairings = len(config.pairings)
    tracker = _Tracker(config.boards * pairings, progress)

    def make_jobs(n: int) -> list[Chunk]:
        chunk = chunk_size or default_chunk_size(config.boards, pairings, n)
        return _jobs(config, rules, chunk, make_bot, play_deal, keep_records)

    start = time.perf_counter()
    if ray_address is not None:
        runner = "ray"
        workers = _run_ray(ray_address, make_jobs, tracker)
    else:
        runner = "local"
        # One worker: every board is its own chunk, for a smooth progress bar.
        _run_local(make_jobs(workers) if workers > 1 else
                   _jobs(config, rules, chunk_size or 1, make_bot, play_deal, keep_records),
                   workers, tracker)
    seconds = time.perf_counter() - start
    results, ladder = summarize(config, tracker.boards)
    kept = tuple(sorted((((b.pairing, b.board, i), t) for b in tracker.boards
                         for i, t in enumerate(b.tables) if t.record is not None),
                        key=lambda item: item[0]))
    return TournamentResult(config, results, ladder, runner, workers, round(seconds, 3),
                            tables=kept)
