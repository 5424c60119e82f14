"""Every room of one server: :class:`RoomManager` (the rooms by id, in memory and
asleep on disk, the counts per network and identity, the global cap and eviction,
the sweep of idle rooms, the rooms brought back after a restart) and the reasons a
closed room's link gives.  One room is :class:`belote.web.rooms.Room`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from belote.bots import make_bot
from belote.bots.base import check_table
from belote.errors import BeloteError, Refusal
from belote.options import make_rules
from belote.web.rooms import Room
from belote.web.seats import RoomError, RoomSettings, RoomStatus, SeatKind, Visibility
from belote.web.store import RoomRow, RoomStore, StoreError

log = logging.getLogger("belote.web.rooms")

CLOSED_KEPT: Final = 5000  # rooms closed by this server whose reason is kept in memory

EVICT_AT: Final = 0.9  # share of max_rooms from which each new room closes an idle one


def span_words(seconds: float) -> str:
    """A length of time in plain words: "6 hours", "25 minutes", "a minute".

    >>> [span_words(s) for s in (6 * 3600, 5400, 1500, 70, 5)]
    ['6 hours', '1.5 hours', '25 minutes', 'a minute', 'less than a minute']
    """
    if seconds >= 3600:
        return f"{round(seconds / 3600, 2):g} hours"
    if seconds < 60:
        return "less than a minute"
    minutes = round(seconds / 60)
    return f"{minutes} minutes" if minutes > 1 else "a minute"


# Why a room was closed, by name, and its English (its ``span`` the length of time the
# row keeps in seconds, in words): a closed room's row keeps its reason as JSON
# (:func:`closed_reason`), which its link says in the page's language.
CLOSED_WHY: Final = {
    "idle": "nobody visited it for {span}",
    "evicted": "the server was full, and this table had been left idle the longest "
               "(nobody at it for {span})",
    "unrestorable": "it could not be restored ({detail})",
}


def closed_reason(why: str, **values: object) -> str:
    """A closed room's reason as its row keeps it: ``{"why": ..., fields}`` in JSON."""
    assert why in CLOSED_WHY
    return json.dumps({"why": why, **values})


def read_closed(text: str) -> tuple[str, dict[str, Any]]:
    """A closed room's reason read back: its name (:data:`CLOSED_WHY`) and fields; a
    reason of another form (a row written before reasons had names) is ``"other"``,
    its text the field ``detail``.

    >>> read_closed(closed_reason("idle", seconds=7200))
    ('idle', {'seconds': 7200})
    >>> read_closed("closed by hand")
    ('other', {'detail': 'closed by hand'})
    >>> read_closed('{"why": "unrestorable", "seconds": 3}')[0]
    'other'
    """
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, dict) and value.get("why") in CLOSED_WHY:
        why = str(value["why"])
        if why == "unrestorable" and isinstance(value.get("detail"), str):
            return why, {"detail": value["detail"]}
        seconds = value.get("seconds")
        if why != "unrestorable" and isinstance(seconds, int) and not isinstance(seconds, bool):
            return why, {"seconds": seconds}
    return "other", {"detail": text}


def closed_refusal(room_id: str, reason: str) -> RoomError:
    """The refusal of a closed room's link: :attr:`Refusal.ROOM_CLOSED`, naming why
    (``why``, and ``seconds`` or ``detail``) and its English ``reason``."""
    why, fields = read_closed(reason)
    span = {"span": span_words(fields["seconds"])} if "seconds" in fields else {}
    english = CLOSED_WHY.get(why, "{detail}").format(**fields, **span)
    return RoomError.refused(Refusal.ROOM_CLOSED, room=room_id, why=why, **fields,
                             reason=english)


