"""A room's driver: the task that plays the bots' turns and deals on.

Bots act server-side in the room's driver task (:meth:`Driver.start`), paced by
:class:`~belote.web.seats.RoomSettings` so that people can follow the table: a
bot waits ``bot_delay`` before it acts (``trick_pause`` more before it leads to a
new trick; the pause ends on a grid shared by every table, :data:`PACE_GRID_S`), a
finished deal stays shown ``deal_pause`` while people are here (an
all-pass deal ``all_pass_pause``).  The slow bots (``pimc``) think in a worker
thread so the event loop stays free.  Each action bumps the room's version; a
bot's answer computed for an older version is dropped.

A human whose connections are all closed keeps his seat for the grace period,
and with a turn timer a connected player has that long for his move; then a
stand-in bot plays for him (the room says when: ``Room.stand_in_at``).  The
driver sleeps until then, or until the room wakes it (:meth:`Driver.wake`:
something changed).  Nobody watching: the table waits.

The driver reads and moves the room through :class:`DrivenRoom`.  A bot's turn
is decided by :func:`belote.bots.base.next_action` (the arena's and the terminal
game's driver: the same answers from the same view), and its action goes the way
of a person's (``Room.apply``): through the room's lock, checked and applied by the
engine (``Round.apply``), written by the store's writer thread before it is
broadcast, dropped when the room moved on while it waited; a failure to save it
(another program holding the database) is shown to everyone and tried again a few
seconds later, and a bug stops the game with its error shown, not the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

from belote.actions import Action, Call, Discard
from belote.bots.base import default_discard, next_action
from belote.errors import BeloteError
from belote.play import SEAT_NAMES
from belote.round import ALL_PASS, BIDDING, DISCARD, PLAY, Round
from belote.web.clients import Client
from belote.web.seats import RoomSettings, RoomStatus, Seat, SeatKind
from belote.web.store import StoreError

log = logging.getLogger("belote.web.rooms")

# Bots quick enough to answer on the event loop itself (tens of microseconds).
INLINE_BOTS: Final = frozenset({"random", "heuristic"})

# The bots' turns fall on a grid of PACE_GRID_S seconds: a bot's pause ends at the
# grid's nearest point (at most half of it sooner or later, the same pace on
# average), so that the bots of every table due within those milliseconds act in
# one turn of the event loop: their moves are written in one commit of the writer
# thread, answered to the loop at once and sent together, instead of one wake-up of
# the loop, of the thread and back for each (a quarter of the server's CPU an
# action with hundreds of tables: benchmarks/bench_web_load.py).
PACE_GRID_S: Final = 0.02

# The pauses ending on one point of the grid end in slices of at most GRID_SLICE, a
# turn of the event loop each: the bots of a slice act in one turn (their moves
# written in one commit), then the loop reads what the sockets brought before the
# next slice acts.  With 2,000 tables some 50 bots are due on each point: acting in
# one turn, they held a person's move back until all of them had acted and were sent.
# Six a turn (twelve before): a shorter turn between two reads of the sockets, at the
# cost of more commits (some 1.8 times as many).  The load runs of 2026-12-04 could not
# tell 6 from 12 (docs/results/web-capacity.md); benchmarks/bench_web_load.py
# --grid-slice measures another.
GRID_SLICE = 6

# When set (a list: benchmarks/bench_web_load.py sets it in its server), how late
# each bot woken from the grid acted, in seconds after its point of the grid.
HOLDS: list[float] | None = None


def pace_end(now: float, delay: float) -> float:
    """When a pause of ``delay`` seconds from ``now`` ends: the nearest point of the
    grid of :data:`PACE_GRID_S` (never before ``now``).

    >>> [round(pace_end(10.003, d), 3) for d in (0.6, 0.606, 0.608, 0.001)]
    [10.6, 10.6, 10.62, 10.003]
    """
    return max(now, round((now + delay) / PACE_GRID_S) * PACE_GRID_S)


def pace(delay: float) -> asyncio.Future[None]:
    """A pause of ``delay`` seconds, ending on the grid of :data:`PACE_GRID_S` (0: the
    next turn of the event loop), as a bare future to await.  The pauses ending on one
    point of the grid share one timer of the event loop (:data:`_GRID`): with thousands
    of tables, a timer each made the loop's heap of timers as deep and each pause's way
    through it as long.

    A bare future, not a coroutine: while a table's bot waits, its driver holds the
    future and little else (a coroutine, its frame's cells and the future a pause
    held made some 30,000 objects at 2,000 tables that every young collection of the
    garbage collector went through, for nothing: they die by their count)."""
    loop = asyncio.get_running_loop()
    woken: asyncio.Future[None] = loop.create_future()
    now = loop.time()
    end = pace_end(now, delay) if delay > 0 else now
    if end <= now:
        loop.call_soon(_wake, woken)
        return woken
    point = round(end / PACE_GRID_S)  # (end is that point of the grid)
    points = _GRID.get(loop)
    if points is None:
        points = _GRID[loop] = {}
    waiting = points.get(point)
    if waiting is None:
        waiting = points[point] = []
        loop.call_at(end, _wake_point, points, point)
    waiting.append(woken)
    return woken


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)


# The points of the grid that pauses wait for, by event loop: each point's futures,
# woken together by the point's one timer (pace).
_GRID: Final[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                       dict[int, list[asyncio.Future[None]]]]] = \
    weakref.WeakKeyDictionary()


def _wake_point(points: dict[int, list[asyncio.Future[None]]], point: int) -> None:
    """A point of the grid is reached: every pause ending there is over (but those
    cancelled meanwhile), in the order they began, a slice of :data:`GRID_SLICE` a
    turn of the event loop."""
    _wake_slices(points.pop(point, []), 0, point * PACE_GRID_S)


def _wake_slices(due: list[asyncio.Future[None]], start: int, at: float) -> None:
    """End the pauses ``due[start:]`` (due at the time ``at``): :data:`GRID_SLICE` of
    them now (those cancelled meanwhile left out), the rest at the next turn of the
    loop."""
    woken = 0
    for i in range(start, len(due)):
        if woken >= GRID_SLICE:
            asyncio.get_running_loop().call_soon(_wake_slices, due, i, at)
            break
        if not due[i].done():
            due[i].set_result(None)
            woken += 1
    if HOLDS is not None and woken:
        late = asyncio.get_running_loop().time() - at
        HOLDS.extend([late] * woken)


def _legal(rnd: Round, seat: int) -> Action:
    """A legal action for ``seat`` (a bot's illegal answer replaced)."""
    if rnd.phase == BIDDING:
        return Call("pass")
    if rnd.phase == DISCARD:
        return Discard(tuple(default_discard(rnd.view(seat))))
    return rnd.legal_actions()[0]


class DrivenRoom(Protocol):
    """What the driver reads and does of a room (:class:`belote.web.rooms.Room`)."""

    id: str
    status: RoomStatus
    version: int
    between: bool
    round: Round | None
    settings: RoomSettings
    seats: list[Seat]
    spectators: set[Client]
    error: str | None

    def bot_plays(self, seat: int, now: float | None = None) -> bool: ...

    def stand_in_at(self, seat: int) -> float: ...

    async def apply(self, seat: int, action: Action, version: int | None = None) -> bool: ...

    async def new_deal(self, version: int | None = None) -> None: ...

    def presence(self) -> None: ...

    def changed(self) -> None: ...


class Driver:
    """The driver task of one room (module doc)."""

    def __init__(self, room: DrivenRoom) -> None:
        self.room = room
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Something changed: look again at whose turn it is."""
        self._wake.set()

    def start(self) -> None:
        """Start the driver task (bots, pauses) of a game in progress."""
        if self._task is None and self.room.status == RoomStatus.PLAYING:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _watched(self) -> bool:
        room = self.room
        return bool(room.spectators) or any(s.clients for s in room.seats)

    def _humans_here(self) -> bool:
        return any(s.kind == SeatKind.HUMAN and s.connected for s in self.room.seats)

    async def _run(self) -> None:
        """Play the bots' turns and deal on, while the game lasts."""
        room = self.room
        try:
            while room.status == RoomStatus.PLAYING:
                self._wake.clear()
                if not self._watched():
                    await self._wake.wait()  # nobody looks: the table waits
                    continue
                if room.between:
                    version = room.version
                    pause = (room.settings.deal_pause if self._humans_here()
                             else room.settings.bot_delay)
                    if room.round is not None and room.round.phase == ALL_PASS:
                        # Everyone passed: nothing to look at, the next deal comes.
                        pause = min(pause, room.settings.all_pass_pause)
                    if await self._wait(pause):
                        continue
                    if (room.version == version and room.between
                            and room.status == RoomStatus.PLAYING):
                        await self._saving(functools.partial(room.new_deal, version))
                    continue
                rnd = room.round
                assert rnd is not None
                seat = rnd.current_player()
                if not room.bot_plays(seat):
                    at = room.stand_in_at(seat)
                    if at == float("inf"):
                        await self._wake.wait()
                    else:
                        await self._wait(at - time.monotonic())
                    continue
                # The bot's pause, awaited here (a bare future: :func:`pace`), then
                # its turn, unless the room moved on meanwhile.
                version = room.version
                await pace(self._bot_delay(rnd))
                if self._bot_still_plays(version, seat):
                    await self._bot_turn(rnd, seat, version)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must not take the server down
            log.exception("room %s: the game stopped", room.id)
            room.error = f"the game stopped on an internal error: {exc}"
            room.changed()

    async def _wait(self, seconds: float) -> bool:
        """Sleep ``seconds``; True when woken before (something changed)."""
        try:
            await asyncio.wait_for(self._wake.wait(), timeout=max(seconds, 0.0))
        except TimeoutError:
            return False
        return True

    def _bot_still_plays(self, version: int, seat: int) -> bool:
        """Nothing changed since ``version``, the game goes on and a bot plays ``seat``."""
        room = self.room
        return (room.version == version and room.status == RoomStatus.PLAYING
                and room.bot_plays(seat))

    def _bot_delay(self, rnd: Round) -> float:
        """A bot's pause before it acts, so people see (longer before it leads to a
        new trick)."""
        delay = self.room.settings.bot_delay
        if rnd.phase == PLAY and not rnd.trick and rnd.tricks:
            delay += self.room.settings.trick_pause
        return delay

    async def _bot_turn(self, rnd: Round, seat: int, version: int) -> None:
        """The bot at ``seat`` acts (its pause is over; the room is still at
        ``version``)."""
        room = self.room
        bot = room.seats[seat].bot
        assert bot is not None
        view = rnd.view(seat)
        kind = getattr(bot, "kind", "")
        try:
            if kind in INLINE_BOTS:
                action = next_action(bot, view)
            else:
                action = await asyncio.to_thread(next_action, bot, view)
                if not self._bot_still_plays(version, seat):
                    return
            # Written through the room's lock, as a person's move: dropped if the room
            # moved on while another action held it.
            await room.apply(seat, action, version)
        except StoreError as exc:
            await self._store_failed(exc)
        except BeloteError as exc:
            # A bot answering an action that is not legal is a bug: play on with a legal one.
            log.error("room %s: bot %s at %s: %s", room.id, bot.name, SEAT_NAMES[seat], exc)
            await self._saving(functools.partial(room.apply, seat, _legal(rnd, seat), version))

    async def _saving(self, step: Callable[[], Awaitable[Any]]) -> bool:
        """Run ``step`` (which writes to the log); False when the write failed."""
        try:
            await step()
        except StoreError as exc:
            await self._store_failed(exc)
            return False
        return True

    async def _store_failed(self, exc: StoreError) -> None:
        """A move could not be saved: it is not played; everyone is told, and the
        table tries again a little later."""
        room = self.room
        log.error("room %s: %s", room.id, exc)
        room.error = f"{exc}; the table tries again in a few seconds"
        room.presence()
        await asyncio.sleep(5.0)
        room.error = None
