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

The capacity (``--step``): how much one server process holds with its moves'
p99 under 100 ms.  The load steps up, first in *tables of bots* (four bots, one
connection watching each: a table against bots as its player sees it; bots
play only while someone watches), with a probe of ``--probe-tables`` tables of
four client seats whose moves are timed; then, at the most tables that passed
(at most ``--base-tables``), in *connected clients* (tables of four client
seats, every move timed).  Each step prints the p50/p99 of a move, the actions
a second, the server's CPU share and the machine's load, and the steps stop
where p99 passes ``--p99-ms``:

    .venv/bin/python benchmarks/bench_web_load.py --step
    .venv/bin/python benchmarks/bench_web_load.py --step --cprofile  # + where the time goes

The server runs in its own process (uvicorn over ``create_app``, as ``belote
serve`` runs it: on uvloop where it is installed, as uvicorn takes it, or
``--plain-asyncio``; on h11, or ``--http httptools``) with the database on disk and limits that let
this one address open thousands of tables and send as many messages as it likes
(the per-client limits: every table comes from one address here); ``--cprofile``
runs it under cProfile and prints its busiest functions at the end.  The
benchmark's clients run in this process: on a 2-core machine they share the
cores with the server (the load average says how much).

What each step prints besides, to read the p99: the server's loop lag (a 10 ms
tick, p50/p99/max), a write's wait for its commit and the commits (how many, their
size, their wall and CPU time, how many on the event loop's thread), a write's way
stage by stage (``_time_writer_stages``: to the end of the loop's turn, then committed
there or through the writer thread: its wake-up, the transaction, the answer's way
back; and each SQL statement of the writer; and the loop's ticks whose writes went to
the thread, by why: the thread copying the log into the database, the thread busy
otherwise, or neither), the garbage collector's pauses by
generation (how many, the longest in wall and in CPU time, all together; a pause
longer in wall than in CPU time is the process waiting for a core), and the same
loop lag and collector for this process (the clients): a stall there would add to
the moves' latency as the server's does, so this process's objects are frozen
out of its collector before each step.  And: the server's sends (their count, their
CPU time p50 and mean), the writer thread's copies of the log into the database (the
checkpoints: count, wall and CPU time), the machine's CPU steal (a virtual machine's
CPUs ready while the host ran others), how late the server's bots acted after
their point of the grid (``web.driver.HOLDS``: count, p50/p99/max; a server without
it says nothing), the server's event loop (uvloop or asyncio) and its collector's
counters after the step; after the last step, one full scan of
the server's collector, timed (``web.app.full_scan``: the pause ``belote serve``
makes once an hour).  ``--census`` counts the server's young objects by type (what a
young collection goes through).

The rooms play to a target of 1,000,000 points: a game never ends during a run.
A run of a few minutes plays some 4-6 deals a table, as many as the first half of
a real game of 1,000 points (10-20 deals): the rooms' history is not longer than a
real table's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import os
import pstats
import random
import signal
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
from fastapi import Request
from fastapi.responses import JSONResponse

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


