"""Rooms: one game held by the server, its seats, players and bots, over WebSockets.

A :class:`Room` holds a :class:`~belote.game.Match` and every rule: the clients
only send what their seat wants to do (a call, a card, "next deal") and receive
the state *of their seat*, built from :meth:`belote.round.Round.view` for that
seat alone (:meth:`Room.state_for`): no client is ever sent a card its seat may
not see (the other hands, the cards behind an announced declaration before it
is shown at trick 2, docs/rules.md §7.4, §7.6).

A room seats as many players as its profile: four, or three (N E S) and two
(N E) for belote at small tables (docs/rules.md §12, ``classic-3p`` and
``classic-2p``).  There a seat is never sent the kitty before it is taken, the
taker's discards (to the taker only, §12.1), the cards left out of the deal,
or a face-down card of belote découverte (§12.2); the turned card and the
bergère that stay on the table, and découverte's face-up cards, are public.

Seats.  A seat is ``open``, held by a ``human`` (who received a secret token
when taking it) or by a ``bot``.  A connection acts for the seat its token
names and for no other: the seat of an action is never read from the message.
A seat also remembers the browser identity that took it (see
:mod:`belote.web.security`): one browser holds at most one seat of a room.
A human whose connections are all closed keeps his seat for
:attr:`RoomSettings.grace` seconds; then a stand-in bot (the room's bot spec)
plays for him until a connection presents his token again.  With a turn timer
(:attr:`RoomSettings.turn_timer`) the stand-in also plays the one move of a
connected player who lets the timer run out.  Empty seats are filled by bots
on demand, or all at once when the game starts.

Who may see a room.  A table against bots is ``private``: only the browser
seated there sees it.  A room with friends has an invitation secret, carried
by its link (``/rooms/{id}?invite=...``): without it, or a seat of the room,
nobody can see, watch or join it.  Rooms whose host chose ``public`` are listed
on ``/rooms`` with their link.  Taking over a bot's seat mid-game needs the
invitation; the newcomer sees that seat's cards from then on, not the cards it
laid aside before (§12.1).

Durability.  With a :class:`~belote.web.store.RoomStore`, each room, its
seats (with what a seat taken over mid-deal may not see) and every deal and move
are written before the move is acknowledged; :meth:`RoomManager.restore` brings
every open room back after a restart, humans away (within their grace) until
they reconnect with their tokens.  A room nobody visits for
:attr:`RoomSettings.idle_ttl` seconds is closed, and says so to whoever opens its
link later.

Order.  The actions of a room (``join``, ``start``, ``play``..., the driver's
``apply`` and ``new_deal``) are coroutines: each holds the room's :attr:`Room.lock`
from its checks until its write is committed by the store's writer thread and
broadcast, so two messages for one room are handled one after the other and
none sees a move still being written.  A write refused (another program holding
the database) takes the move back: the game as on disk (:meth:`Room._reload`),
every earlier write of the room committed before it.

Bots act server-side in the room's driver task (:mod:`belote.web.driver`), paced by
:class:`RoomSettings` so that people can follow the table; the slow ones
(``pimc``) think in a worker thread so the event loop stays free.  Each action
bumps :attr:`Room.version`; a bot's answer computed for an older version is
dropped.

Every message is JSON text.  Client to server: ``hello`` (``token``),
``join`` (``seat``, ``name``), ``leave``, ``bot`` (``seat``), ``start``,
``call`` (``call``), ``play`` (``card``, ``declare``, ``belote``), ``discard``
(``cards``: the two cards the taker of a kitty deal lays aside, §12.1),
``next``, ``hint``, ``ping``, ``chat`` (``quick`` or ``text``).  Server to client:
``state`` (see :meth:`Room.state_for`), ``welcome`` (``seat``, ``token``), ``error``
(``message``, in the reader's language, and ``code``, the rule refused, for a refusal
of the rules: docs/json.md), ``hint`` (``call``, ``card`` or ``cards``: the strongest
bot's advice, to the asking connection only), ``pong``, ``chat`` and ``chat_log`` (the
table's talk, :mod:`belote.web.chat`).

The modules of a room: :mod:`belote.web.clients` (a connection's queue of
messages), :mod:`belote.web.seats` (a seat, the seat kinds, the statuses, the
visibilities, :class:`RoomSettings` and the errors), :mod:`belote.web.messages`
(what each message asks, the hint), :mod:`belote.web.room_state` (the state a seat
receives), :mod:`belote.web.driver` (the bots' turns and the pauses) and this one
(:class:`Room`: its seats, the actions and their log on disk; :class:`RoomManager`).
Every name this module used to define is importable from it still, but ``decide``:
a bot's turn is :func:`belote.bots.base.next_action`'s, and :data:`Action` the
engine's action value (:mod:`belote.actions`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Sequence
from typing import Any, Final

from belote.actions import Action, Call, Discard, Play
from belote.bidding import normalise_call
from belote.bots import Bot, make_bot
from belote.cards import Card, card_name, parse_card
from belote.deal import deal_mode
from belote.errors import IllegalActionError, InvalidCardError, Refusal, RuleCode
from belote.game import Match
from belote.hand import HandResult
from belote.options import Rules
from belote.play import SEAT_NAMES
from belote.round import (
    ALL_PASS,
    BIDDING,
    DISCARD,
    OVER,
    PLAY,
    Event,
    PlayerView,
    Round,
    action_of,
)
from belote.web import messages, room_state
from belote.web.chat import RoomChat
from belote.web.clients import Client
from belote.web.driver import INLINE_BOTS, Driver
from belote.web.seats import (
    NAME_LENGTH,
    NoAccess,
    RoomError,
    RoomSettings,
    RoomStatus,
    Seat,
    SeatKind,
    Visibility,
    clean_name,
)
from belote.web.security import secret_equal
from belote.web.store import RoomRow, RoomStore, SeatRow, StoreError, record_of_log

__all__ = [
    "HINT_BOT", "INLINE_BOTS", "NAME_LENGTH", "Action", "Client", "NoAccess", "Room", "RoomError",
    "RoomSettings", "RoomStatus", "Seat", "SeatKind", "Visibility", "make_bot",
]

log = logging.getLogger("belote.web.rooms")

HINT_BOT: Final = "pimc:worlds=12"  # the hint button's adviser, as belote play's "?"


def _card(text: object) -> Card:
    """The card a message names, or the room's refusal of a text that names none
    (:attr:`Refusal.NOT_A_CARD_TEXT`, said in the page's language from its code)."""
    if isinstance(text, str):
        with contextlib.suppress(InvalidCardError):
            return parse_card(text)
    raise RoomError.refused(Refusal.NOT_A_CARD_TEXT, text=text)


class Room:
    """A table of four seats (or three and two, §12) and the game it plays."""

    def __init__(
        self,
        room_id: str,
        rules: Rules,
        bot_spec: str,
        settings: RoomSettings,
        seed: int | None = None,
        name: str = "",
        *,
        visibility: str = Visibility.INVITE,
        client: str = "",
        creator: str | None = None,
        store: RoomStore | None = None,
    ) -> None:
        make_bot(bot_spec)  # refuse a bad spec now, not at the first bot move
        self.visibility = Visibility.of(visibility)
        self.id = room_id
        # A room with friends is joined through its link's invitation (§ module doc).
        self.invite: str | None = (None if self.visibility == Visibility.PRIVATE
                                   else secrets.token_urlsafe(12))
        self.client = client  # the network it was opened from: per-client limits
        self.creator = creator  # the browser identity that opened it: its limit too
        self.store = store
        self.seq = 0  # events written to the room's log
        self.rules = rules
        self.bot_spec = bot_spec
        self.settings = settings
        self.name = name.strip()[:60] if name else ""
        self.seed = seed if seed is not None else secrets.randbits(48)
        self._rng = random.Random(self.seed)
        self.players = rules.players
        self.mode = deal_mode(rules.players, rules.three_deal, rules.two_deal, rules.is_auction)
        self.seats = [Seat(i) for i in range(self.players)]
        self.spectators: set[Client] = set()
        self.status = RoomStatus.WAITING
        self.match: Match | None = None
        self.round: Round | None = None  # the deal on the table (a finished one stays)
        self.result: HandResult | None = None  # of the deal on the table, once over
        self.between = False  # the deal on the table is over; the next is not dealt
        self.version = 0
        self.actions = 0  # calls and cards played so far (a load measure)
        self.error: str | None = None  # a failure of the driver, shown to everyone
        self.created = self.touched = time.time()
        self._saved_touch = self.touched
        self._turn_since = time.monotonic()  # when the player to act got the turn
        self._driver = Driver(self)  # the bots' turns and the pauses (web.driver)
        self._hints: set[asyncio.Task[None]] = set()  # hints being worked out (kept alive)
        self.chat = RoomChat(room_id)  # the table's talk, in memory (web.chat)
        # One action at a time: an action holds it from its checks until its write is
        # committed and broadcast (module doc, "Order").
        self.lock = asyncio.Lock()
        self._writing = False  # a write of the room is pending: nothing is broadcast
        self._broadcast_due = False  # ... and someone's presence changed meanwhile

    # --- the log on disk ---------------------------------------------------------------

    def row(self) -> RoomRow:
        return RoomRow(id=self.id, created=self.created, touched=self.touched,
                       profile=self.rules.profile, options=self.rules.overrides(),
                       bots=self.bot_spec, name=self.name, visibility=self.visibility,
                       invite=self.invite, seed=self.seed, client=self.client, closed=None,
                       creator=self.creator)

    async def _log(self, *events: tuple[str, Any], seats: bool = False) -> None:
        """Write events of the game (``(kind, data)``, and the seats) before they are
        acknowledged, all or none: the writer thread commits them
        (:mod:`belote.web.store`) while the room's lock holds every other action back."""
        if self.store is not None:
            await self._written(self.store.append_events(
                self.id, [(self.seq + 1 + i, kind, data) for i, (kind, data) in enumerate(events)],
                [s.row() for s in self.seats] if seats else None))
        self.seq += len(events)

    async def _save_seats(self) -> None:
        if self.store is not None:
            await self._written(self.store.put_seats(self.id, [s.row() for s in self.seats]))

    async def _written(self, write: Awaitable[None]) -> None:
        """Await a write; meanwhile nothing is broadcast (a presence change waits for
        it: the engine already holds the move being written).  A refused write
        sends what waited once the room is as on disk again (:meth:`_settle`)."""
        self._writing = True
        try:
            await write
        finally:
            self._writing = False

    def _settle(self) -> None:
        """After a refused write, the game as on disk: send what a presence change
        held back meanwhile."""
        if self._broadcast_due:
            self.broadcast()

    def visit(self) -> None:
        """Someone looked at the room: it is not idle (saved at most once a minute,
        by the writer, nobody waiting)."""
        self.touched = time.time()
        if self.store is not None and self.touched - self._saved_touch > 60:
            self._saved_touch = self.touched
            self.store.touch_later(self.id, self.touched)

    def restore(self, seats: Sequence[SeatRow], log: Sequence[tuple[int, str, Any]]) -> None:
        """Bring the room back from its saved seats and log: every deal and move is
        replayed through the engine (and checked again); humans are away, within
        their grace, until they reconnect with their tokens."""
        now = time.monotonic()
        for row in seats:
            if not 0 <= row.seat < self.players:
                continue
            s = self.seats[row.seat]
            s.kind, s.name, s.token, s.owner = SeatKind(row.kind), row.name, row.token, row.owner
            s.secret_until = row.secret_until
            s.clients = set()
            s.bot = self._new_bot() if row.kind == SeatKind.BOT else None
            s.away_since = now if row.kind == SeatKind.HUMAN else None
        self._replay(log)

    def _replay(self, log: Sequence[tuple[int, str, Any]]) -> None:
        record = record_of_log(self.rules.profile, self.rules.overrides(), list(log))
        started = record is not None
        self.seq = len(log)
        self.actions = sum(1 for _seq, kind, _data in log if kind == "action")
        self.version += 1
        if not started:
            self.status, self.match, self.round, self.result = RoomStatus.WAITING, None, None, None
            self.between = False
            return
        self.match = Match.from_record(record, seed=self._rng.randrange(2**63))
        for s in self.seats:
            if s.kind == SeatKind.HUMAN and s.bot is None:
                s.bot = self._new_bot()
        rounds = self.match.rounds
        self.round = rounds[-1] if rounds else None
        rnd = self.round
        self.between = rnd is None or rnd.phase in (OVER, ALL_PASS)
        self.result = rnd.result() if rnd is not None and rnd.phase == OVER else None
        self.status = RoomStatus.FINISHED if self.match.finished else RoomStatus.PLAYING

    def _reload(self) -> None:
        """After a write failed: the game as the log on disk has it (every earlier
        write of the room was committed: the room's lock orders them)."""
        if self.store is not None:
            with contextlib.suppress(StoreError):
                self._replay(self.store.log(self.id))

    # --- who may see it ----------------------------------------------------------------

    def seat_of_owner(self, identity: str | None) -> int | None:
        if identity is None:
            return None
        for s in self.seats:
            if s.kind == SeatKind.HUMAN and s.owner is not None and secret_equal(s.owner, identity):
                return s.index
        return None

    def invited(self, invite: object) -> bool:
        return secret_equal(self.invite, invite)

    def may_see(self, identity: str | None, invite: object = None, token: object = None
                ) -> bool:
        """Whether a browser (its identity, the invitation it brings, a seat token)
        may see the room: the room's link, or a seat of its own."""
        return (self.invited(invite) or self.seat_of_owner(identity) is not None
                or self.seat_of_token(token) is not None)

    # --- seats -------------------------------------------------------------------

    def _new_bot(self) -> Bot:
        return make_bot(self.bot_spec, seed=self._rng.randrange(2**32))

    def seat_of_token(self, token: object) -> int | None:
        for seat in self.seats:
            if secret_equal(seat.token, token):
                return seat.index
        return None

    async def join(self, seat: int, name: object = "", client: Client | None = None,
                   owner: str | None = None) -> str:
        """Take ``seat`` (open, or played by a bot); answers the seat's secret token.

        ``owner`` is the browser identity taking it (one seat per browser);
        ``client``, when given, is the connection that now acts for the seat."""
        async with self.lock:
            return await self._join(seat, name, client, owner)

    async def _join(self, seat: int, name: object, client: Client | None,
                    owner: str | None) -> str:
        if self.status == RoomStatus.FINISHED:
            raise RoomError.refused(Refusal.ROOM_GAME_OVER, f"room {self.id}")
        s = self.seats[self.check_seat(seat)]
        if s.kind == SeatKind.HUMAN:
            raise RoomError.refused(Refusal.SEAT_TAKEN, seat=SEAT_NAMES[seat], name=s.name)
        held = self.seat_of_owner(owner)
        if held is not None:
            raise RoomError.refused(Refusal.ONE_SEAT_PER_PLAYER, seat=SEAT_NAMES[held])
        if (self.visibility == Visibility.PRIVATE
                and any(x.kind == SeatKind.HUMAN for x in self.seats)):
            raise RoomError.refused(Refusal.PRIVATE_TABLE)
        old = (s.kind, s.name, s.token, s.owner, s.secret_until)
        if self.status == RoomStatus.PLAYING and s.kind == SeatKind.BOT and self.round is not None:
            # Taken over mid-deal: what the bot laid aside stays its secret (§12.1),
            # kept with the seat (a restart shows him no more).
            s.secret_until = self.match.deals if self.match is not None else 0
        s.kind = SeatKind.HUMAN
        s.name = clean_name(name, seat)
        s.token = secrets.token_urlsafe(18)
        s.owner = owner
        s.away_since = None if client is not None else time.monotonic()
        try:
            await self._save_seats()
        except StoreError:
            s.kind, s.name, s.token, s.owner, s.secret_until = old
            self._settle()
            raise
        if client is not None:
            self._bind(client, seat)
        self.changed()
        return s.token

    async def leave(self, seat: int) -> None:
        """Give a seat back before the game starts."""
        async with self.lock:
            if self.status != RoomStatus.WAITING:
                raise RoomError.refused(Refusal.LEAVE_BEFORE_START)
            s = self.seats[seat]
            old = (s.kind, s.name, s.token, s.bot, s.owner)
            s.kind, s.name, s.token, s.bot, s.owner = SeatKind.OPEN, "", None, None, None
            try:
                await self._save_seats()
            except StoreError:
                s.kind, s.name, s.token, s.bot, s.owner = old
                self._settle()
                raise
            for client in list(s.clients):
                client.seat = None
                self.spectators.add(client)
            s.clients.clear()
            self.changed()

    async def fill_bot(self, seat: int) -> None:
        """Put a bot on an open seat."""
        async with self.lock:
            if self.status == RoomStatus.FINISHED:
                raise RoomError.refused(Refusal.ROOM_GAME_OVER, f"room {self.id}")
            s = self.seats[self.check_seat(seat)]
            if s.kind != SeatKind.OPEN:
                raise RoomError.refused(Refusal.SEAT_NOT_EMPTY, seat=SEAT_NAMES[seat])
            s.kind, s.bot = SeatKind.BOT, self._new_bot()
            s.name = f"Bot {SEAT_NAMES[seat]}"
            try:
                await self._save_seats()
            except StoreError:
                s.kind, s.bot, s.name = SeatKind.OPEN, None, ""
                self._settle()
                raise
            self.changed()

    def check_seat(self, seat: int) -> int:
        """``seat`` when the table has it (N E S with three players, N E with two)."""
        if not 0 <= seat < self.players:
            names = ", ".join(SEAT_NAMES[:self.players])
            raise RoomError.refused(
                Refusal.NOT_A_SEAT, f"seat {SEAT_NAMES[seat] if 0 <= seat < 4 else seat!r}",
                players=self.players, seats=names)
        return seat

    def bot_plays(self, seat: int, now: float | None = None) -> bool:
        """Whether a bot acts for ``seat`` now: a bot seat, a human away for longer
        than the grace period, or (with a turn timer) one whose time ran out."""
        s = self.seats[seat]
        if s.kind != SeatKind.HUMAN:
            return True
        return self.stand_in_at(seat) <= (time.monotonic() if now is None else now)

    def stand_in_at(self, seat: int) -> float:
        """When a stand-in bot plays for the human at ``seat`` if he does not act:
        the end of his grace when away, of his turn timer when here (inf: never)."""
        s = self.seats[seat]
        if s.kind != SeatKind.HUMAN:
            return 0.0
        if not s.connected:
            since = s.away_since if s.away_since is not None else 0.0
            return since + self.settings.grace
        timer = self.settings.turn_timer
        if timer is None or self.status != RoomStatus.PLAYING or self.between \
                or self.round is None or self.round.current_player() != seat:
            return float("inf")
        return self._turn_since + timer

    def attach(self, client: Client, token: object = None) -> int | None:
        """Bind a connection: to the seat its token holds, else as a spectator.

        The others hear of it only when the seat's presence changes (its first
        connection); a repeated hello is answered to its own connection alone."""
        self.visit()
        seat = self.seat_of_token(token) if token else None
        if seat is not None and client.seat == seat:
            self._send_state(client)
            return seat
        if seat is None:
            self._bind(client, None)
            self._send_state(client)
            self._driver.wake()  # a table of bots nobody watched plays on
            return None
        back = not self.seats[seat].connected
        self._bind(client, seat)
        self.seats[seat].away_since = None
        if back:
            self.presence()
        else:
            self._send_state(client)
        return seat

    def _bind(self, client: Client, seat: int | None) -> None:
        self.spectators.discard(client)
        for s in self.seats:
            s.clients.discard(client)
        client.seat = seat
        if seat is None:
            self.spectators.add(client)
        else:
            self.seats[seat].clients.add(client)

    def detach(self, client: Client) -> None:
        """A connection closed: an absent human keeps his seat for the grace period,
        then a stand-in bot plays for him (module doc)."""
        self.visit()
        if client in self.spectators:
            self.spectators.discard(client)
            return
        for s in self.seats:
            if client in s.clients:
                s.clients.discard(client)
                if s.kind == SeatKind.HUMAN and not s.clients:
                    s.away_since = time.monotonic()
                    if s.bot is None:
                        s.bot = self._new_bot()
                self.presence()

    def clients(self) -> list[Client]:
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.clients)
        return out

    # --- the game ---------------------------------------------------------------------

    async def start(self) -> None:
        """Fill the empty seats with bots and deal the first deal."""
        async with self.lock:
            if self.status != RoomStatus.WAITING:
                raise RoomError.refused(Refusal.GAME_STARTED)
            before = [(s.kind, s.bot, s.name) for s in self.seats]
            for s in self.seats:
                if s.kind == SeatKind.OPEN:
                    s.kind, s.bot = SeatKind.BOT, self._new_bot()
                    s.name = f"Bot {SEAT_NAMES[s.index]}"
                elif s.kind == SeatKind.HUMAN and s.bot is None:
                    s.bot = self._new_bot()
            match = Match(self.rules, seed=self._rng.randrange(2**63))
            rnd = match.new_round()
            try:
                await self._log(("start", {}), ("deal", self._deal_data(rnd)), seats=True)
            except StoreError:
                for s, (kind, bot, name) in zip(self.seats, before, strict=True):
                    s.kind, s.bot, s.name = kind, bot, name
                self._settle()
                raise
            self.match = match
            self.status = RoomStatus.PLAYING
            self._dealt(rnd)
        self.run()

    def run(self) -> None:
        """Start the driver task (bots, pauses) of a game in progress."""
        self._driver.start()

    @staticmethod
    def _deal_data(rnd: Round) -> dict[str, Any]:
        return {"dealer": SEAT_NAMES[rnd.dealer], "deck": [card_name(c) for c in rnd.deck]}

    async def new_deal(self, version: int | None = None) -> None:
        """Deal the next deal (the driver's, once the finished one has been shown,
        unless the room moved on from ``version`` meanwhile)."""
        async with self.lock:
            if version is not None and (self.version != version or not self.between
                                        or self.status != RoomStatus.PLAYING):
                return
            await self._new_deal()

    async def _new_deal(self) -> None:
        assert self.match is not None
        rnd = self.match.new_round()
        try:
            await self._log(("deal", self._deal_data(rnd)))
        except StoreError:
            self._reload()
            self._settle()
            raise
        self._dealt(rnd)

    def _dealt(self, rnd: Round) -> None:
        self.round = rnd
        self.result = None
        self.between = False
        self.changed()

    def live_round(self) -> Round:
        """The deal on the table, while it is played (else the room refuses)."""
        if self.status == RoomStatus.WAITING:
            raise RoomError.refused(Refusal.GAME_NOT_STARTED)
        if self.status == RoomStatus.FINISHED:
            raise RoomError.refused(Refusal.ROOM_GAME_OVER)
        if self.between or self.round is None:
            raise RoomError.refused(Refusal.DEAL_OVER)
        return self.round

    async def call(self, seat: int, text: object) -> None:
        """A call for ``seat`` (its turn, or an out-of-turn coinche where allowed, §4.5):
        the engine checks whose turn it is, the call naming the seat."""
        async with self.lock:
            self._turn(seat, Call)
            if not isinstance(text, str):  # a message's field of another kind: no rule's
                raise RoomError.refused(Refusal.BAD_FIELD, field="call",
                                        detail=f"not a call: {text!r}")
            await self._act(Call(normalise_call(text), seat))

    async def play(self, seat: int, card_text: object, declare: bool = True,
                   belote: bool = True) -> None:
        """Play a card for ``seat``; the engine names the rule an illegal card breaks.

        ``declare`` false announces nothing with the seat's first card (§7.4), ``belote``
        false declines belote / rebelote (§7.7)."""
        async with self.lock:
            rnd = self._turn(seat, Play)
            c = _card(card_text)
            first = rnd.announced[seat] is None and not rnd.tricks
            await self._act(Play(c, () if first and not declare else None, bool(belote)))

    async def discard(self, seat: int, cards: object) -> None:
        """The taker of a kitty deal lays two cards aside (docs/rules.md §12.1 ``kitty``)."""
        async with self.lock:
            self._turn(seat, Discard)
            if not isinstance(cards, list) or len(cards) != 2:
                raise IllegalActionError(RuleCode.DISCARD_TWO_CARDS, given=repr(cards))
            await self._act(Discard(tuple(_card(c) for c in cards)))

    def _turn(self, seat: int, kind: type[Action]) -> Round:
        """The deal on the table, once the room has checked that ``seat`` may act
        there now with an action of ``kind``, in the room's own words (the deal is
        over, no card during the bidding, not his turn...); the rules of the action
        itself are the engine's (:meth:`Round.apply`)."""
        rnd = self.live_round()
        phase = rnd.phase
        if kind is Call:  # whose turn it is to call: the engine's (an out-of-turn coinche)
            if phase != BIDDING:
                raise IllegalActionError(RuleCode.BIDDING_OVER, seat=seat)
            return rnd
        turn = rnd.current_player()
        if kind is Play:
            if phase == DISCARD:
                raise IllegalActionError(RuleCode.DISCARD_FIRST, seat=seat, turn=turn)
            if phase != PLAY:
                raise IllegalActionError(RuleCode.BIDDING_GOES_ON, seat=seat)
            if turn != seat:
                raise IllegalActionError(RuleCode.NOT_YOUR_TURN, seat=seat, turn=turn, act="play")
            return rnd
        if phase != DISCARD:
            raise IllegalActionError(RuleCode.NO_DISCARD_NOW, seat=seat)
        if seat != turn:
            raise IllegalActionError(RuleCode.NOT_THE_TAKER, seat=seat, turn=turn)
        return rnd

    async def _act(self, action: Action) -> None:
        """Apply ``action`` to the deal on the table (:meth:`Round.apply`, which checks
        it as :meth:`Round.verify` says and refuses it with the rule), then write it
        before it is acknowledged (:meth:`_after_action`).  Under the room's lock."""
        rnd = self.round
        assert rnd is not None
        await self._after_action(rnd.apply(action))

    async def next_deal(self) -> None:
        """Deal the next deal now (the finished one has been seen)."""
        async with self.lock:
            if self.status == RoomStatus.FINISHED:
                raise RoomError.refused(Refusal.ROOM_GAME_OVER)
            if self.status != RoomStatus.PLAYING or not self.between:
                raise RoomError.refused(Refusal.DEAL_NOT_OVER)
            await self._new_deal()

    async def _after_action(self, event: Event) -> None:
        """The action the engine just took (``event``, the deal's log's last) is
        written, as :meth:`Round.actions_json` writes it, then counted and broadcast; a
        write refused takes it back (the game as on disk) and the refusal goes to
        whoever acted."""
        rnd = self.round
        assert rnd is not None and self.match is not None
        try:
            await self._log(("action", action_of(event).to_json()))
        except StoreError:
            self._reload()  # the move is taken back: the game as saved
            self._settle()
            raise
        self.actions += 1
        if rnd.phase in (OVER, ALL_PASS):
            self.result = rnd.result() if rnd.phase == OVER else None
            self.match.finish_round()
            self.between = True
            if self.match.finished:
                self.status = RoomStatus.FINISHED
                if self.store is not None:
                    self.store.finish_later(self.id)
        self.changed()

    async def apply(self, seat: int, action: Action, version: int | None = None) -> bool:
        """A bot's action for ``seat`` (the driver's, :func:`belote.bots.base.next_action`),
        checked and applied as a person's (:meth:`_turn`, :meth:`_act`); dropped (False)
        when the room moved on from ``version`` while it waited for its turn to act."""
        async with self.lock:
            if version is not None and (self.version != version
                                        or self.status != RoomStatus.PLAYING
                                        or not self.bot_plays(seat)):
                return False
            rnd = self._turn(seat, type(action))
            turn = rnd.current_player()
            if isinstance(action, Call) and action.seat is None and turn != seat:
                raise IllegalActionError(RuleCode.NOT_YOUR_TURN, seat=seat, turn=turn, act="call")
            if isinstance(action, Call) and action.seat not in (None, seat):
                raise IllegalActionError(f"{SEAT_NAMES[seat]} may not call for "
                                         f"{SEAT_NAMES[action.seat]}")  # acts for its own seat
            await self._act(action)
            return True

    # --- messages ---------------------------------------------------------------------

    async def handle(self, client: Client, msg: object) -> None:
        """One message from a connection; a refusal is answered with an error message
        (:func:`belote.web.messages.handle`)."""
        await messages.handle(self, client, msg)

    def hint_bot(self) -> Bot:
        """The hint button's adviser (:data:`HINT_BOT`), seeded from the room."""
        return make_bot(HINT_BOT, seed=self._rng.randrange(2**32))

    def keep(self, task: asyncio.Task[None]) -> None:
        """Keep a hint being worked out alive until it is done."""
        self._hints.add(task)
        task.add_done_callback(self._hints.discard)

    def changed(self) -> None:
        """The game changed: a new version, the driver woken, every seat told."""
        self.version += 1
        self._turn_since = time.monotonic()
        self._driver.wake()
        self.broadcast()

    def presence(self) -> None:
        """Who is here changed (not the game): everyone told, the driver woken to
        see whether a stand-in plays, the version (and the bots' thinking) kept."""
        self._driver.wake()
        self.broadcast()

    def broadcast(self) -> None:
        """Send each connection the state of its own seat (once the room's pending
        write, if any, is committed: see :meth:`_written`; what every seat sees alike
        built once, and written as JSON text once for every connection to one seat:
        :func:`belote.web.room_state.state_texts`)."""
        if self._writing:
            self._broadcast_due = True
            return
        self._broadcast_due = False
        seated = [s for s in self.seats if s.clients]
        wanted: list[int | None] = [s.index for s in seated]
        if self.spectators:
            wanted.append(None)
        if not wanted:
            return
        texts = room_state.state_texts(self, wanted)
        for s, text in zip(seated, texts, strict=False):
            for client in s.clients:
                client.push_state(text)
        if self.spectators:
            for client in self.spectators:
                client.push_state(texts[-1])

    def _send_state(self, client: Client) -> None:
        client.push_state(room_state.state_texts(self, [client.seat])[0])

    # --- what each seat is sent (web.room_state) --------------------------------------

    def seat_json(self, s: Seat) -> dict[str, Any]:
        return room_state.seat_json(self, s)

    async def settled_state(self, seat: int | None) -> dict[str, Any]:
        """:meth:`state_for` once no action of the room is half-done (a write pending
        is committed or refused): what a page's request reads."""
        async with self.lock:
            return self.state_for(seat)

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator, who sees no hand): the
        ``state`` message, :func:`belote.web.room_state.state_for`."""
        return room_state.state_for(self, seat)

    def known_view(self, rnd: Round, seat: int) -> PlayerView:
        """What the person at ``seat`` may know: the seat's view, less the cards it
        laid aside before he took it over mid-deal (§12.1); the hint's adviser
        reads this one too."""
        return room_state.known_view(self, rnd, seat)

    # --- the driver (web.driver) -----------------------------------------------------

    async def stop(self) -> None:
        """Stop the driver and close every connection."""
        await self._driver.stop()
        for client in self.clients():
            client.close()
