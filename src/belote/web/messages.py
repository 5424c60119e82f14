"""The messages of a room's connections: what each one asks, and the answers.

:func:`handle` takes one message of the protocol (module doc of
:mod:`belote.web.rooms`) from a connection, acts for the seat its token holds and
never for a seat named in the message, and answers a refusal to that connection
alone, in its language.  ``hello`` binds the connection (a seat's token, the room's
invitation or a seat its browser holds; else :class:`~belote.web.seats.NoAccess`:
as if there were no room), ``join`` takes a seat, ``hint`` asks the strongest bot's
advice (:func:`hint`), ``chat`` says something to the table (:mod:`belote.web.chat`:
a player or a spectator, after his hello; its recent messages follow the hello).  The
room is read and moved through :class:`MessagedRoom`.

Each action of the room is a coroutine holding the room's lock from its checks to
its write's commit and its broadcast; ``hello`` and ``hint``, which read the game,
take the lock too, so that two messages for one room are handled one after the
other, and none reads a move whose write is still pending.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any, Protocol

from belote.actions import Call, Discard
from belote.bots import Bot
from belote.bots.base import next_action
from belote.cards import card_name
from belote.errors import BeloteError, Refusal
from belote.options import Deck, Rules
from belote.play import SEAT_NAMES
from belote.round import BIDDING, DISCARD, PLAY, PlayerView, Round
from belote.web.chat import RoomChat
from belote.web.clients import Client
from belote.web.present import parse_seat
from belote.web.refusals import refusal_message
from belote.web.seats import NoAccess, RoomError, Seat, Visibility

log = logging.getLogger("belote.web.rooms")


class MessagedRoom(Protocol):
    """What the messages read and do of a room (:class:`belote.web.rooms.Room`)."""

    id: str
    players: int
    rules: Rules
    visibility: Visibility
    version: int
    lock: asyncio.Lock
    seats: list[Seat]
    chat: RoomChat

    def visit(self) -> None: ...

    def invited(self, invite: object) -> bool: ...

    def seat_of_token(self, token: object) -> int | None: ...

    def seat_of_owner(self, identity: str | None) -> int | None: ...

    def attach(self, client: Client, token: object = None) -> int | None: ...

    async def join(self, seat: int, name: object = "", client: Client | None = None,
                   owner: str | None = None) -> str: ...

    async def leave(self, seat: int) -> None: ...

    async def fill_bot(self, seat: int) -> None: ...

    async def start(self) -> None: ...

    async def call(self, seat: int, text: object) -> None: ...

    async def play(self, seat: int, card_text: object, declare: bool = True,
                   belote: bool = True) -> None: ...

    async def discard(self, seat: int, cards: object) -> None: ...

    async def next_deal(self) -> None: ...

    def live_round(self) -> Round: ...

    def known_view(self, rnd: Round, seat: int) -> PlayerView: ...

    def hint_bot(self) -> Bot: ...

    def keep(self, task: asyncio.Task[None]) -> None: ...

    def clients(self) -> list[Client]: ...


async def handle(room: MessagedRoom, client: Client, msg: object) -> None:
    """One message from a connection; a refusal is answered with an error message."""
    room.visit()
    try:
        await dispatch(room, client, msg)
    except NoAccess:
        raise
    except BeloteError as exc:
        # what is refused, in the connection's language, with its code (docs/json.md)
        client.push_json(refusal_message(exc, client.lang, seat=client.seat,
                                         players=room.players,
                                         spanish=room.rules.deck is Deck.SPANISH))


async def dispatch(room: MessagedRoom, client: Client, msg: object) -> None:
    """Act on one message for the connection's seat (module doc); raises a refusal."""
    if not isinstance(msg, dict):
        raise RoomError.refused(Refusal.NOT_A_MESSAGE)
    kind = msg.get("type")
    if kind == "ping":
        client.push_json({"type": "pong"})
        return
    if kind == "hello":
        async with room.lock:
            hello(room, client, msg)
        return
    if not client.hello:
        raise RoomError.refused(Refusal.HELLO_FIRST)
    if kind == "chat":  # a player or a spectator (web.chat), the game untouched
        room.chat.say(client, msg, private=room.visibility == Visibility.PRIVATE,
                      seats=room.seats, everyone=room.clients())
        return
    if kind == "join":
        if client.seat is not None:
            raise RoomError.refused(Refusal.SEAT_HELD, seat=SEAT_NAMES[client.seat])
        if not client.invited:
            raise RoomError.refused(Refusal.INVITATION_NEEDED)
        wanted = seat_field(room, msg)
        token = await room.join(wanted, msg.get("name"), client, owner=client.identity)
        client.push_json({"type": "welcome", "seat": SEAT_NAMES[wanted], "token": token})
        return
    seat = client.seat
    if seat is None:
        raise RoomError.refused(Refusal.TAKE_A_SEAT)
    if kind == "leave":
        await room.leave(seat)
    elif kind == "bot":
        await room.fill_bot(seat_field(room, msg))
    elif kind == "start":
        await room.start()
    elif kind == "call":
        await room.call(seat, msg.get("call"))
    elif kind == "play":
        await room.play(seat, msg.get("card"), msg.get("declare", True) is not False,
                        msg.get("belote", True) is not False)
    elif kind == "discard":
        await room.discard(seat, msg.get("cards"))
    elif kind == "next":
        await room.next_deal()
    elif kind == "hint":
        async with room.lock:
            hint(room, client, seat)
    else:
        raise RoomError.refused(Refusal.UNKNOWN_MESSAGE, kind=kind)


