"""Load on the web app: many tables played at once over WebSockets on loopback.

Starts ``belote serve`` (the real command, in its own process) on a free
loopback port, opens ``--tables`` rooms, and has this process play ``--seats``
seats of each table as a client would: one WebSocket per seat, ``hello`` with
the seat's token, then on each turn a random legal call or card after a think
time.  The other seats are the server's random bots, paced by ``--bot-delay``.
Every move of the client goes the whole way: the JSON message, the seat check,
the rules, the state built for each seat from its own view, and the sends.

Measured over ``--seconds`` after a warm-up:

* actions per second: every call and card of every table (the server counts
  them per room; bots' moves included);
* the latency of a move: from the client sending its call or card to it
  receiving the state that shows it (median, p99, max);
* the server's CPU time (from /proc) over the same window.

Run (the defaults are the goal: 200 tables, p99 under 100 ms):

    .venv/bin/python benchmarks/bench_web_load.py
    .venv/bin/python benchmarks/bench_web_load.py --think 0 --bot-delay 0   # flat out

Bounded: at most ``--tables`` rooms (≤ 1000), ``--seconds`` (≤ 300) of play,
loopback only, and the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HOST = "127.0.0.1"
SEATS = "NESW"


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    measuring: bool = False
    moves: int = 0


@dataclass
class Table:
    room: str
    tokens: dict[str, str]
    cookies: dict[str, str]  # each seat's browser identity cookie (its WebSocket sends it)
    actions: int = 0  # the room's action count in the latest state seen
    actions_at_start: int = 0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc), None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


async def _new_browser(http: httpx.AsyncClient) -> None:
    """Act as a new browser: a fresh identity cookie and its CSRF token (one seat
    per browser, a token on every POST, as the server asks)."""
    http.cookies.clear()
    r = await http.get("/api/session")
    r.raise_for_status()
    http.headers["X-CSRF-Token"] = r.json()["csrf"]


async def _open_tables(base: str, args: argparse.Namespace) -> list[Table]:
    tables: list[Table] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(args.tables):
            await _new_browser(http)
            r = await http.post("/api/rooms", json={
                "profile": args.profile, "bots": "random", "target": 1_000_000})
            r.raise_for_status()
            room, invite = r.json()["id"], r.json()["invite"]
            tokens: dict[str, str] = {}
            cookies: dict[str, str] = {}
            for i, seat in enumerate(SEATS):
                if i < args.seats:
                    await _new_browser(http)
                    r = await http.post(f"/api/rooms/{room}/seats",
                                        json={"seat": seat, "name": f"P{i}", "invite": invite})
                    r.raise_for_status()
                    tokens[seat] = r.json()["token"]
                    cookies[seat] = http.cookies["belote_id"]
                else:
                    r = await http.post(f"/api/rooms/{room}/seats", json={
                        "seat": seat, "bot": True, "token": next(iter(tokens.values()))})
                r.raise_for_status()
            tables.append(Table(room, tokens, cookies))
    return tables


async def _play_seat(url: str, table: Table, seat: str, first: bool, args: argparse.Namespace,
                     stats: Stats, rng: random.Random, stop: asyncio.Event) -> None:
    """One seat's client: answer each turn after a think time, time each move."""
    cookie = {"Cookie": f"belote_id={table.cookies[seat]}"}
    async with websockets.connect(url, max_size=None, ping_interval=None,
                                  additional_headers=cookie) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table.tokens[seat]}))
        pending: tuple[int, float] | None = None  # (version sent at, time sent)
        acted_on = -1
        thinking: set[asyncio.Task[None]] = set()

        def later(msg: dict[str, Any], version: int, is_move: bool) -> None:
            task = asyncio.create_task(act(msg, version, is_move))
            thinking.add(task)
            task.add_done_callback(thinking.discard)

        async def act(msg: dict[str, Any], version: int, is_move: bool) -> None:
            nonlocal pending, acted_on
            acted_on = version
            if args.think > 0:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
            if stop.is_set():
                return
            if is_move:
                pending = (version, time.perf_counter())
            await ws.send(json.dumps(msg))

        async for raw in ws:
            if stop.is_set():
                break
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                stats.errors.append(f"{table.room} {seat}: {msg['message']}")
                pending = None
                continue
            if kind != "state":
                continue
            version = msg["version"]
            table.actions = max(table.actions, msg["actions"])
            if pending is not None and version > pending[0]:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - pending[1])
                    stats.moves += 1
                pending = None
            if pending is not None or version <= acted_on or msg["status"] != "playing":
                continue
            deal = msg["deal"]
            if msg["between_deals"]:
                if first:
                    later({"type": "next"}, version, False)
                continue
            if deal["turn"] == seat and deal["legal"]:
                choice = rng.choice(deal["legal"])
                if deal["phase"] == "bidding":
                    out = {"type": "call", "call": choice}
                else:
                    out = {"type": "play", "card": choice}
                later(out, version, True)


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    port = _free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "belote", "serve", "--host", HOST, "--port", str(port),
               "--db", str(Path(tmp) / "sheets.db"), "--bot-delay", str(args.bot_delay),
               "--trick-pause", "0", "--deal-pause", "60", "--log-level", "error",
               # One address opens every table and plays every seat: lift the
               # per-client limits a real table never reaches.
               "--rooms-per-client", "100000", "--rooms-per-minute", "100000",
               "--messages-per-second", "100000", "--network-messages-per-second", "1000000",
               "--sockets-per-network", "1000000",
               "--seed", str(args.seed)]
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            async with httpx.AsyncClient(timeout=2) as http:
                for _ in range(300):
                    try:
                        if (await http.get(base + "/")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.1)
                else:
                    raise SystemExit("the server did not start")
            tables = await _open_tables(base, args)
            stats = Stats()
            stop = asyncio.Event()
            rng = random.Random(args.seed)
            tasks = []
            for table in tables:
                url = f"ws://{HOST}:{port}/ws/rooms/{table.room}"
                for i, seat in enumerate(table.tokens):
                    tasks.append(asyncio.create_task(_play_seat(
                        url, table, seat, i == 0, args, stats,
                        random.Random(rng.random()), stop)))
            await asyncio.sleep(0.5)  # every seat connected before the start
            async with httpx.AsyncClient(base_url=base, timeout=30) as http:
                await _new_browser(http)
                for table in tables:
                    token = next(iter(table.tokens.values()))
                    r = await http.post(f"/api/rooms/{table.room}/start", json={"token": token})
                    r.raise_for_status()
            await asyncio.sleep(args.warmup)
            for table in tables:
                table.actions_at_start = table.actions
            cpu0, t0 = _cpu_seconds(server.pid), time.perf_counter()
            stats.measuring = True
            await asyncio.sleep(args.seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - t0
            cpu1 = _cpu_seconds(server.pid)
            actions = sum(t.actions - t.actions_at_start for t in tables)
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    lat = stats.latencies
    return {
        "tables": args.tables,
        "client_seats_per_table": args.seats,
        "connections": args.tables * args.seats,
        "think_s": args.think,
        "bot_delay_s": args.bot_delay,
        "seconds": round(elapsed, 2),
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "client_moves": stats.moves,
        "latency_ms": {
            "p50": round(_percentile(lat, 50) * 1000, 2),
            "p90": round(_percentile(lat, 90) * 1000, 2),
            "p99": round(_percentile(lat, 99) * 1000, 2),
            "max": round(max(lat) * 1000, 2) if lat else None,
        },
        "server_cpu_percent": None if cpu0 is None or cpu1 is None
        else round(100 * (cpu1 - cpu0) / elapsed, 1),
        "errors": stats.errors[:5],
        "error_count": len(stats.errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="simultaneous tables")
    parser.add_argument("--seats", type=int, default=4, choices=(1, 2, 3, 4),
                        help="seats per table played over WebSockets (the rest: bots)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured play time")
    parser.add_argument("--warmup", type=float, default=3.0, help="play before measuring")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a client seat thinks before it acts (0: at once)")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds the server's bots wait before acting")
    parser.add_argument("--profile", default="classic",
                        choices=("classic", "moroccan", "coinche", "contree"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not 1 <= args.tables <= 1000:
        parser.error("--tables: 1 to 1000")
    if not 0 < args.seconds <= 300:
        parser.error("--seconds: more than 0, at most 300")
    result = asyncio.run(_run(args))
    if args.json:
        print(json.dumps(result))
        return
    lat = result["latency_ms"]
    print(f"{result['tables']} tables, {result['connections']} WebSockets "
          f"({result['client_seats_per_table']} client seats a table, think "
          f"{result['think_s']} s, bots {result['bot_delay_s']} s), {result['seconds']} s:")
    print(f"  actions/s       {result['actions_per_s']}  ({result['actions']} actions, "
          f"{result['client_moves']} timed client moves)")
    print(f"  move latency ms p50 {lat['p50']}  p90 {lat['p90']}  p99 {lat['p99']}  "
          f"max {lat['max']}")
    print(f"  server CPU      {result['server_cpu_percent']}% of one core")
    print(f"  errors          {result['error_count']}")
    for e in result["errors"]:
        print(f"    {e}")


if __name__ == "__main__":
    main()
