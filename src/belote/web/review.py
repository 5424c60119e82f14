"""The review of a finished deal: its analysis worked out off the event loop, kept, and
its share links (:mod:`belote.web.routes_review` serves the pages).

* **The work.**  :func:`belote.analysis.analyze_deal` runs in a child process
  (:class:`~belote.web.analysis_worker.AnalysisProcess`, the background analyses' own
  too): the compiled solver holds the interpreter's lock for its whole search, so in
  a thread it would stop the event loop, and a process can be stopped at once when the
  server does.  The child tells its progress (actions done out of the deal's) and its
  answer through a pipe, read by a worker thread; the page polls it.  A child is kept
  for the next analysis, at most :attr:`ReviewSettings.running` of them.
* **The limits.**  An analysis is CPU-heavy: :attr:`ReviewSettings.running` run at a
  time, at most :attr:`ReviewSettings.waiting` more wait their turn, and one browser
  (identity) has at most one running or waiting; beyond, :class:`ReviewBusy` ("try
  later").  The same deal asked twice is one analysis.  The settings (worlds, seed)
  are the server's, never the client's.
* **The cache.**  A finished analysis is kept in the database of the rooms and the
  history (:mod:`belote.analysis_cache`: keyed by the deal record's hash and the
  settings), written by the store's writer thread: a second visit, even after a
  restart, is answered at once.  The cache is bounded (:attr:`Reviews.cache_bytes`,
  ``belote serve --analysis-cache-mb``): past it, the analyses read least recently are
  dropped (each read is noted, at most once a minute a deal), and a dropped deal's
  review works its analysis out again when asked.
* **Share links.**  A seat of the game may make a link to one deal's review:
  ``/review/{game}/{deal}?key=SECRET``, the secret from :func:`secrets.token_urlsafe`,
  kept per deal (one at a time: making a new one replaces it) and compared in constant
  time; a seat may revoke it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any, Final

from belote import analysis_cache
from belote.actions import Call as CallAction
from belote.actions import Play
from belote.analysis_cache import AnalysisSettings, deal_hash
from belote.cards import card_name, trump_name
from belote.errors import BeloteError, Refusal
from belote.game import Match
from belote.play import SEAT_NAMES
from belote.round import Round
from belote.table import Phase
from belote.web.analysis_worker import AnalysisProcess
from belote.web.present import sort_hand
from belote.web.seats import Visibility
from belote.web.security import secret_equal
from belote.web.settings import RoomSettings
from belote.web.store import READ_WAIT_S, RoomStore, StoreError, record_of_log

LINKS_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS review_links (
        room TEXT NOT NULL,
        deal INTEGER NOT NULL,
        secret TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (room, deal))""",
)
SECRET_BYTES: Final = 24  # 32 base64url characters, 192 bits
MAX_DEAL: Final = 10_000  # a deal's number beyond any game's
KEEP_FAILED: Final = 32  # failed analyses remembered (their message) at most
TOUCH_EVERY_S: Final = 60.0  # a cached analysis's read noted at most this often
MAX_TOUCHED: Final = 10_000  # deals whose last note is remembered (then forgotten)


@dataclass(frozen=True)
class ReviewSettings:
    """How the server analyses a deal (the same for every client) and how many at once."""

    worlds: int | None = 16  # the worlds drawn per decision (None: the bot's default)
    seed: int = 0
    dd_only: bool = False  # double dummy only (no "given what you knew", no bot calls)
    max_nodes: int | None = None
    running: int = 1  # analyses at a time
    waiting: int = 3  # analyses waiting their turn, beyond those running

    def analysis_settings(self) -> AnalysisSettings:
        """The analysis asked (and the cache's key for it): every seat's view, or double
        dummy only."""
        return AnalysisSettings(seats=() if self.dd_only else None, worlds=self.worlds,
                                seed=self.seed, max_nodes=self.max_nodes)


class ReviewBusy(BeloteError):
    """No analysis can start now (the limits, module doc): try later.  Refused by code:
    ``one_analysis_at_a_time`` (:attr:`mine`: this browser already has one under way)
    or ``analyses_busy`` (the server's queue is full)."""

    @property
    def mine(self) -> bool:
        return self.refusal is Refusal.ONE_ANALYSIS_AT_A_TIME


@dataclass
class Job:
    """One analysis asked for: waiting, running, done (its answer) or failed."""

    key: str
    record: dict[str, Any]
    owner: str
    state: str = "waiting"
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def active(self) -> bool:
        return self.state in ("waiting", "running")

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "done": self.done, "total": self.total,
                "error": self.error}


@dataclass(frozen=True)
class FoundDeal:
    """One deal of a room's game, read back from the room's log."""

    room: str
    n: int
    record: dict[str, Any]
    finished: bool
    players: int


# --- the service ----------------------------------------------------------------------


