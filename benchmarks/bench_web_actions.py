"""The web server's cost of one action, sockets left out: rooms of heuristic bots.

``bench_web_load.py --step`` measures the whole server (uvicorn, the sockets, the
kernel's loopback) by CPU time, which moves with the machine's load.  This one runs
the path of a move inside one process, as ``belote serve`` runs it but for the
sockets: ``--tables`` rooms of four heuristic bots (the server's bots, decided on the
event loop by ``bots.base.next_action``), each watched by one connection whose
messages go nowhere, every move checked by the engine, written to the rooms' SQLite
log by the store's writer thread before it is broadcast, and the watcher's state
built as its JSON text (``web.room_state.state_texts``).  No pauses: the bots play
as fast as the event loop lets them.

Two measures:

* by default, CPU time (``time.process_time``, every thread) per action over
  ``--actions`` actions after a warm-up;
* ``--instructions`` (needs valgrind): the run under callgrind to ``--actions`` and to
  a few hundred actions, the difference in instructions divided by the difference in
  actions, so that start-up and the first deals are left out.  Instruction counts do
  not depend on the machine's load (the hash seed is fixed), which makes two versions
  of the code comparable on a shared machine: a proxy for CPU time, not the same
  thing (the writer thread's commits vary a little with how the threads interleave).

Run:

    .venv/bin/python benchmarks/bench_web_actions.py [--tables 50] [--actions 4000]
    .venv/bin/python benchmarks/bench_web_actions.py --instructions --actions 2600
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from belote.web.app import serving_gc
from belote.web.clients import Client
from belote.web.room_manager import RoomManager
from belote.web.rooms import Room, RoomSettings
from belote.web.store import RoomStore

T = TypeVar("T")

WARM_UP = 600  # actions before the count starts (--instructions: the smaller run)


async def play(tables: int, actions: int, profile: str) -> tuple[int, int, float]:
    """Play ``tables`` rooms until ``actions`` actions in all; answers the actions
    played, those counted after the first :data:`WARM_UP` and their CPU seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        store = RoomStore(Path(tmp) / "rooms.db")
        settings = RoomSettings(bot_delay=0.0, trick_pause=0.0, deal_pause=0.0,
                                max_rooms=100_000)
        manager = RoomManager(settings, seed=1, store=store, rooms_per_client=1_000_000)
        sent = 0

        async def send(text: str) -> None:
            nonlocal sent
            sent += 1

        rooms: list[Room] = []
        for _ in range(tables):
            rooms.append(await manager.create(profile, bots="heuristic", target=1_000_000,
                                              client="bench", creator="bench"))
        serving_gc()  # as belote serve runs
        loop = asyncio.get_running_loop()
        pumps = []
        for room in rooms:
            await room.start()
            watcher = Client(send, "bench")
            room.attach(watcher)
            pumps.append(loop.create_task(watcher.pump()))
        start_actions, start_cpu = 0, 0.0
        while (done := sum(r.actions for r in rooms)) < actions:
            if not start_actions and done >= min(WARM_UP, actions // 2):
                start_actions, start_cpu = done, time.process_time()
            await asyncio.sleep(0.005)  # (the bots play meanwhile)
        cpu = time.process_time() - start_cpu
        for room in rooms:
            await room.stop()
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
        await manager.close()
        store.close()
    return done, done - start_actions, cpu


def run(coroutine: Coroutine[Any, Any, T], loop: str) -> T:
    """Run ``coroutine`` on asyncio's own event loop or uvloop's (``auto``: uvloop
    where it is installed, as ``belote serve`` runs)."""
    if loop != "asyncio":
        try:
            import uvloop
        except ImportError:
            if loop == "uvloop":
                raise SystemExit("--loop uvloop: uvloop is not installed") from None
        else:
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                return runner.run(coroutine)
    return asyncio.run(coroutine)


def counted(args: argparse.Namespace, actions: int) -> tuple[int, int]:
    """(actions, instructions) of this file run under callgrind to ``actions``."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--tables", str(args.tables), "--actions", str(actions),
         "--profile", args.profile, "--loop", args.loop, "--report-actions"],
        capture_output=True, text=True, env=env, check=True, timeout=3600)
    played = re.search(r"^actions (\d+)$", done.stdout, re.M)
    total = re.search(r"Collected : (\d+)", done.stderr)
    if played is None or total is None:
        raise SystemExit(f"callgrind's run said nothing countable:\n{done.stderr[-2000:]}")
    return int(played.group(1)), int(total.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="rooms of four bots")
    parser.add_argument("--actions", type=int, default=4000,
                        help="calls and cards in all (the count starts after "
                        f"{WARM_UP})")
    parser.add_argument("--profile", default="classic",
                        choices=("classic", "moroccan", "coinche", "contree"))
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under callgrind instead of timing")
    parser.add_argument("--loop", default="auto", choices=("auto", "asyncio", "uvloop"),
                        help="the event loop (auto: uvloop where installed, as belote serve; "
                        "the figures before 2026-12-04 are asyncio's)")
    parser.add_argument("--report-actions", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 1 <= args.tables <= 5000 or not WARM_UP <= args.actions <= 1_000_000:
        parser.error(f"--tables: 1 to 5000; --actions: {WARM_UP} to 1000000")
    if args.instructions and args.actions < 2 * WARM_UP:
        parser.error(f"--instructions: --actions at least {2 * WARM_UP}")
    if args.report_actions:  # one run under callgrind: every action, start-up included
        done, _counted, _cpu = run(play(args.tables, args.actions, args.profile), args.loop)
        print(f"actions {done}")
        return
    if args.instructions:
        few, few_count = counted(args, WARM_UP)
        many, many_count = counted(args, args.actions)
        per = (many_count - few_count) / (many - few)
        print(f"{args.tables} tables of heuristic bots, {many - few} actions: "
              f"{per:,.0f} instructions an action (sockets left out; loop {args.loop})")
        return
    begun = time.perf_counter()
    _done, done, cpu = run(play(args.tables, args.actions, args.profile), args.loop)
    print(f"{args.tables} tables of heuristic bots, {done} actions: {1e6 * cpu / done:.0f} us "
          f"of CPU an action (sockets left out; loop {args.loop}; load average "
          f"{os.getloadavg()[0]:.2f}, "
          f"{time.perf_counter() - begun:.1f} s)")


if __name__ == "__main__":
    main()