def _rss_mb(pid: int) -> float | None:
    """A process's resident memory in MB (Linux /proc), None elsewhere."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


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


# --- the capacity, step by step (--step) -------------------------------------------


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


class Stalls:
    """What stalls a process's event loop, since the last :meth:`take`: its lag (a
    10 ms tick, how late it wakes) and the garbage collector's pauses by generation,
    in wall time and in the process's CPU time (a pause longer in wall time than in
    CPU time was the process waiting for a core, not the collector's work)."""

    def __init__(self, census: bool = False) -> None:
        self.census = census  # count the young generations' objects by type (slow)
        self.young: dict[str, int] = {}
        self.lags: list[float] = []
        self.writes: list[float] = []  # a write's wait for the writer thread (server)
        self.commits: list[tuple[int, float, float]] = []  # (writes, wall, CPU) a commit
        # a write's way, stage by stage (server): name -> durations (_time_writer_stages)
        self.stages: dict[str, list[float]] = {}
        self.pauses: list[tuple[int, float, float]] = []  # (generation, wall, cpu)
        self.sends: list[float] = []  # a WebSocket message's send, CPU time (server)
        self.checkpoints: list[tuple[float, float]] = []  # the log's copies (wall, CPU)
        # the ticks whose writes went to the writer thread, by why: [ticks, writes]
        # (_time_writer_stages): the thread copying the log into the database
        # ("checkpoint"), the thread busy otherwise ("thread"), neither ("other": the
        # database's lock taken, or a write that may not be committed on the loop)
        self.handovers: dict[str, list[int]] = {}
        self.checkpointing = False  # the writer thread is copying the log (server)
        self._began = (0.0, 0.0)
        self._ticker: asyncio.Task[None] | None = None
        gc.callbacks.append(self._gc)

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            if self.census and info["generation"] == 1 and not self.young:
                counts: dict[str, int] = {}
                for o in gc.get_objects(0) + gc.get_objects(1):
                    name = type(o).__module__ + "." + type(o).__qualname__
                    counts[name] = counts.get(name, 0) + 1
                self.young = dict(sorted(counts.items(), key=lambda kv: -kv[1])[:40])
            self._began = (time.perf_counter(), time.thread_time())
        else:
            self.pauses.append((info["generation"], time.perf_counter() - self._began[0],
                                time.thread_time() - self._began[1]))

    def start(self) -> None:
        """Start the ticker (on the running loop), once."""
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def _tick(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - t - 0.01)

    def reset(self) -> dict[str, Any]:
        """Start again (no figures)."""
        self.lags, self.pauses, self.young = [], [], {}
        self.writes, self.commits, self.stages = [], [], {}
        self.sends, self.checkpoints, self.handovers = [], [], {}
        return {}

    def take(self) -> dict[str, Any]:
        """The figures since the last call (and start again)."""
        lags, pauses = self.lags, self.pauses
        writes, self.writes = self.writes, []
        commits, self.commits = self.commits, []
        stages, self.stages = self.stages, {}
        sends, self.sends = self.sends, []
        checkpoints, self.checkpoints = self.checkpoints, []
        handovers, self.handovers = self.handovers, {}
        out = {"handovers": handovers,
               "loop_lag_p99_ms": ms(_percentile(lags, 99)) if lags else 0.0,
               "loop_lag_p50_ms": ms(_percentile(lags, 50)) if lags else 0.0,
               "write_p50_ms": ms(_percentile(writes, 50)) if writes else 0.0,
               "write_p99_ms": ms(_percentile(writes, 99)) if writes else 0.0,
               "commits": [len(commits), round(sum(n for n, _, _ in commits)
                                               / max(1, len(commits)), 1),
                           ms(_percentile([w for _, w, _ in commits], 50)) if commits else 0,
                           ms(_percentile([w for _, w, _ in commits], 99)) if commits else 0,
                           ms(_percentile([c for _, _, c in commits], 50)) if commits else 0,
                           ms(_percentile([c for _, _, c in commits], 99)) if commits else 0],
               # each stage of a write: p50/p99/max ms
               "stages": {name: [ms(_percentile(v, 50)), ms(_percentile(v, 99)), ms(max(v))]
                          for name, v in stages.items() if v},
               "loop_lag_max_ms": ms(max(lags, default=0.0)),
               # the sends: how many, CPU p50 and mean (µs)
               "sends": [len(sends), round(1e6 * _percentile(sends, 50)) if sends else 0,
                         round(1e6 * sum(sends) / len(sends)) if sends else 0],
               # the log's copies into the database: how many, wall p50/max, CPU p50/max (ms)
               "checkpoints": [len(checkpoints),
                               ms(_percentile([w for w, _ in checkpoints], 50))
                               if checkpoints else 0,
                               ms(max((w for w, _ in checkpoints), default=0.0)),
                               ms(_percentile([c for _, c in checkpoints], 50))
                               if checkpoints else 0,
                               ms(max((c for _, c in checkpoints), default=0.0))],
               "gc_full": sum(1 for g, _, _ in pauses if g == 2),
               "gc_max_ms": ms(max((w for _, w, _ in pauses), default=0.0)),
               "gc_total_ms": ms(sum(w for _, w, _ in pauses)),
               # each generation's collections: how many, the longest in wall time and
               # in CPU time, all of them in wall time
               "gc_by_gen": {str(g): [sum(1 for h, _, _ in pauses if h == g),
                                      ms(max((w for h, w, _ in pauses if h == g), default=0.0)),
                                      ms(max((c for h, _, c in pauses if h == g), default=0.0)),
                                      ms(sum(w for h, w, _ in pauses if h == g))]
                             for g in (0, 1, 2)},
               "young": self.young}
        self.lags, self.pauses, self.young = [], [], {}
        return out



