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
        # What pump waits on while nothing is queued: a bare future (an Event's wait
        # is a coroutine more, kept alive for every idle connection: the garbage
        # collector's young collections go through them all).
        self._waiter: asyncio.Future[None] | None = None
        self.closed = False

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

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
        """Send what is queued until the connection closes."""
        loop = asyncio.get_running_loop()
        while not self.closed:
            if not self._pending and self._state is None:
                self._waiter = loop.create_future()
                try:
                    await self._waiter
                finally:
                    self._waiter = None
            while self._pending and not self.closed:
                await self._send(self._pending.popleft())
            if self._state is not None and not self.closed:
                text, self._state = self._state, None
                await self._send(text)
