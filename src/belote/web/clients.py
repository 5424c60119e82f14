"""A connection to a room (:mod:`belote.web.rooms`): the messages queued for it.

A room pushes into a :class:`Client`; the WebSocket route (:mod:`belote.web.routes_rooms`)
runs :meth:`Client.pump`, which sends them in order.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any


class Client:
    """One connection: a queue of messages, and the latest state of its seat.

    States replace each other (a slow connection gets the newest one, not a
    backlog); other messages (errors, welcome) are all sent, before the state.
    """

    def __init__(self, send: Callable[[str], Awaitable[None]],
                 identity: str | None = None) -> None:
        self._send = send
        self.identity = identity  # the browser's identity cookie (security module)
        self.hello = False  # said hello (with a token or the invitation)
        self.invited = False  # brought the room's invitation (or sits there)
        self.seat: int | None = None
        self.lang = "en"  # the page's language (web.i18n): its refusals are said in it
        self._pending: deque[str] = deque()
        self._state: str | None = None
        # The messages are sent by a task of their own, started when something is
        # queued and ended once the queue is empty (:meth:`_drain`): an idle
        # connection keeps nothing of the kind alive (thousands of them waiting made
        # as many objects for the garbage collector's young collections to go
        # through).  :meth:`pump` waits on one future for the connection's life.
        self._loop: asyncio.AbstractEventLoop | None = None
        self._draining: asyncio.Task[None] | None = None
        self._done: asyncio.Future[None] | None = None
        self.closed = False

    def _wake(self) -> None:
        """Something is queued (or the connection closed): send it, unless a send is
        already going on (it takes what was queued meanwhile)."""
        loop = self._loop
        if loop is None or self._draining is not None:
            return
        if self.closed:
            self._finish()
            return
        self._draining = loop.create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while not self.closed and (self._pending or self._state is not None):
                if self._pending:
                    await self._send(self._pending.popleft())
                else:
                    text, self._state = self._state, None
                    assert text is not None
                    await self._send(text)
        except Exception:  # the connection is gone: nothing more is sent
            self.closed = True
        finally:
            self._draining = None
        if self.closed:
            self._finish()

    def _finish(self) -> None:
        done = self._done
        if done is not None and not done.done():
            done.set_result(None)

    def push(self, text: str) -> None:
        self._pending.append(text)
        self._wake()

    def push_json(self, obj: Mapping[str, Any]) -> None:
        self.push(json.dumps(obj, ensure_ascii=False))

    def push_state(self, text: str) -> None:
        self._state = text
        self._wake()

    def close(self) -> None:
        self.closed = True
        self._wake()

    async def pump(self) -> None:
        """Send what is queued, in order, until the connection closes (or a send
        fails)."""
        self._loop = asyncio.get_running_loop()
        self._done = self._loop.create_future()
        self._wake()
        try:
            await self._done
        finally:
            task, self._draining = self._draining, None
            if task is not None and not task.done():
                task.cancel()