class _TimedConnection:
    """The writer's connection, each statement of the writer's own timed (by its
    first word: BEGIN, COMMIT, SAVEPOINT...; a job's statements as ``job``)."""

    def __init__(self, conn: Any, stalls: Stalls) -> None:
        self._real = conn
        self._stalls = stalls

    def _timed(self, how: str, sql: str, *rest: Any) -> Any:
        word = sql.split(None, 1)[0].upper()
        name = word if word in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK") \
            else "job"
        began = time.perf_counter()
        try:
            return getattr(self._real, how)(sql, *rest)
        finally:
            self._stalls.stages.setdefault("sql " + name, []).append(
                time.perf_counter() - began)

    def execute(self, sql: str, *rest: Any) -> Any:
        return self._timed("execute", sql, *rest)

    def executemany(self, sql: str, *rest: Any) -> Any:
        return self._timed("executemany", sql, *rest)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def _time_writer_stages(stalls: Stalls, writer: Any) -> None:
    """Time a write's way (the benchmark's server only): queued on the loop until
    the end of its tick (``tick``); then either committed there on the loop's thread
    (``inline``: the transaction and the answer), or handed to the thread until it
    takes its batch (``queue``: the thread's wake-up, the interpreter's lock), taken
    until answered (``commit``: the database's lock, the statements) and answered
    until its future is settled on the loop (``back``: the loop's wake-up and turns);
    and each of the writer's SQL statements (``sql ...``)."""
    from belote.web import store
    from belote.web.store import Writer

    marks: dict[int, list[float]] = {}  # id(job) -> [put, end of tick, taken, answered]
    settled: dict[Any, list[float]] = {}  # future -> its job's marks
    put, end_of_tick, commit, answer, settle = (
        Writer._put, Writer._end_of_tick, Writer._commit, Writer._answer, store._settle)

    def t_put(self: Writer, job: Any) -> None:
        if job.future is not None:
            marks[id(job)] = [time.perf_counter()]
        put(self, job)

    def t_end_of_tick(self: Writer) -> None:
        now = time.perf_counter()
        for job in self._tick:
            m = marks.get(id(job))
            if m is not None and len(m) == 1:
                m.append(now)
        writes, pending, inline = len(self._tick), self._pending, self.inline_commits
        checkpointing = stalls.checkpointing
        end_of_tick(self)
        if writes and self.inline_commits == inline:  # handed to the thread: why
            why = ("checkpoint" if checkpointing else "thread") if pending else "other"
            counts = stalls.handovers.setdefault(why, [0, 0])
            counts[0] += 1
            counts[1] += writes

    def t_commit(self: Writer, batch: list[Any]) -> None:
        now = time.perf_counter()
        for job in batch:
            m = marks.get(id(job))
            if m is not None and len(m) == 2:
                m.append(now)
        commit(self, batch)

    def t_answer(answers: list[Any], here: Any = None) -> None:
        now = time.perf_counter()
        for job, _answer, _exc in answers:
            m = marks.pop(id(job), None)
            if m is None or job.future is None or len(m) < 2:
                continue
            if len(m) == 2 and here is not None:  # committed on the loop's thread
                stalls.stages.setdefault("tick", []).append(m[1] - m[0])
                stalls.stages.setdefault("inline", []).append(now - m[1])
                continue
            if len(m) == 3:
                m.append(now)
                settled[job.future] = m
        if here is None:
            answer(answers)  # (also the code before, whose _answer took only them)
        else:
            answer(answers, here)

    def t_settle(answers: list[Any]) -> None:
        now = time.perf_counter()
        for future, _answer, _exc in answers:
            m = settled.pop(future, None)
            if m is not None:
                for name, a, b in (("tick", 0, 1), ("queue", 1, 2), ("commit", 2, 3)):
                    stalls.stages.setdefault(name, []).append(m[b] - m[a])
                stalls.stages.setdefault("back", []).append(now - m[3])
        settle(answers)

    Writer._put = t_put  # type: ignore[method-assign]
    Writer._end_of_tick = t_end_of_tick  # type: ignore[method-assign]
    Writer._commit = t_commit  # type: ignore[method-assign]
    Writer._answer = staticmethod(t_answer)  # type: ignore[method-assign]
    store._settle = t_settle
    writer._conn = _TimedConnection(writer._conn, stalls)


