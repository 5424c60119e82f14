"""The bots' pace on the grid of :data:`belote.web.driver.PACE_GRID_S`, and what a late
event loop changes of their games.

When the loop keeps up, each point's bots act from the turn of their point on,
``GRID_SLICE`` a turn, none later than its slices.  This is checked on a clock of the
test's own (each turn of the loop one tick of it), so that what is asserted does not
hang on the machine's speed; and whole games of bots play the same with and without
a loaded loop (a late loop changes when bots act, never what they play).
"""

from __future__ import annotations

import asyncio
import functools
import time
from pathlib import Path
from typing import Any

import pytest

from belote.web import driver
from belote.web.room_manager import RoomManager
from belote.web.rooms import Client, Room, RoomSettings
from belote.web.store import RoomStore

from .support import run_async

# A turn of the simulated loop, in seconds of its clock.  The clock moves at the start
# of each turn: the turn in which a point of the grid is reached reads one tick past it.
TICK = 0.001


async def _nothing(text: str) -> None:
    pass


def _simulate(delays: list[float], jumps: dict[int, float] | None = None
              ) -> list[tuple[int, int, float]]:
    """Pauses of ``delays`` (seconds) begun together on an event loop whose clock is
    the test's: each turn of the loop moves it one :data:`TICK`, the turns in
    ``jumps`` (turn number: seconds) as long as they say (the loop running late).
    Answers, in the order the pauses ended: (the pause's index, the turn of the loop
    it ended in, how late it ended after its point of the grid, in seconds)."""
    jumps = jumps or {}

    async def scenario() -> list[tuple[int, int, float]]:
        loop = asyncio.get_running_loop()
        clock = [1000.0]  # (a point of the grid: every pause's end is a point too)
        turn = [0]
        loop.time = lambda: clock[0]  # type: ignore[method-assign]
        stop = [False]

        def ticker() -> None:  # one call a turn of the loop
            turn[0] += 1
            clock[0] += jumps.get(turn[0], TICK)
            if not stop[0]:
                loop.call_soon(ticker)

        ended: list[tuple[int, int, float]] = []

        def note(i: int, end: float, _woken: asyncio.Future[None]) -> None:
            # (run in the turn after the pause ended: one tick later)
            ended.append((i, turn[0] - 1, clock[0] - TICK - end))

        futures = []
        for i, delay in enumerate(delays):
            end = driver.pace_end(clock[0], delay)
            woken = driver.pace(delay)
            woken.add_done_callback(functools.partial(note, i, end))
            futures.append(woken)
        loop.call_soon(ticker)
        await asyncio.gather(*futures)
        stop[0] = True
        await asyncio.sleep(0)
        return ended

    return run_async(scenario)


def _per_turn(ended: list[tuple[int, int, float]]) -> list[int]:
    """How many pauses ended in each turn of the loop that ended any, in order."""
    counts: dict[int, int] = {}
    for _i, t, _late in ended:
        counts[t] = counts.get(t, 0) + 1
    return [counts[t] for t in sorted(counts)]


def test_bots_keep_their_pace_when_the_loop_is_not_behind(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Twenty bots due on each of three points of the grid, the loop keeping up (a
    point's bots have all acted before the next point): each point's bots act from
    the turn of their point on, six a turn, in the order they began; none later than
    the three turns its slices take after its point's (which reads a tick past it)."""
    monkeypatch.setattr(driver, "GRID_SLICE", 6)
    delays = [0.1] * 20 + [0.12] * 20 + [0.14] * 20
    ended = _simulate(delays)
    assert [i for i, _, _ in ended] == list(range(60))
    assert _per_turn(ended) == [6, 6, 6, 2] * 3
    assert all(TICK - 1e-9 <= late <= 4 * TICK + 1e-9 for _, _, late in ended)
    firsts = [t for i, t, _ in ended if i in (0, 20, 40)]
    assert firsts[1] - firsts[0] >= 19 and firsts[2] - firsts[1] >= 19  # 20 ms apart


# --- whole games, with and without a loaded loop --------------------------------------


def _games(tmp_path: Path, loaded: bool) -> list[list[Any]]:
    """Twelve tables of heuristic bots played over 40 actions each (bots 20 ms apart,
    every move written): each table's log, deal for deal and card for card, as
    written.  ``loaded``: the loop is made late all along (a turn of 6 ms every other
    turn), so that the bots wait for their slices."""

    async def scenario() -> list[list[Any]]:
        loop = asyncio.get_running_loop()
        store = RoomStore(tmp_path / f"rooms-{loaded}.db")
        settings = RoomSettings(bot_delay=0.02, trick_pause=0.0, deal_pause=0.0,
                                max_rooms=100)
        manager = RoomManager(settings, seed=11, store=store, rooms_per_client=100)
        rooms: list[Room] = [
            await manager.create("classic", bots="heuristic", target=1_000_000,
                                 client="t", creator=f"c{i}") for i in range(12)]
        stop = [False]
        turn = [0]

        def busy() -> None:
            turn[0] += 1
            if turn[0] % 2:
                time.sleep(0.006)
            if not stop[0]:
                loop.call_soon(busy)

        if loaded:
            loop.call_soon(busy)
        for room in rooms:
            await room.start()
            room.attach(Client(_nothing))
        for _ in range(1500):
            if all(r.actions >= 40 for r in rooms):
                break
            await asyncio.sleep(0.02)
        stop[0] = True
        for room in rooms:
            await room.stop()
        await manager.close()
        played = [[data for _seq, kind, data in store.log(room.id)
                   if kind in ("deal", "action")] for room in rooms]
        assert all(r.actions >= 40 for r in rooms)
        store.close()
        return played

    return run_async(scenario)


def test_games_play_the_same_with_and_without_a_loaded_loop(tmp_path: Path) -> None:
    """The bots' slices change when they act, never what: twelve tables of heuristic
    bots play the same calls and cards, table by table, on a loop kept late and on a
    free one (as far as both got).  Checked to fail with a driver that, when a bot's
    slice comes more than 12 ms after its pause, plays the first legal action for it
    (a timeout's auto-play applied to bots): the calls differ from the first deals."""
    free, loaded = _games(tmp_path, False), _games(tmp_path, True)
    for a, b in zip(free, loaded, strict=True):
        n = min(len(a), len(b))
        assert n >= 40
        assert a[:n] == b[:n]