class Reviews:
    """The analyses of one server (module doc), over the rooms' database."""

    def __init__(self, store: RoomStore, settings: ReviewSettings | None = None,
                 cache_bytes: int | None = int(RoomSettings.analysis_cache_bytes)) -> None:
        self.store = store
        self.settings = settings or ReviewSettings()
        self.cache_bytes = cache_bytes  # the analyses' cache's bound (None: none)
        self.jobs: dict[str, Job] = {}
        self._idle: list[AnalysisProcess] = []  # children kept for the next analyses
        self._busy: set[AnalysisProcess] = set()
        self._touched: dict[str, float] = {}  # key_of -> when its read was last noted
        self._slots: asyncio.Semaphore | None = None
        try:
            self._conn = sqlite3.connect(store.path, timeout=READ_WAIT_S,
                                         isolation_level=None, check_same_thread=False)
            self._conn.execute(f"PRAGMA busy_timeout = {int(READ_WAIT_S * 1000)}")
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                analysis_cache.setup(self._conn)
                for sql in LINKS_SCHEMA:
                    self._conn.execute(sql)
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(f"database {store.path!r}: {exc}") from None

    def close(self) -> None:
        """Stop every analysis (their processes killed) and let go of the database."""
        for process in [*self._busy, *self._idle]:
            process.stop()
        self._idle.clear()
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()

    # --- the deals -------------------------------------------------------------------

    def find_deal(self, room: str, n: int) -> FoundDeal | None:
        """Deal ``n`` (from 1) of the game of ``room`` as its log holds it, or None
        (no such room, no such deal, a log that cannot be read back)."""
        if not 1 <= n <= MAX_DEAL:
            return None
        # its own connection: it runs in a worker thread (routes_review), beside the loop's
        try:
            conn = sqlite3.connect(self.store.path, timeout=READ_WAIT_S)
            try:
                rows = conn.execute("SELECT profile, options FROM rooms WHERE id = ?",
                                    (room,)).fetchall()
                log = [(seq, kind, json.loads(data)) for seq, kind, data in conn.execute(
                    "SELECT seq, kind, data FROM room_log WHERE room = ? ORDER BY seq",
                    (room,))]
            finally:
                conn.close()
        except sqlite3.Error as exc:
            raise StoreError(f"the rooms could not be read ({exc})") from None
        if not rows:
            return None
        record = record_of_log(rows[0][0], json.loads(rows[0][1]), log)
        if record is None or len(record["deals"]) < n:
            return None
        try:
            rounds = Match.from_record(record).rounds
        except BeloteError:
            return None
        if len(rounds) < n:
            return None
        rnd = rounds[n - 1]
        return FoundDeal(room, n, rnd.record(), rnd.phase in (Phase.OVER, Phase.ALL_PASS),
                         rnd.table.players)

    # --- share links -----------------------------------------------------------------

    async def make_link(self, room: str, n: int) -> str:
        """A new secret for deal ``n`` of ``room`` (the one before no longer opens it)."""
        secret = secrets.token_urlsafe(SECRET_BYTES)

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT OR REPLACE INTO review_links (room, deal, secret, created) "
                         "VALUES (?, ?, ?, ?)", (room, n, secret, time.time()))

        await self.store.writer.submit(write)
        return secret

    async def revoke_link(self, room: str, n: int) -> None:
        def write(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM review_links WHERE room = ? AND deal = ?", (room, n))

        await self.store.writer.submit(write)

    def link_secret(self, room: str, n: int) -> str | None:
        row = self._conn.execute("SELECT secret FROM review_links WHERE room = ? AND deal = ?",
                                 (room, n)).fetchone()
        return None if row is None else str(row[0])

    def link_opens(self, room: str, n: int, key: str | None) -> bool:
        """Whether ``key`` is the secret of deal ``n``'s link (compared in constant time)."""
        if not key:
            return False
        return secret_equal(self.link_secret(room, n), key)

    def invite_opens(self, room: str, invite: str | None) -> bool:
        """Whether ``invite`` is the invitation of ``room`` (a room with friends: whoever
        was invited may watch its game, and so review its finished deals)."""
        if not invite:
            return False
        row = self._conn.execute("SELECT invite FROM rooms WHERE id = ?", (room,)).fetchone()
        return row is not None and secret_equal(row[0], invite)

    def public_room(self, room: str) -> bool:
        """Whether ``room`` is public (listed on /rooms: anyone could watch its game
        live, and so may review its finished deals)."""
        row = self._conn.execute("SELECT visibility FROM rooms WHERE id = ?",
                                 (room,)).fetchone()
        return row is not None and row[0] == Visibility.PUBLIC

    # --- the analyses ----------------------------------------------------------------

    def key_of(self, record: dict[str, Any]) -> str:
        return f"{deal_hash(record)}/{self.settings.analysis_settings().key()}"

    def cached(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """The analysis kept for ``record`` with the server's settings, or None; its
        read noted (through the writer, at most every :data:`TOUCH_EVERY_S`), so that
        the cache's bound drops it after those read longer ago."""
        asked = self.settings.analysis_settings()
        try:
            found = analysis_cache.cached_analysis(self._conn, record, asked)
        except sqlite3.Error as exc:
            raise StoreError(f"the analyses could not be read ({exc})") from None
        if found is not None:
            self._touch(record, asked)
        return found

    def _touch(self, record: dict[str, Any], asked: AnalysisSettings) -> None:
        key, now = self.key_of(record), time.monotonic()
        last = self._touched.get(key)
        if last is not None and now - last < TOUCH_EVERY_S:
            return
        if len(self._touched) >= MAX_TOUCHED:
            self._touched.clear()
        self._touched[key] = now
        with contextlib.suppress(StoreError):  # the server stops: the note is not needed
            self.store.writer.post(lambda conn: analysis_cache.touch(conn, record, asked))

    def job(self, record: dict[str, Any]) -> Job | None:
        return self.jobs.get(self.key_of(record))

    def start(self, owner: str, record: dict[str, Any]) -> Job:
        """The analysis of ``record`` started for ``owner`` (or the one already under
        way); :class:`ReviewBusy` beyond the limits (module doc)."""
        key = self.key_of(record)
        job = self.jobs.get(key)
        if job is not None and job.active:
            return job
        active = [j for j in self.jobs.values() if j.active]
        if any(j.owner == owner for j in active):
            raise ReviewBusy.refused(Refusal.ONE_ANALYSIS_AT_A_TIME)
        if len(active) >= self.settings.running + self.settings.waiting:
            raise ReviewBusy.refused(Refusal.ANALYSES_BUSY)
        job = Job(key, record, owner)
        self.jobs[key] = job
        job.task = asyncio.create_task(self._run(job))
        return job

    async def _run(self, job: Job) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.settings.running)
        loop = asyncio.get_running_loop()
        asked = self.settings.analysis_settings()
        bound = self.cache_bytes

        def progress(done: int, total: int) -> None:
            loop.call_soon_threadsafe(_progress, job, done, total)

        try:
            async with self._slots:
                job.state = "running"
                process = self._idle.pop() if self._idle else AnalysisProcess()
                self._busy.add(process)
                try:
                    result = await asyncio.to_thread(process.run, job.record, asked,
                                                     progress)
                except asyncio.CancelledError:
                    process.stop()
                    raise
                finally:
                    self._busy.discard(process)
                    if not process.stopped:
                        self._idle.append(process)
                await self.store.writer.submit(
                    lambda conn: analysis_cache.store_analysis(
                        conn, job.record, asked, result, max_bytes=bound))
            job.result = result
            job.state = "done"
            self.jobs.pop(job.key, None)  # the cache answers from now on
        except BeloteError as exc:
            job.state = "failed"
            job.error = str(exc)
            failed = [k for k, j in self.jobs.items() if j.state == "failed"]
            for k in failed[:-KEEP_FAILED]:
                self.jobs.pop(k, None)


def _progress(job: Job, done: int, total: int) -> None:
    job.done, job.total = done, total


# --- the deal as the page replays it ---------------------------------------------------


def replay_steps(record: dict[str, Any]) -> dict[str, Any]:
    """What the review page shows at each card of deal ``record``: every hand then
    (open), the cards already on the trick, and at the end of a trick who took it; the
    calls in order; the contract; the pack (``french`` or ``spanish``: the page names and
    draws the cards as the table did)."""
    full = Round.from_record(record)
    rnd = Round.from_record({**record, "actions": []})
    players = rnd.table.players
    calls: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    on_table: list[dict[str, str]] = []
    for i, action in enumerate(full.actions(), start=1):
        seat = rnd.current_player()
        if isinstance(action, Play):
            contract = rnd.contract
            trump = contract.trump if contract is not None else None
            tricks_before = len(rnd.tricks)
            card = card_name(action.card)
            steps.append({
                "action": i, "seat": SEAT_NAMES[seat], "card": card,
                "trick": tricks_before + 1,
                "hands": {SEAT_NAMES[s]: sort_hand(rnd.hand(s), trump)
                          for s in range(players)},
                "table": list(on_table),
            })
            rnd.apply(action)
            on_table.append({"seat": SEAT_NAMES[seat], "card": card})
            if len(rnd.tricks) > tricks_before:
                steps[-1]["winner"] = SEAT_NAMES[rnd.tricks[-1].winner]
                on_table = []
        else:
            if isinstance(action, CallAction):
                caller = seat if action.seat is None else action.seat
                calls.append({"action": i, "seat": SEAT_NAMES[caller], "call": action.call})
            rnd.apply(action)
    contract = full.contract
    return {
        "players": players,
        "deck": str(full.rules.deck),  # the pack the cards are named and drawn from (§1.2)
        "dealer": SEAT_NAMES[full.dealer],
        "calls": calls,
        "steps": steps,
        "contract": None if contract is None else {
            "taker": SEAT_NAMES[contract.taker], "trump": trump_name(contract.trump)},
    }