def _serve(args: argparse.Namespace) -> None:
    """The server of ``--step`` (this file run with ``--serve PORT``): the app as
    ``belote serve`` runs it, with limits lifted for the one benchmark address and
    two benchmark routes: open started tables of four bots, and count actions."""
    import uvicorn

    from belote.web import create_app
    from belote.web.app import serving_gc, uvicorn_options
    from belote.web.room_manager import RoomManager
    from belote.web.rooms import RoomSettings
    from belote.web.security import Limits

    settings = RoomSettings(bot_delay=args.bot_delay, trick_pause=args.trick_pause,
                            deal_pause=args.deal_pause, max_rooms=100_000)
    # Every table comes from one address: the per-client and per-network limits
    # are lifted.
    limits = Limits(rooms_per_client=100_000, rooms_per_minute=100_000.0,
                    rooms_burst=100_000, messages_per_second=100_000.0,
                    messages_burst=100_000, network_messages_per_second=1_000_000.0,
                    network_messages_burst=4_000_000, sockets_per_network=1_000_000)
    app = create_app(args.db, settings=settings, seed=args.seed, limits=limits)

    @app.post("/bench/bot-tables")
    async def bot_tables(request: Request) -> JSONResponse:
        body = await request.json()
        rooms: RoomManager = request.app.state.rooms
        out = []
        for _ in range(int(body["count"])):
            room = await rooms.create(args.profile, bots=body["bots"], target=1_000_000,
                                      client="bench", creator="bench")
            await room.start()
            out.append([room.id, room.invite])
        return JSONResponse(out)

    stalls = Stalls(census=args.census)
    # How long a write waits for the writer thread's answer (its batch committed and
    # the answer back on the loop).
    from belote.web.store import Writer
    submit = Writer.submit

    def timed_submit(self: Writer, write: Any, *rest: Any, **options: Any
                     ) -> asyncio.Future[Any]:
        future = submit(self, write, *rest, **options)
        began = time.perf_counter()
        future.add_done_callback(lambda _f: stalls.writes.append(time.perf_counter() - began))
        return future

    Writer.submit = timed_submit  # type: ignore[method-assign]
    # Each transaction's wall and CPU time (on the loop's thread or the writer's;
    # the code before had only the thread's, its _commit).
    name = "_transaction" if hasattr(Writer, "_transaction") else "_commit"
    transaction = getattr(Writer, name)

    def timed_transaction(self: Writer, *rest: Any) -> Any:
        began, cpu = time.perf_counter(), time.thread_time()
        out = transaction(self, *rest)
        stalls.commits.append((len(rest[-1]), time.perf_counter() - began,
                               time.thread_time() - cpu))
        return out

    setattr(Writer, name, timed_transaction)
    _time_writer_stages(stalls, app.state.rooms.store.writer)
    # Each copy of the log into the database (the writer thread's), wall and CPU time,
    # and while it is made, the mark that the ticks handed to the thread then read
    # (_time_writer_stages).
    checkpoint = Writer._checkpoint

    def timed_checkpoint(self: Writer) -> None:
        began, cpu = time.perf_counter(), time.thread_time()
        stalls.checkpointing = True
        try:
            checkpoint(self)
        finally:
            stalls.checkpointing = False
        stalls.checkpoints.append((time.perf_counter() - began, time.thread_time() - cpu))

    Writer._checkpoint = timed_checkpoint  # type: ignore[method-assign]
    # Each WebSocket message's send, in the loop's CPU time (its median: a send that
    # waits for the socket's buffer counts what ran meanwhile too).
    from belote.web.clients import Client
    client_init = Client.__init__

    def timed_init(self: Client, send: Any, identity: str | None = None) -> None:
        async def timed_send(text: str) -> None:
            cpu = time.thread_time()
            await send(text)
            stalls.sends.append(time.thread_time() - cpu)

        client_init(self, timed_send, identity)

    Client.__init__ = timed_init  # type: ignore[method-assign]

    @app.post("/bench/full-scan")
    async def timed_full_scan(request: Request) -> JSONResponse:
        """One full scan of the collector (web.app.full_scan, where the code has it),
        timed: the pause it makes, once an hour in belote serve."""
        from belote.web import app as web_app
        scan = getattr(web_app, "full_scan", None)
        if scan is None:
            return JSONResponse({})
        tracked = gc.get_freeze_count() + len(gc.get_objects())
        began, cpu = time.perf_counter(), time.thread_time()
        found = scan()
        return JSONResponse({"wall_ms": ms(time.perf_counter() - began),
                             "cpu_ms": ms(time.thread_time() - cpu), "unreachable": found,
                             "tracked": tracked, "frozen_after": gc.get_freeze_count()})

    from belote.web import driver
    if hasattr(driver, "HOLDS"):  # (a version of the server that says how late its bots act)
        driver.HOLDS = []

    def bot_holds(reset: bool) -> dict[str, Any]:
        """How late the bots woken from the grid acted, after their point of the grid
        (count, p50/p99/max ms), since the last call."""
        holds = getattr(driver, "HOLDS", None)
        if holds is None:
            return {}
        driver.HOLDS = []
        if reset or not holds:
            return {}
        return {"bot_holds": [len(holds), ms(_percentile(holds, 50)),
                              ms(_percentile(holds, 99)), ms(max(holds))]}

    @app.get("/bench/stats")
    async def stats(request: Request) -> JSONResponse:
        rooms: RoomManager = request.app.state.rooms
        stalls.start()
        reset = bool(request.query_params.get("reset"))
        return JSONResponse({"actions": sum(r.actions for r in rooms.rooms.values()),
                             "rooms": len(rooms),
                             # the log's file (its pages not yet copied into the database)
                             "wal_mb": round(os.path.getsize(args.db + "-wal") / 2**20, 1)
                             if os.path.exists(args.db + "-wal") else 0.0,
                             "inline_commits": getattr(rooms.store.writer, "inline_commits", 0)
                             if rooms.store is not None else 0,
                             "loop": type(asyncio.get_running_loop()).__module__.split(".")[0],
                             # the collector: its counters and collections by generation
                             # (not gc.get_freeze_count(), which walks every frozen object:
                             # some 0.1 s of the loop with a million of them; the full scan
                             # at the end says it)
                             "gc_count": list(gc.get_count()),
                             "gc_collections": [g["collections"] for g in gc.get_stats()],
                             # ?reset=1 (a step's start): only start again; the figures
                             # of everything since the last step (opening the tables
                             # included, hundreds of thousands of timings) would take
                             # the loop a second to sort, at the step's start
                             **(stalls.reset() if reset else stalls.take()),
                             **bot_holds(reset)})

    options = uvicorn_options(limits)  # as belote serve runs it
    if args.deflate:
        options["ws_per_message_deflate"] = True
    if args.http:
        options["http"] = args.http
    if args.plain_asyncio:
        options.update(loop="asyncio", http="h11")
    if not args.python_gc:
        serving_gc()
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    if args.grid_slice:
        driver.GRID_SLICE = args.grid_slice
    profiler = cProfile.Profile() if args.profile_out else None
    if profiler is not None:
        profiler.enable()
    try:
        uvicorn.run(app, host=HOST, port=args.serve, log_level="error", **options)
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile_out)


