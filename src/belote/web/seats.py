"""The seats of a room (:mod:`belote.web.rooms`) and the words its modules share.

A seat is ``open``, held by a ``human`` (who received a secret token when taking it)
or by a ``bot`` (:class:`SeatKind`); a room is ``waiting`` for its players, ``playing``
or ``finished`` (:class:`RoomStatus`); :class:`RoomSettings` pace its bots and set its
timers; a room is ``private``, ``invite`` or ``public`` (:class:`Visibility`), and
refuses with :class:`RoomError`.  The words are string enums, equal to their JSON
and stored words.  The room, its driver (:mod:`belote.web.driver`) and the state it
sends (:mod:`belote.web.room_state`) all read these, so they live here, below the
three of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from belote.bots import Bot
from belote.errors import BeloteError, Refusal
from belote.play import SEAT_NAMES
from belote.web.clients import Client
from belote.web.settings import RoomSettings as RoomSettings
from belote.web.store import SeatRow


class RoomError(BeloteError):
    """A room that does not exist, or an action the room refuses (not the rules')."""


class NoAccess(RoomError):
    """A connection that brings neither a seat's token nor the room's invitation:
    answered as if the room did not exist, and closed."""


class RoomStatus(StrEnum):
    """Where a room stands: its word in the room's state."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


class SeatKind(StrEnum):
    """Who holds a seat: its word in the room's state and in the store's rows."""

    OPEN = "open"
    HUMAN = "human"  # who received a secret token when taking it
    BOT = "bot"


class Visibility(StrEnum):
    """Who may see and join a room: its word in the API, the state and the store."""

    PRIVATE = "private"  # a table against bots: its player only
    INVITE = "invite"  # a room with friends: its link's invitation
    PUBLIC = "public"  # ... and listed on /rooms

    @classmethod
    def of(cls, value: object) -> Visibility:
        """``value`` as a visibility, or :class:`RoomError` naming the three words."""
        for member in cls:
            if value == member:
                return member
        raise RoomError.refused(Refusal.BAD_FIELD, "visibility",
                                detail=f"{value!r} is not one of {', '.join(cls)}")


NAME_LENGTH: Final = 24


@dataclass
class Seat:
    index: int
    kind: SeatKind = SeatKind.OPEN
    name: str = ""
    token: str | None = None
    owner: str | None = None  # the browser identity that took the seat
    bot: Bot | None = None  # the bot seat's player, or the stand-in of an absent human
    clients: set[Client] = field(default_factory=set)
    away_since: float | None = None  # monotonic time its last connection closed
    secret_until: int = 0  # taken over mid-deal: the deal whose past stays hidden

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.name, self.token, self.owner,
                       self.secret_until)

    @property
    def connected(self) -> bool:
        return bool(self.clients)


def clean_name(name: object, seat: int) -> str:
    text = " ".join(name.split()) if isinstance(name, str) else ""
    return text[:NAME_LENGTH] or f"Player {SEAT_NAMES[seat]}"
