"""Start-up of ``belote serve`` with the rooms' cap full: the CPU time to know every
open room again, and what opening one room then costs.

Builds (once; ``--db`` keeps it) a rooms database of ``--rooms`` open rooms, each a
game of random bots stopped somewhere between its first deal and its eighth (20 to
300 calls and cards: the length of real tables), written as the server writes it.
Then measures, in CPU time of this process:

* the start-up: the store opened and :meth:`RoomManager.restore` (which reads the
  open rooms' rows and replays none);
* opening one room after that (:meth:`RoomManager.get`: its seats and log read,
  the log replayed through the engine), over a sample of rooms;
* with ``--eager``, every room replayed, which is what the start-up cost before
  rooms were brought back lazily.

    .venv/bin/python benchmarks/bench_room_restore.py            # 2,000 rooms
    .venv/bin/python benchmarks/bench_room_restore.py --eager
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from belote.bots.base import next_action
from belote.cards import card_name
from belote.play import SEAT_NAMES
from belote.web.room_manager import RoomManager
from belote.web.rooms import Room, RoomSettings
from belote.web.seats import RoomStatus
from belote.web.store import RoomStore

SETTINGS = RoomSettings(max_rooms=100_000)


async def _play(room: Room, actions: int) -> None:
    for _ in range(actions):
        if room.status != RoomStatus.PLAYING:
            return
        if room.between:
            await room.next_deal()
            continue
        rnd = room.round
        assert rnd is not None
        seat = rnd.current_player()
        bot = room.seats[seat].bot
        assert bot is not None
        await room.apply(seat, next_action(bot, rnd.view(seat)))


def _events(room: Room) -> list[tuple[str, Any]]:
    """The room's log as the server writes it (start, each deal, its actions)."""
    out: list[tuple[str, Any]] = [("start", {})]
    assert room.match is not None
    for rnd in room.match.rounds:
        out.append(("deal", {"dealer": SEAT_NAMES[rnd.dealer],
                             "deck": [card_name(c) for c in rnd.deck]}))
        out.extend(("action", a) for a in rnd.actions_json())
    return out


async def _build(path: Path, rooms: int, seed: int) -> int:
    """``rooms`` open rooms of realistic length in a new database; answers the log rows."""
    rng = random.Random(seed)
    store = RoomStore(path)
    maker = RoomManager(SETTINGS, seed=seed)  # in memory: the rows are written in bulk
    log: list[tuple[str, int, str, str]] = []
    for i in range(rooms):
        profile = ("classic", "coinche", "classic", "moroccan")[i % 4]
        room = await maker.create(profile, bots="random", client=f"198.51.{i % 250}.0/24",
                                  creator=f"id{i}")
        await room.start()
        await _play(room, rng.randint(20, 300))
        await store.add_room(room.row(), [s.row() for s in room.seats])
        log.extend((room.id, n + 1, kind, json.dumps(data, separators=(",", ":")))
                   for n, (kind, data) in enumerate(_events(room)))
        await room.stop()
        del maker.rooms[room.id]
    store.close()
    # The logs in one transaction (the server writes them a row at a time).
    conn = sqlite3.connect(path)
    with conn:
        conn.executemany("INSERT INTO room_log (room, seq, kind, data) VALUES (?,?,?,?)", log)
    conn.close()
    rows = len(log)
    return rows


async def _measure(path: Path, sample: int, eager: bool, seed: int) -> dict[str, Any]:
    t0 = time.process_time()
    store = RoomStore(path)
    manager = RoomManager(SETTINGS, store=store)
    known = manager.restore()
    start_up = time.process_time() - t0
    assert manager.replays == 0
    ids = sorted(manager.dormant)
    chosen = random.Random(seed).sample(ids, min(sample, len(ids)))
    opening: list[float] = []
    for room_id in chosen:
        t = time.process_time()
        manager.get(room_id)
        opening.append(time.process_time() - t)
    out: dict[str, Any] = {
        "rooms": known, "start_up_cpu_ms": round(start_up * 1000, 1),
        "replays_at_start_up": 0,
        "open_one_room_cpu_ms": {"median": round(statistics.median(opening) * 1000, 2),
                                 "max": round(max(opening) * 1000, 2),
                                 "sample": len(opening)},
    }
    if eager:
        t = time.process_time()
        for room_id in list(manager.dormant):
            manager.get(room_id)
        rest = time.process_time() - t
        out["every_room_replayed_cpu_s"] = round(rest + sum(opening), 2)
    await manager.close()
    store.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=2000)
    parser.add_argument("--db", type=Path, default=None,
                        help="the database to build (or reuse if it exists)")
    parser.add_argument("--sample", type=int, default=100, help="rooms opened one by one")
    parser.add_argument("--eager", action="store_true",
                        help="also replay every room (the former start-up)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.rooms <= 100_000:
        parser.error("--rooms: 1 to 100000")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db if args.db is not None else Path(tmp) / "rooms.db"
        if not path.exists():
            t = time.perf_counter()
            rows = asyncio.run(_build(path, args.rooms, args.seed))
            print(f"built {args.rooms} rooms, {rows} log rows, in "
                  f"{time.perf_counter() - t:.1f} s")
        print(json.dumps(asyncio.run(_measure(path, args.sample, args.eager, args.seed))))


if __name__ == "__main__":
    main()