def _machine_busy() -> tuple[float, float, float]:
    """(busy, total, steal) jiffies of every CPU of the machine (Linux /proc/stat):
    steal is the time a virtual machine's CPUs were ready but the host ran others."""
    try:
        fields = [float(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except OSError:
        return (0.0, 0.0, 0.0)
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return (sum(fields) - idle, sum(fields), fields[7] if len(fields) > 7 else 0.0)


@dataclass
class Load:
    """What ``--step`` has opened and connected, and what it measures."""

    base: str
    port: int
    args: argparse.Namespace
    stats: Stats = field(default_factory=Stats)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    rng: random.Random = field(default_factory=random.Random)
    human_tables: list[Table] = field(default_factory=list)
    bot_watchers: list[asyncio.Task[None]] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    watched_states: int = 0
    stalls: Stalls = field(default_factory=Stalls)  # this process's own (the clients')

    @property
    def clients(self) -> int:
        return sum(len(t.tokens) for t in self.human_tables)


async def _watch(load: Load, room: str, invite: str, cookie: str) -> None:
    """One connection watching a table of bots (they play only while watched), with
    a browser's identity cookie (the server refuses a socket without one).  It asks
    for no compression (a browser would), so that this process keeps up with
    thousands of them; the clients' connections ask for it, as a browser does (the
    server compresses nothing unless run with ``--deflate``)."""
    url = f"ws://{HOST}:{load.port}/ws/rooms/{room}"
    with contextlib.suppress(websockets.ConnectionClosed, OSError):
        async with websockets.connect(url, max_size=None, ping_interval=None,
                                      compression=None,
                                      additional_headers={"Cookie": f"belote_id={cookie}"}
                                      ) as ws:
            await ws.send(json.dumps({"type": "hello", "invite": invite}))
            async for _raw in ws:
                load.watched_states += 1
                if load.stop.is_set():
                    break


async def _add_bot_tables(load: Load, count: int, http: httpx.AsyncClient) -> None:
    if "belote_id" not in http.cookies:
        (await http.get("/api/session")).raise_for_status()
    cookie = http.cookies["belote_id"]  # one browser watches every table of bots
    while count > 0:
        chunk = min(count, 100)
        r = await http.post("/bench/bot-tables", json={"count": chunk, "bots": load.args.bots})
        if r.status_code != 200:
            raise SystemExit(f"/bench/bot-tables: {r.status_code} {r.text[:300]}")
        for room, invite in r.json():
            load.bot_watchers.append(asyncio.create_task(_watch(load, room, invite, cookie)))
            if len(load.bot_watchers) % 50 == 0:
                await asyncio.sleep(0)  # let the connections open as they come
        count -= chunk


async def _add_human_tables(load: Load, count: int, http: httpx.AsyncClient) -> None:
    args = argparse.Namespace(**{**vars(load.args), "tables": count, "seats": 4})
    tables = await _open_tables(load.base, args)
    for table in tables:
        url = f"ws://{HOST}:{load.port}/ws/rooms/{table.room}"
        for i, seat in enumerate(table.tokens):
            load.tasks.append(asyncio.create_task(_play_seat(
                url, table, seat, i == 0, args, load.stats,
                random.Random(load.rng.random()), load.stop)))
    await asyncio.sleep(0.5)  # every seat connected before the start
    for table in tables:
        token = next(iter(table.tokens.values()))
        r = await http.post(f"/api/rooms/{table.room}/start", json={"token": token})
        r.raise_for_status()
    load.human_tables.extend(tables)


async def _measure(load: Load, server: subprocess.Popen[bytes], http: httpx.AsyncClient,
                   phase: str) -> dict[str, Any]:
    args = load.args
    # This process's own objects (thousands of connections) out of its collector's
    # way, and no collection while the step is measured, as a phone's socket costs
    # the server nothing of the kind: a collection here (30-40 ms with 500 clients
    # parsing every state) would hold back the states it reads, and the moves'
    # latency with them.
    gc.collect()
    gc.freeze()
    await asyncio.sleep(args.warmup)
    load.stats.latencies.clear()
    load.stats.errors.clear()
    load.stats.moves = 0
    first = (await http.get("/bench/stats", params={"reset": 1})).json()
    a0, inline0 = first["actions"], first["inline_commits"]
    cpu0, busy0, t0 = _cpu_seconds(server.pid), _machine_busy(), time.perf_counter()
    own0 = time.process_time()
    load.stalls.start()
    load.stalls.take()
    gc.disable()  # (this process's collections: up to 40 ms at 500 clients, see above)
    load.stats.measuring = True
    await asyncio.sleep(args.seconds)
    load.stats.measuring = False
    gc.enable()
    elapsed = time.perf_counter() - t0
    cpu1, busy1 = _cpu_seconds(server.pid), _machine_busy()
    own = time.process_time() - own0
    own_stalls = load.stalls.take()
    stats = (await http.get("/bench/stats")).json()
    lat = load.stats.latencies
    total = busy1[1] - busy0[1]
    return {
        "phase": phase,
        "bot_tables": len(load.bot_watchers),
        "client_tables": len(load.human_tables),
        "clients": load.clients,
        "rooms": stats["rooms"],
        "moves_timed": len(lat),
        "p50_ms": round(_percentile(lat, 50) * 1000, 1),
        "p99_ms": round(_percentile(lat, 99) * 1000, 1),
        "actions_per_s": round((stats["actions"] - a0) / elapsed, 1),
        # how late the bots acted after their point of the grid: count, p50/p99/max ms
        # (a server that does not say: [])
        "bot_holds_ms": stats.get("bot_holds", []),
        "server_cpu_percent": None if cpu0 is None or cpu1 is None
        else round(100 * (cpu1 - cpu0) / elapsed, 1),
        # The server's CPU time per action (calls and cards, every table): what one
        # core can carry, whatever else the machine runs.
        "server_cpu_us_per_action": None if cpu0 is None or cpu1 is None
        or stats["actions"] == a0 else round(1e6 * (cpu1 - cpu0) / (stats["actions"] - a0)),
        "bench_cpu_percent": round(100 * own / elapsed, 1),
        "machine_busy_percent": round(100 * (busy1[0] - busy0[0]) / total, 1) if total else None,
        "machine_steal_percent": round(100 * (busy1[2] - busy0[2]) / total, 1)
        if total else None,
        "server_loop": stats["loop"],
        "server_rss_mb": _rss_mb(server.pid),
        "server_sends": stats["sends"],
        "server_checkpoints": stats["checkpoints"],
        "server_gc_counters": {"count": stats["gc_count"],
                               "collections": stats["gc_collections"]},
        "load_average": round(os.getloadavg()[0], 2),
        "server_loop_lag_ms": {"p50": stats["loop_lag_p50_ms"], "p99": stats["loop_lag_p99_ms"],
                               "max": stats["loop_lag_max_ms"]},
        "server_write_ms": {"p50": stats["write_p50_ms"], "p99": stats["write_p99_ms"]},
        # the writer's commits: how many, writes a commit, wall p50/p99, CPU p50/p99 (ms)
        "server_commits": stats["commits"],
        "server_inline_commits": stats["inline_commits"] - inline0,
        "server_wal_mb": stats["wal_mb"],
        "server_write_stages_ms": stats["stages"],
        # the loop's ticks whose writes went to the writer thread, by why: [ticks, writes]
        "server_handovers": stats.get("handovers", {}),
        "server_gc": {"full": stats["gc_full"], "max_ms": stats["gc_max_ms"],
                      "total_ms": stats["gc_total_ms"], "by_gen": stats["gc_by_gen"]},
        # the benchmark's own process (the clients): a stall there adds to the moves'
        # latency as the server's would
        "bench_loop_lag_ms": {"p99": own_stalls["loop_lag_p99_ms"],
                              "max": own_stalls["loop_lag_max_ms"]},
        "bench_gc": {"full": own_stalls["gc_full"], "max_ms": own_stalls["gc_max_ms"],
                     "total_ms": own_stalls["gc_total_ms"], "by_gen": own_stalls["gc_by_gen"]},
        "errors": len(load.stats.errors),
        "server_young_census": stats["young"],
    }


def _row(r: dict[str, Any]) -> str:
    return (f"{r['phase']:7} {r['bot_tables']:6} {r['clients']:7} {r['p50_ms']:8} "
            f"{r['p99_ms']:8} {r['actions_per_s']:9} {r['server_cpu_percent']!s:>7} "
            f"{r['bench_cpu_percent']!s:>7} {r['machine_busy_percent']!s:>7} "
            f"{r['load_average']:6} {r['errors']:4}   "
            f"{r['server_cpu_us_per_action']} us CPU an action; loop lag p50/p99/max "
            f"{r['server_loop_lag_ms']['p50']}/{r['server_loop_lag_ms']['p99']}/"
            f"{r['server_loop_lag_ms']['max']} ms, a write's wait p50/p99 "
            f"{r['server_write_ms']['p50']}/{r['server_write_ms']['p99']} ms (commits: "
            f"count, size, wall p50/p99, cpu p50/p99 {r['server_commits']}, on the loop's "
            f"thread {r['server_inline_commits']}; the log's file {r['server_wal_mb']} MB), "
            f"gc {r['server_gc']['full']} full, max {r['server_gc']['max_ms']} ms; by "
            f"generation (count, max ms wall/cpu, total ms) {r['server_gc']['by_gen']}\n"
            f"{'':9}a write's stages (p50/p99/max ms): {r['server_write_stages_ms']}; the "
            f"ticks handed to the thread, by why [ticks, writes]: {r['server_handovers']}\n"
            f"{'':9}sends {r['server_sends'][0]}, CPU p50/mean {r['server_sends'][1]}/"
            f"{r['server_sends'][2]} us; the log's copies (count, wall p50/max, cpu p50/max "
            f"ms) {r['server_checkpoints']}; machine steal {r['machine_steal_percent']}%; "
            f"the server's loop {r['server_loop']}, its memory {r['server_rss_mb']} MB, its "
            f"collector after the step "
            f"{r['server_gc_counters']}\n"
            f"{'':9}the bots acted after their point of the grid (count, p50/p99/max ms) "
            f"{r['bot_holds_ms']}\n"
            f"{'':9}the clients' process: loop lag p99/max {r['bench_loop_lag_ms']['p99']}/"
            f"{r['bench_loop_lag_ms']['max']} ms, gc {r['bench_gc']['by_gen']}")


def _steps(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


async def _run_steps(args: argparse.Namespace) -> list[dict[str, Any]]:
    port = _free_port()
    base = f"http://{HOST}:{port}"
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        profile_out = str(Path(tmp) / "server.prof") if args.cprofile else ""
        cmd = [sys.executable, __file__, "--serve", str(port), "--db", str(Path(tmp) / "b.db"),
               "--bot-delay", str(args.bot_delay), "--trick-pause", str(args.trick_pause),
               "--deal-pause", str(args.deal_pause), "--profile", args.profile,
               "--seed", str(args.seed)]
        if args.deflate:
            cmd.append("--deflate")
        if args.python_gc:
            cmd.append("--python-gc")
        if args.census:
            cmd.append("--census")
        if args.switch_interval:
            cmd += ["--switch-interval", str(args.switch_interval)]
        if args.grid_slice:
            cmd += ["--grid-slice", str(args.grid_slice)]
        if args.plain_asyncio:
            cmd.append("--plain-asyncio")
        if args.http:
            cmd += ["--http", args.http]
        if profile_out:
            cmd += ["--profile-out", profile_out]
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            async with httpx.AsyncClient(base_url=base, timeout=60) as http:
                for _ in range(300):
                    try:
                        if (await http.get("/")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.1)
                else:
                    raise SystemExit("the server did not start")
                await _new_browser(http)
                load = Load(base, port, args, rng=random.Random(args.seed))
                print(f"{'phase':7} {'bots':>6} {'clients':>7} {'p50 ms':>8} {'p99 ms':>8} "
                      f"{'actions/s':>9} {'srv cpu':>7} {'clt cpu':>7} {'machine':>7} "
                      f"{'load':>6} err",
                      flush=True)
                await _add_human_tables(load, args.probe_tables, http)
                passed = 0
                began = time.perf_counter()

                told: list[bool] = []

                def out_of_time() -> bool:
                    if time.perf_counter() - began < args.budget:
                        return False
                    if not told:
                        told.append(True)
                        print(f"(stopped: --budget {args.budget:g} s spent)", flush=True)
                    return True

                for target in _steps(args.table_steps):
                    if out_of_time():
                        break
                    await _add_bot_tables(load, target - len(load.bot_watchers), http)
                    r = await _measure(load, server, http, "tables")
                    results.append(r)
                    print(_row(r), flush=True)
                    if args.census:
                        print(f"{'':9}young objects: {r['server_young_census']}", flush=True)
                    if r["p99_ms"] > args.p99_ms:
                        break
                    passed = target
                # The clients, over the most tables of bots that passed (at most --base-tables).
                keep = min(passed, args.base_tables)
                for task in load.bot_watchers[keep:]:
                    task.cancel()  # nobody watches: those tables wait
                await asyncio.gather(*load.bot_watchers[keep:], return_exceptions=True)
                del load.bot_watchers[keep:]
                for target in _steps(args.client_steps):
                    if out_of_time():
                        break
                    more = (target - load.clients + 3) // 4
                    if more > 0:
                        await _add_human_tables(load, more, http)
                    r = await _measure(load, server, http, "clients")
                    results.append(r)
                    print(_row(r), flush=True)
                    if r["p99_ms"] > args.p99_ms:
                        break
                # One full scan of the collector (web.app.full_scan), timed, under the
                # load of the last step: the pause belote serve makes once an hour.
                scan = (await http.post("/bench/full-scan")).json()
                if scan:
                    print(f"a full scan of the collector: {scan['wall_ms']} ms "
                          f"({scan['cpu_ms']} ms of CPU), tracked objects "
                          f"{scan['tracked']} -> frozen {scan['frozen_after']}, "
                          f"{scan['unreachable']} unreachable found; the server's memory "
                          f"{_rss_mb(server.pid)} MB", flush=True)
                    results.append({"phase": "full_scan", **scan})
                load.stop.set()
                for task in load.tasks + load.bot_watchers:
                    task.cancel()
                await asyncio.gather(*load.tasks, *load.bot_watchers, return_exceptions=True)
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
        if profile_out and Path(profile_out).exists():
            print("\nthe server's busiest functions (cProfile, own time, then cumulative):")
            for key in ("tottime", "cumulative"):
                pstats.Stats(profile_out).sort_stats(key).print_stats(25 if key == "tottime"
                                                                     else 40)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="simultaneous tables")
    parser.add_argument("--seats", type=int, default=4, choices=(1, 2, 3, 4),
                        help="seats per table played over WebSockets (the rest: bots)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="measured play time (default 20; 10 a step with --step)")
    parser.add_argument("--warmup", type=float, default=3.0, help="play before measuring")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a client seat thinks before it acts (0: at once)")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds the server's bots wait before acting")
    parser.add_argument("--profile", default="classic",
                        choices=("classic", "moroccan", "coinche", "contree"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    step = parser.add_argument_group("the capacity, step by step")
    step.add_argument("--step", action="store_true",
                      help="step the load up (tables of bots, then clients) to p99 > --p99-ms")
    step.add_argument("--table-steps", default="250,500,1000,1500,2000,2500,3000",
                      help="tables of bots at each step")
    step.add_argument("--client-steps", default="100,250,500,750,1000",
                      help="connected clients (four a table) at each step")
    step.add_argument("--base-tables", type=int, default=2000,
                      help="tables of bots kept while the clients step up (at most those "
                      "that passed)")
    step.add_argument("--probe-tables", type=int, default=10,
                      help="tables of four clients timed while the tables of bots step up")
    step.add_argument("--bots", default="heuristic", choices=("random", "heuristic"),
                      help="the bots of the tables of bots")
    step.add_argument("--trick-pause", type=float, default=0.9,
                      help="seconds more before a bot leads a new trick")
    step.add_argument("--deal-pause", type=float, default=30.0,
                      help="seconds a finished deal stays shown (the clients ask next)")
    step.add_argument("--deflate", action="store_true",
                      help="the server compresses the WebSocket messages of the clients "
                      "that ask for it (uvicorn's ws_per_message_deflate, which belote "
                      "serve turns off): what compression costs")
    step.add_argument("--python-gc", action="store_true",
                      help="the server keeps Python's garbage collector settings (belote "
                      "serve freezes its start-up and what each collection leaves, raises "
                      "the thresholds and scans everything once an hour: "
                      "web.app.serving_gc)")
    step.add_argument("--db-dir", default=None,
                      help="where the server's database goes (default: the temporary "
                      "folder; /dev/shm shows what the disk's writes cost)")
    step.add_argument("--budget", type=float, default=300.0,
                      help="seconds after which no further step starts (a shared machine)")
    step.add_argument("--p99-ms", type=float, default=100.0, help="the latency bound")
    step.add_argument("--switch-interval", type=float, default=0.0,
                      help="the server's sys.setswitchinterval (how long a thread that "
                      "wants the GIL waits before the running one is asked to drop it)")
    step.add_argument("--plain-asyncio", action="store_true",
                      help="the server runs on asyncio's own event loop even where uvloop "
                      "is installed (uvicorn takes it then; the web extra installs it), "
                      "and on h11")
    step.add_argument("--http", default="", choices=("", "h11", "httptools"),
                      help="the server's HTTP parser (belote serve names h11; httptools "
                      "measures what h11 costs)")
    step.add_argument("--grid-slice", type=int, default=0,
                      help="the server's web.driver.GRID_SLICE: the bots due on one point "
                      "of the grid that act in one turn of the event loop")
    step.add_argument("--census", action="store_true",
                      help="count the server's young objects by type at a collection of "
                      "the middle generation (what the garbage collector goes through)")
    step.add_argument("--cprofile", action="store_true",
                      help="run the server under cProfile and print where its time goes")
    parser.add_argument("--serve", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--db", default="", help=argparse.SUPPRESS)
    parser.add_argument("--profile-out", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args)
        return
    if args.seconds is None:
        args.seconds = 10.0 if args.step else 20.0
    if args.step:
        if not 0 < args.seconds <= 300 or not 0 <= args.warmup <= 60:
            parser.error("--seconds: more than 0, at most 300; --warmup: 0 to 60")
        if max([*_steps(args.table_steps), 0]) > 10_000 or \
                max([*_steps(args.client_steps), 0]) > 4000:
            parser.error("--table-steps: at most 10000 tables; --client-steps: 4000 clients")
        results = asyncio.run(_run_steps(args))
        if args.json:
            print(json.dumps(results))
        return
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
