"""Live score sheets: the pages that follow a sheet learn of each change at once.

A page of a sheet opens ``/ws/sheets/{id}`` (:func:`belote.web.routes_sheets.sheet_socket`)
and becomes a :class:`Follower`.  :class:`SheetLive` watches the sheets that have
followers: every :data:`POLL_S` seconds (and at once when a page of this server
changed one) it reads, in one query, each watched sheet's number of events and
its link secrets (:meth:`belote.sheets.SheetStore.pulse`).  A new count wakes the
sheet's followers, who are told to fetch the sheet again; a sheet deleted, or a
link renewed or revoked, ends the followers who no longer have access.  Changes
made by ``belote sheet add`` in another process on the same database are seen
the same way, within one poll.

The poll runs only while some sheet has a follower, in a worker thread (SQLite
is not asked from the event loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Final

from starlette.concurrency import run_in_threadpool

from belote.errors import BeloteError, Refusal
from belote.sheets import SheetError, no_such_sheet
from belote.web.pages import SheetAccess
from belote.web.security import secret_equal

log = logging.getLogger("belote.web")

POLL_S: Final = 0.5  # a change made by another process is seen within this
MAX_FOLLOWERS: Final = 200  # open pages one sheet may have

Pulse = tuple[int, str | None, str | None]  # events, follow secret, keep secret


@dataclass(eq=False)
class Follower:
    """One open page of a sheet: how it came in (``identity`` and ``machine`` for
    an owner or a browser remembered by a link, else the link's ``kind`` and
    ``secret``), the latest event count seen for it, and whether it has ended."""

    sheet_id: int
    identity: str | None
    machine: bool
    kind: str | None = None  # "follow" or "keep" when it came with a link's secret
    secret: str | None = None
    events: int = 0
    ended: bool = False
    why: BeloteError | None = None  # why it was ended (None: its page left), by code
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def push(self, events: int) -> None:
        if events != self.events:
            self.events = events
            self.wake.set()

    def end(self, why: BeloteError | None = None) -> None:
        self.ended = True
        self.why = why
        self.wake.set()


class SheetLive:
    """The followers of every sheet and the poll that wakes them."""

    def __init__(self, access: SheetAccess, poll_s: float = POLL_S) -> None:
        self._access = access
        self.poll_s = poll_s
        self._followers: dict[int, set[Follower]] = {}
        self._seen: dict[int, Pulse] = {}
        self._task: asyncio.Task[None] | None = None
        self._poke: asyncio.Event | None = None

    def count(self, sheet_id: int) -> int:
        return len(self._followers.get(sheet_id, ()))

    def add(self, follower: Follower, pulse: Pulse) -> None:
        """Watch ``follower``'s sheet, as it stands now (``pulse``)."""
        self._followers.setdefault(follower.sheet_id, set()).add(follower)
        self._seen.setdefault(follower.sheet_id, pulse)
        follower.events = pulse[0]
        if self._task is None or self._task.done():
            self._poke = asyncio.Event()
            self._task = asyncio.create_task(self._run())

    def remove(self, follower: Follower) -> None:
        group = self._followers.get(follower.sheet_id)
        if group is not None:
            group.discard(follower)
            if not group:
                del self._followers[follower.sheet_id]
                self._seen.pop(follower.sheet_id, None)

    def changed(self, sheet_id: int) -> None:
        """A page of this server changed the sheet: look now rather than at the next poll."""
        if sheet_id in self._followers and self._poke is not None:
            self._poke.set()

    async def close(self) -> None:
        for group in list(self._followers.values()):
            for follower in group:
                follower.end(SheetError.refused(Refusal.SERVER_STOPPING))
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        assert self._poke is not None
        poke = self._poke
        while self._followers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(poke.wait(), self.poll_s)
            poke.clear()
            ids = list(self._followers)
            try:
                pulses = await run_in_threadpool(self._pulse, ids)
            except Exception as exc:  # a busy or broken database: again at the next poll
                log.warning("sheets: cannot read the watched sheets: %s", exc)
                continue
            for sid in ids:
                await self._dispatch(sid, pulses.get(sid))

    def _pulse(self, ids: list[int]) -> dict[int, Pulse]:
        with self._access.open() as store:
            return store.pulse(ids)

    async def _dispatch(self, sid: int, pulse: Pulse | None) -> None:
        group = list(self._followers.get(sid, ()))
        if not group:  # they all left during the poll
            return
        if pulse is None:  # deleted
            for follower in group:
                follower.end(no_such_sheet(sid))
            return
        before = self._seen.get(sid)
        self._seen[sid] = pulse
        if before is not None and before[1:] != pulse[1:]:
            await self._recheck(sid, pulse, group)
        for follower in group:
            if not follower.ended:
                follower.push(pulse[0])

    async def _recheck(self, sid: int, pulse: Pulse, group: list[Follower]) -> None:
        """A link was renewed or revoked: end the followers it let in."""
        current = {"follow": pulse[1], "keep": pulse[2]}
        for follower in group:
            if follower.kind is not None and secret_equal(current[follower.kind],
                                                          follower.secret):
                continue

            def role(f: Follower = follower) -> str | None:
                with self._access.open() as store:
                    return store.role(sid, f.identity, f.machine)

            try:
                allowed = await run_in_threadpool(role)
            except BeloteError:
                allowed = None
            if allowed is None:
                follower.end(no_such_sheet(sid))