class RoomManager:
    """Every room of one server, by id, kept in ``store`` when one is given.

    The life of a room:

    * **open, in memory** (:attr:`rooms`): created here, or brought back from
      the store the first time someone opens it after a restart;
    * **open, on disk only** (:attr:`dormant`): after a restart every open room
      is known by its row alone (:meth:`restore` reads the rows in one query and
      replays nothing); :meth:`get` brings a room back when its link, its
      WebSocket or its page is opened: its seats and log are read, the log
      replayed through the engine (every action checked again) and its driver
      started.  A room nobody comes back to costs no replay: its bots do not
      play on while nobody is there (the driver waits for a watcher anyway),
      and its game resumes exactly where the log left it;
    * **closed**: after :attr:`RoomSettings.idle_ttl` seconds without a visit
      (:meth:`sweep`), or evicted to make room (below); its link says why.

    Limits.  ``client`` (the network a request comes from) and ``creator`` (its
    browser identity) may each hold at most ``rooms_per_client`` open rooms; both
    are stored with the room, so the counts hold over a restart.  The whole
    server holds at most :attr:`RoomSettings.max_rooms`.  From
    :data:`EVICT_AT` (90%) of that cap each new room first closes one room:
    the longest idle of the network holding the most rooms, so a network that
    floods the server loses its own idle rooms first and a newcomer from
    elsewhere can always open a table.  Rooms someone is connected to, and
    those whose player left less than the grace period ago (a page being
    reloaded), are never closed so; when only those remain, the last 10% of the
    cap still admits new rooms, then the server refuses ("try later").
    """

    def __init__(self, settings: RoomSettings | None = None, seed: int | None = None,
                 store: RoomStore | None = None, rooms_per_client: int = 30) -> None:
        self.settings = settings or RoomSettings()
        self.rooms: dict[str, Room] = {}
        self.dormant: dict[str, RoomRow] = {}  # open on disk, not brought back yet
        self.store = store
        self.rooms_per_client = rooms_per_client
        self.replays = 0  # rooms brought back by replaying their log since the start
        # Rooms this server closed, with the reason, while the writer may not have
        # written it yet (their links say why at once); the newest few thousand.
        self._closed: dict[str, str] = {}
        self._seed = seed
        self._count = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        """Open rooms: in memory and on disk only."""
        return len(self.rooms) + len(self.dormant)

    def held(self, *, client: str = "", creator: str | None = None) -> int:
        """Open rooms (a finished game no longer counts) of a network or an identity.

        A room on disk only counts unless its row says its game is over."""
        if client:
            return (sum(1 for r in self.rooms.values()
                        if r.client == client and r.status != RoomStatus.FINISHED)
                    + sum(1 for row in self.dormant.values()
                          if row.client == client and not row.finished))
        if creator:
            return (sum(1 for r in self.rooms.values()
                        if r.creator == creator and r.status != RoomStatus.FINISHED)
                    + sum(1 for row in self.dormant.values()
                          if row.creator == creator and not row.finished))
        return 0

    async def create(
        self,
        profile: str = "classic",
        options: Mapping[str, Any] | None = None,
        target: int | None = None,
        bots: str = "heuristic",
        name: str = "",
        *,
        visibility: Visibility = Visibility.INVITE,
        client: str = "",
        creator: str | None = None,
    ) -> Room:
        """A new room (the profile, options, target and bot spec checked): any profile
        of docs/rules.md, ``classic-3p`` and ``classic-2p`` included (§12).

        ``client`` (a network, :func:`belote.web.network.network_of`) and ``creator``
        (a browser identity) may each hold at most ``rooms_per_client`` open rooms;
        near the global cap an idle room is closed first (class doc)."""
        opts = dict(options or {})
        if target is not None:
            opts["target"] = target
        rules = make_rules(profile, opts)
        # Four players, or three and two (§12): each bot of the spec must play there.
        check_table(rules, [make_bot(bots)] * rules.players, "tables on the web")
        for held in (self.held(client=client), self.held(creator=creator)):
            if held >= self.rooms_per_client:
                raise RoomError.refused(Refusal.TOO_MANY_TABLES, n=self.rooms_per_client)
        self._make_room()
        self._count += 1
        seed = None if self._seed is None else self._seed + self._count
        room_id = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        while room_id in self.rooms or room_id in self.dormant:  # pragma: no cover
            room_id = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        room = Room(room_id, rules, bots, self.settings, seed=seed, name=name,
                    visibility=visibility, client=client, creator=creator, store=self.store)
        if self.store is not None:
            await self.store.add_room(room.row(), [x.row() for x in room.seats])
        self.rooms[room_id] = room
        return room

    # --- the cap and eviction -----------------------------------------------------------

    def _protected(self, room: Room, now: float) -> bool:
        """Someone is at the table, or its player left less than the grace ago."""
        if room.spectators:
            return True
        grace = self.settings.grace
        return any(s.clients or (s.kind == SeatKind.HUMAN and s.away_since is not None
                                 and now - s.away_since < grace)
                   for s in room.seats)

    def _make_room(self) -> None:
        """Near the cap, close idle rooms (class doc); refuse when it is reached."""
        cap = self.settings.max_rooms
        evict_at = max(1, math.ceil(cap * EVICT_AT))
        if len(self) >= evict_at:
            self.evict(len(self) - evict_at + 1)
        if len(self) >= cap:
            raise RoomError.refused(Refusal.SERVER_FULL, n=len(self))

    def evict(self, count: int, now: float | None = None) -> list[str]:
        """Close up to ``count`` rooms, each the longest idle of the network that
        holds the most rooms then (rooms someone is at are never closed); their
        links say why.  Answers their ids."""
        now = time.time() if now is None else now
        mono = time.monotonic()
        per_network = Counter(r.client for r in self.rooms.values())
        per_network.update(row.client for row in self.dormant.values())
        by_network: dict[str, list[tuple[float, str]]] = {}
        for room in self.rooms.values():
            if not self._protected(room, mono):
                by_network.setdefault(room.client, []).append((room.touched, room.id))
        for row in self.dormant.values():
            by_network.setdefault(row.client, []).append((row.touched, row.id))
        for idle in by_network.values():
            idle.sort(reverse=True)  # the longest idle last: popped first
        reasons: dict[str, str] = {}
        while len(reasons) < count and by_network:
            network = max(by_network, key=lambda n: (per_network[n], -by_network[n][-1][0]))
            touched, room_id = by_network[network].pop()
            if not by_network[network]:
                del by_network[network]
            per_network[network] -= 1
            reasons[room_id] = closed_reason("evicted", seconds=round(now - touched))
            self._drop(room_id)
        if reasons:
            log.info("the server is near its cap of %d rooms: %d idle closed",
                        self.settings.max_rooms, len(reasons))
            self._remember_closed(reasons)
            if self.store is not None:
                self.store.close_rooms_later(reasons)
        return list(reasons)

    def _drop(self, room_id: str) -> None:
        """Forget a room (it is closed on disk by the caller); stop its driver."""
        self.dormant.pop(room_id, None)
        room = self.rooms.pop(room_id, None)
        if room is None:
            return
        loop = _running()
        if loop is not None:
            task = loop.create_task(room.stop())
            self._stopping.add(task)
            task.add_done_callback(self._stopping.discard)
        elif self._loop is not None:  # from another thread (a test's): on the loop
            asyncio.run_coroutine_threadsafe(room.stop(), self._loop)

    # --- after a restart ------------------------------------------------------------

    def restore(self) -> int:
        """Know every open room of the store again (after a restart): their rows are
        read in one query and nothing is replayed; :meth:`get` brings a room back
        when it is opened (class doc).  Answers how many rooms are known so."""
        with contextlib.suppress(RuntimeError):
            self._loop = asyncio.get_running_loop()
        if self.store is None:
            return 0
        count = 0
        for row in self.store.open_rooms():
            if row.id not in self.rooms:
                self.dormant[row.id] = row
                count += 1
        return count

    def _wake(self, row: RoomRow) -> Room:
        """A room on disk brought back: its seats and log read, the log replayed
        (every action checked again), its driver started.  A room whose log cannot
        be replayed is closed with the reason."""
        assert self.store is not None
        try:
            seats, events = self.store.seats(row.id), self.store.log(row.id)
        except StoreError as exc:  # kept on disk: it may be read later
            raise RoomError.refused(Refusal.ROOM_CANNOT_OPEN, room=row.id,
                                    detail=str(exc)) from None
        try:
            rules = make_rules(row.profile, row.options)
            room = Room(row.id, rules, row.bots, self.settings, seed=row.seed,
                        name=row.name, visibility=row.visibility, client=row.client,
                        creator=row.creator, store=self.store)
            room.invite = row.invite
            room.created, room.touched = row.created, row.touched
            room.restore(seats, events)
        except (BeloteError, ValueError, KeyError, IndexError, TypeError) as exc:
            log.error("room %s cannot be restored: %s", row.id, exc)
            reason = closed_reason("unrestorable", detail=str(exc))
            self.dormant.pop(row.id, None)
            self._remember_closed({row.id: reason})
            self.store.close_room_later(row.id, reason)
            raise closed_refusal(row.id, reason) from None
        self.replays += 1
        self.dormant.pop(row.id, None)
        self.rooms[row.id] = room
        if _running() is not None:
            room.run()
        elif self._loop is not None:  # from another thread (a test's): on the loop
            self._loop.call_soon_threadsafe(room.run)
        return room

    # --- finding rooms --------------------------------------------------------------

    def _remember_closed(self, reasons: Mapping[str, str]) -> None:
        self._closed.update(reasons)
        while len(self._closed) > CLOSED_KEPT:
            del self._closed[next(iter(self._closed))]

    def get(self, room_id: str) -> Room:
        """The open room ``room_id`` (brought back from disk if need be), else a
        :class:`RoomError` that says why it is not there."""
        room = self.rooms.get(room_id) if isinstance(room_id, str) else None
        if room is not None:
            return room
        row = self.dormant.get(room_id) if isinstance(room_id, str) else None
        if row is not None:
            return self._wake(row)
        reason = self._closed.get(room_id) if isinstance(room_id, str) else None
        if reason is None and self.store is not None and isinstance(room_id, str) \
                and len(room_id) < 40:
            with contextlib.suppress(StoreError):
                reason = self.store.closed_reason(room_id)
        if reason:
            raise closed_refusal(str(room_id), reason)
        raise RoomError.refused(Refusal.NO_SUCH_ROOM, room=room_id)

    def public_rooms(self, limit: int = 50) -> list[Room]:
        """The newest ``limit`` public rooms whose game is not over (the list on
        /rooms).  A public room on disk among the newest ``limit`` is brought back
        to be listed (once: it stays in memory); the older ones stay on disk."""
        live = [r for r in self.rooms.values()
                if r.status != RoomStatus.FINISHED and r.visibility == Visibility.PUBLIC]
        asleep = [row for row in self.dormant.values()
                  if row.visibility == Visibility.PUBLIC and not row.finished]
        newest = sorted([(-r.created, r.id) for r in live]
                        + [(-row.created, row.id) for row in asleep])[:limit]
        for _created, room_id in newest:
            row = self.dormant.get(room_id)
            if row is not None:
                with contextlib.suppress(RoomError):
                    self._wake(row)
        rooms = [r for r in self.rooms.values()
                 if r.status != RoomStatus.FINISHED and r.visibility == Visibility.PUBLIC]
        rooms.sort(key=lambda r: -r.created)
        return rooms[:limit]

    async def sweep(self, now: float | None = None) -> int:
        """Close the rooms nobody has visited for ``idle_ttl`` seconds."""
        now = time.time() if now is None else now
        ttl = self.settings.idle_ttl
        gone = [r for r in self.rooms.values()
                if not r.clients() and now - r.touched > ttl]
        asleep = [row.id for row in self.dormant.values() if now - row.touched > ttl]
        for room in gone:
            del self.rooms[room.id]
            await room.stop()
        for room_id in asleep:
            del self.dormant[room_id]
        closed = [room.id for room in gone] + asleep
        if self.store is not None and closed:
            reason = closed_reason("idle", seconds=round(ttl))
            with contextlib.suppress(StoreError):
                await self.store.close_rooms(dict.fromkeys(closed, reason))
        return len(closed)

    async def close(self) -> None:
        """Stop every room's driver (the server stops; the rooms stay on disk)."""
        rooms = list(self.rooms.values())
        self.rooms.clear()
        self.dormant.clear()
        for room in rooms:
            await room.stop()
        for task in list(self._stopping):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _running() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread, if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