def hello(room: MessagedRoom, client: Client, msg: Mapping[str, Any]) -> None:
    """Bind the connection: a seat's token, the room's invitation or a seat its
    browser holds (else :class:`NoAccess`), and send it the state."""
    token = msg.get("token")
    if room.invited(msg.get("invite")):
        client.invited = True
    seat = room.seat_of_token(token)
    if seat is None and not client.invited:
        held = room.seat_of_owner(client.identity)
        if held is None:
            # Neither a seat nor the room's link: as if there were no room.
            raise NoAccess.refused(Refusal.NO_SUCH_ROOM, room=room.id)
        client.invited = room.visibility != Visibility.PRIVATE
    client.hello = True
    seat = room.attach(client, token)
    if seat is not None:
        client.push_json({"type": "welcome", "seat": SEAT_NAMES[seat]})
    elif token:
        client.push_json(refusal_message(RoomError.refused(Refusal.BAD_TOKEN, room=room.id),
                                         client.lang))
    if room.visibility != Visibility.PRIVATE:
        room.chat.log(client)  # what was said lately (web.chat)


def hint(room: MessagedRoom, client: Client, seat: int) -> None:
    """The strongest bot's advice for ``seat`` (the terminal game's ``?``), sent to
    this connection only: worked out from the seat's own view, in a worker thread
    (``pimc`` thinks), dropped if the game moved on meanwhile."""
    rnd = room.live_round()
    if rnd.phase not in (BIDDING, DISCARD, PLAY) or rnd.current_player() != seat:
        raise RoomError.refused(Refusal.NO_HINT_NOW)
    view, version = room.known_view(rnd, seat), room.version
    bot = room.hint_bot()

    async def advise() -> None:
        try:
            action = await asyncio.to_thread(next_action, bot, view)
        except BeloteError as exc:  # the adviser's bug: no hint, the game goes on
            log.error("room %s: the hint's bot at %s: %s", room.id, SEAT_NAMES[seat], exc)
            return
        if room.version != version or client.closed:
            return
        if isinstance(action, Call):
            client.push_json({"type": "hint", "version": version, "call": action.call})
        elif isinstance(action, Discard):
            client.push_json({"type": "hint", "version": version,
                              "cards": [card_name(c) for c in action.cards]})
        else:
            client.push_json({"type": "hint", "version": version,
                              "card": card_name(action.card)})

    room.keep(asyncio.get_running_loop().create_task(advise()))


def seat_field(room: MessagedRoom, msg: Mapping[str, Any]) -> int:
    """The seat a message names (``join``, ``bot``), checked against the table."""
    try:
        return parse_seat(msg.get("seat"), room.players)
    except BeloteError as exc:
        assert exc.refusal is not None
        raise RoomError.refused(exc.refusal, **exc.values) from None
