"""A room's chat: quick messages and short free text between the people at a table.

Who may write.  A connection that said ``hello`` to a room with friends: a seated
player (his seat's token) or a spectator (the room's invitation, or a seat his browser
holds).  A connection that did not, or whose hello was refused (a stranger: neither a
seat nor the invitation), is closed before it can say anything
(:func:`belote.web.messages.hello`).  A table against bots (private) has no chat.

What is sent.  ``{"type": "chat", "quick": CODE}`` (one of :data:`QUICK`: the page
shows each reader its words in his own language) or ``{"type": "chat", "text": ...}``:
at most :data:`CHAT_LENGTH` characters, control characters made spaces; a longer or
empty text is refused, never cut.  Each person (his browser identity, else his seat)
may send :data:`CHAT_BURST` messages at once and :data:`CHAT_PER_SECOND` sustained
(:class:`belote.web.security.RateLimiter`, one bucket per person and room); beyond
that a message is refused.  A refusal goes to its sender alone, in his language, as
``{"type": "error", "chat": true, "code": ..., "message": ...}``: its code a
:class:`belote.errors.Refusal` (``chat_...``), its words said from the code as the
rooms' refusals are (:func:`belote.web.refusals.refusal_message`); the connection stays
open.

What everyone receives.  ``{"type": "chat", "id", "from": {"who", "seat", "name"},
"quick" | "text", "time"}``: ``id`` is new for every message, a restart included;
``who`` names the person in this room alone (a digest of
the room and his identity: no secret, the same after a reload or a restart, so that a
reader's mute of him holds); ``seat`` is his seat's letter (null: a spectator) and
``name`` his seat's name; ``mine`` is true in the copies sent to its author's own
connections.  The page shows the text as text, never as markup.

The last :data:`RING` messages are kept in memory, and sent to a connection after its
``hello`` (``{"type": "chat_log", "messages": [...]}``, when there are some), so that
a player who reconnects sees what was said.  They are not written to the room's log:
that log holds the game's events alone (what a restart replays), and a chat is talk at
the table, not part of the game; a restart forgets it.  Nothing secret is kept with a
message (no token, no identity, no invitation).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import deque
from typing import Any, Final

from belote.errors import BeloteError, Refusal
from belote.play import SEAT_NAMES
from belote.web.clients import Client
from belote.web.i18n import N_
from belote.web.refusals import refusal_message
from belote.web.seats import Seat
from belote.web.security import RateLimiter

CHAT_LENGTH: Final = 200  # characters of a free message
RING: Final = 50  # messages a room keeps for whoever reconnects
CHAT_BURST: Final = 5  # messages one person may send at once in a room...
CHAT_PER_SECOND: Final = 0.5  # ... and sustained (one every two seconds)

# The quick messages: their code (what travels) and their words (the page's language).
QUICK: Final = {
    "hello": N_("Hello!"),
    "well_played": N_("Well played"),
    "belote": N_("Belote!"),
    "come_on": N_("Come on!"),
    "thanks": N_("Thanks"),
    "sorry": N_("Sorry"),
    "oops": N_("Oops"),
    "good_game": N_("Good game"),
}

class ChatRefused(BeloteError):
    """A chat message refused, by code (``Refusal.CHAT_...``, said to its sender in
    his language from its code: :func:`belote.web.refusals.refusal_message`)."""


def clean_text(text: object) -> str:
    """A free message as it is kept: control characters made spaces, the ends
    stripped; refused (:class:`ChatRefused`) when not text, empty or too long.

    >>> clean_text("  Bien joué\\n partenaire ! ")
    'Bien joué  partenaire !'
    """
    if not isinstance(text, str):
        raise ChatRefused.refused(Refusal.CHAT_NOT_TEXT)
    if len(text) > CHAT_LENGTH:
        raise ChatRefused.refused(Refusal.CHAT_TOO_LONG, max=CHAT_LENGTH, n=len(text))
    cleaned = "".join(" " if ord(c) < 32 or 127 <= ord(c) < 160 else c for c in text).strip()
    if not cleaned:
        raise ChatRefused.refused(Refusal.CHAT_EMPTY)
    return cleaned


class RoomChat:
    """One room's chat: the ring of recent messages and the senders' buckets."""

    def __init__(self, room_id: str) -> None:
        self.room_id = room_id
        self.messages: deque[dict[str, Any]] = deque(maxlen=RING)
        self.limiter = RateLimiter(CHAT_PER_SECOND, CHAT_BURST)
        self.count = 0  # messages said since the room came to memory
        # A message's id: this run's mark and its number (a page that saw the messages of
        # before a restart takes a new one for a new message, not for one it holds).
        self.run = secrets.token_hex(4)

    def who(self, client: Client) -> str:
        """The person behind a connection, in this room: a digest of the room and his
        browser identity (his seat's letter when he has none), naming no secret."""
        person = client.identity if client.identity is not None else \
            f"seat:{client.seat}" if client.seat is not None else f"connection:{id(client)}"
        return hashlib.sha256(f"{self.room_id}\0{person}".encode()).hexdigest()[:16]

    def log(self, client: Client) -> None:
        """Send a connection the recent messages, if any (after its hello)."""
        if self.messages:
            who = self.who(client)
            client.push_json({"type": "chat_log", "messages": [
                _marked(entry, who) for entry in self.messages]})

    def say(self, client: Client, msg: dict[str, Any], *, private: bool,
            seats: list[Seat], everyone: list[Client]) -> None:
        """A chat message from ``client``: checked (module doc), kept and sent to
        ``everyone``; a refusal goes back to ``client`` alone."""
        try:
            entry = self._entry(client, msg, private, seats)
        except ChatRefused as refused:
            client.push_json({**refusal_message(refused, client.lang), "chat": True})
            return
        self.messages.append(entry)
        for other in everyone:
            other.push_json(_marked(entry, self.who(other)))

    def _entry(self, client: Client, msg: dict[str, Any], private: bool,
               seats: list[Seat]) -> dict[str, Any]:
        if private:
            raise ChatRefused.refused(Refusal.CHAT_PRIVATE)
        if not client.hello or (client.seat is None and not client.invited):
            raise ChatRefused.refused(Refusal.CHAT_NO_SEAT)
        quick = msg.get("quick")
        if quick is not None:
            if not isinstance(quick, str) or quick not in QUICK:
                raise ChatRefused.refused(Refusal.CHAT_NOT_TEXT)
            said: dict[str, str] = {"quick": quick}
        else:
            said = {"text": clean_text(msg.get("text"))}
        who = self.who(client)
        if not self.limiter.allow(who):
            raise ChatRefused.refused(Refusal.CHAT_TOO_FAST)
        seat = client.seat
        self.count += 1
        return {"type": "chat", "id": f"{self.run}.{self.count}", "from": {
            "who": who, "seat": SEAT_NAMES[seat] if seat is not None else None,
            "name": seats[seat].name if seat is not None else ""},
            **said, "time": int(time.time())}


def _marked(entry: dict[str, Any], who: str) -> dict[str, Any]:
    """A message as sent to ``who``: ``mine`` tells him his own."""
    return {**entry, "mine": entry["from"]["who"] == who}
