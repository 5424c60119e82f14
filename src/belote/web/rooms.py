"""Rooms: one game held by the server, its seats, players and bots, over WebSockets.

A :class:`Room` holds a :class:`~belote.game.Match` and every rule: the clients
only send what their seat wants to do (a call, a card, "next deal") and receive
the state *of their seat*, built from :meth:`belote.round.Round.view` for that
seat alone (:meth:`Room.state_for`): no client is ever sent a card its seat may
not see (the other hands, the cards behind an announced declaration before it
is shown at trick 2, RULES.md §7.4, §7.6).

A room seats as many players as its profile: four, or three (N E S) and two
(N E) for belote at small tables (RULES.md §12, ``classic-3p`` and
``classic-2p``).  There a seat is never sent the kitty before it is taken, the
taker's discards (to the taker only, §12.1), the cards left out of the deal,
or a face-down card of belote découverte (§12.2); the turned card and the
bergère that stay on the table, and découverte's face-up cards, are public.

Seats.  A seat is ``open``, held by a ``human`` (who received a secret token
when taking it) or by a ``bot``.  A connection acts for the seat its token
names and for no other: the seat of an action is never read from the message.
A human whose connections are all closed is played by a bot (the room's bot
spec) until a connection presents his token again.  Empty seats are filled by
bots on demand, or all at once when the game starts.

Bots act server-side in the room's driver task (:meth:`Room._run`), paced by
:class:`RoomSettings` so that people can follow the table; the slow ones
(``pimc``) think in a worker thread so the event loop stays free.  Each action
bumps :attr:`Room.version`; a bot's answer computed for an older version is
dropped.

Every message is JSON text.  Client to server: ``hello`` (``token``),
``join`` (``seat``, ``name``), ``leave``, ``bot`` (``seat``), ``start``,
``call`` (``call``), ``play`` (``card``, ``declare``, ``belote``), ``discard``
(``cards``: the two cards the taker of a kitty deal lays aside, §12.1),
``next``, ``ping``.  Server to client: ``state`` (see :meth:`Room.state_for`),
``welcome`` (``seat``, ``token``), ``error`` (``message``), ``pong``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from belote.auction import COINCHE, NumericAuction
from belote.bidding import normalise_call
from belote.bots import Bot, make_bot
from belote.bots.base import check_table, default_discard, discard_trump
from belote.cards import KING, QUEEN, Card, card_name, mask_of, parse_card, trump_name
from belote.deal import deal_mode
from belote.declarations import Declaration, belote_suits, best_announcement
from belote.errors import BeloteError, IllegalActionError
from belote.game import Match
from belote.hand import DECOUVERTE, HandResult
from belote.options import Rules, make_rules
from belote.play import SEAT_NAMES, TEAM_NAMES
from belote.round import ALL_PASS, BIDDING, DISCARD, OVER, PLAY, PlayerView, Round
from belote.web.present import (
    announced_type,
    current_trick_json,
    declaration_json,
    parse_seat,
    result_json,
    small_result_json,
    small_score_json,
    sort_hand,
    spanish_message,
    symbol_message,
    trick_json,
)

log = logging.getLogger("belote.web.rooms")

WAITING: Final = "waiting"
PLAYING: Final = "playing"
FINISHED: Final = "finished"

OPEN: Final = "open"
HUMAN: Final = "human"
BOT: Final = "bot"

# Bots quick enough to answer on the event loop itself (tens of microseconds).
INLINE_BOTS: Final = frozenset({"random", "heuristic"})
NAME_LENGTH: Final = 24


class RoomError(BeloteError):
    """A room that does not exist, or an action the room refuses (not the rules')."""


@dataclass(frozen=True)
class RoomSettings:
    """Pace and limits of the rooms of one server."""

    bot_delay: float = 0.6  # seconds a bot waits before it acts, so people can follow
    trick_pause: float = 0.9  # more before a bot leads to a new trick (the last one stays shown)
    deal_pause: float = 30.0  # a finished deal stays shown this long unless someone asks "next"
    idle_ttl: float = 3600.0  # a room without any connection for this long is closed
    max_rooms: int = 2000


class Client:
    """One connection: a queue of messages, and the latest state of its seat.

    States replace each other (a slow connection gets the newest one, not a
    backlog); other messages (errors, welcome) are all sent, before the state.
    """

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self._send = send
        self.seat: int | None = None
        self._pending: deque[str] = deque()
        self._state: str | None = None
        self._event = asyncio.Event()
        self.closed = False

    def push(self, text: str) -> None:
        self._pending.append(text)
        self._event.set()

    def push_json(self, obj: Mapping[str, Any]) -> None:
        self.push(json.dumps(obj, ensure_ascii=False))

    def push_state(self, text: str) -> None:
        self._state = text
        self._event.set()

    def close(self) -> None:
        self.closed = True
        self._event.set()

    async def pump(self) -> None:
        """Send what is queued until the connection closes."""
        while not self.closed:
            await self._event.wait()
            self._event.clear()
            while self._pending and not self.closed:
                await self._send(self._pending.popleft())
            if self._state is not None and not self.closed:
                text, self._state = self._state, None
                await self._send(text)


@dataclass
class Seat:
    index: int
    kind: str = OPEN
    name: str = ""
    token: str | None = None
    bot: Bot | None = None  # the bot seat's player, or the stand-in of an absent human
    clients: set[Client] = field(default_factory=set)

    @property
    def connected(self) -> bool:
        return bool(self.clients)


Action = tuple[str, Any, Any, Any]


def decide(bot: Bot, view: PlayerView) -> Action:
    """What ``bot`` does from a seat's view: ``("call", text, _, _)``,
    ``("discard", [card, card], _, _)`` (the taker of a kitty deal, §12.1) or
    ``("play", card, declarations, say_belote)``."""
    if view.phase == BIDDING:
        return ("call", bot.call(view), None, None)
    if view.phase == DISCARD:
        chooser = getattr(bot, "discard", None)
        cards = list(chooser(view)) if chooser is not None else default_discard(view)
        return ("discard", cards, None, None)
    c = bot.play(view)
    decls: Sequence[Declaration] | None = None
    if not view.tricks and view.announced[view.seat] is None:
        decls = bot.declarations(view)
    belote = bot.say_belote(view, c) if isinstance(c, int) and c & 7 in (KING, QUEEN) else True
    return ("play", c, decls, belote)


def _clean_name(name: object, seat: int) -> str:
    text = " ".join(name.split()) if isinstance(name, str) else ""
    return text[:NAME_LENGTH] or f"Player {SEAT_NAMES[seat]}"


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
    ) -> None:
        make_bot(bot_spec)  # refuse a bad spec now, not at the first bot move
        self.id = room_id
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
        self.status = WAITING
        self.match: Match | None = None
        self.round: Round | None = None  # the deal on the table (a finished one stays)
        self.result: HandResult | None = None  # of the deal on the table, once over
        self.between = False  # the deal on the table is over; the next is not dealt
        self.version = 0
        self.actions = 0  # calls and cards played so far (a load measure)
        self.error: str | None = None  # a failure of the driver, shown to everyone
        self.created = self.touched = time.monotonic()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # --- seats -------------------------------------------------------------------

    def _new_bot(self) -> Bot:
        return make_bot(self.bot_spec, seed=self._rng.randrange(2**32))

    def seat_of_token(self, token: object) -> int | None:
        if not isinstance(token, str) or not token:
            return None
        for seat in self.seats:
            if seat.token is not None and hmac.compare_digest(seat.token, token):
                return seat.index
        return None

    def join(self, seat: int, name: object = "", client: Client | None = None) -> str:
        """Take ``seat`` (open, or played by a bot); answers the seat's secret token.

        ``client``, when given, is the connection that now acts for the seat."""
        if self.status == FINISHED:
            raise RoomError(f"room {self.id}: the game is over")
        s = self.seats[self.check_seat(seat)]
        if s.kind == HUMAN:
            raise RoomError(f"seat {SEAT_NAMES[seat]} is taken by {s.name}")
        s.kind = HUMAN
        s.name = _clean_name(name, seat)
        s.token = secrets.token_urlsafe(18)
        if client is not None:
            self._bind(client, seat)
        self._changed()
        return s.token

    def leave(self, seat: int) -> None:
        """Give a seat back before the game starts."""
        if self.status != WAITING:
            raise RoomError("a seat can be left only before the game starts")
        s = self.seats[seat]
        for client in list(s.clients):
            client.seat = None
            self.spectators.add(client)
        s.clients.clear()
        s.kind, s.name, s.token, s.bot = OPEN, "", None, None
        self._changed()

    def fill_bot(self, seat: int) -> None:
        """Put a bot on an open seat."""
        if self.status == FINISHED:
            raise RoomError(f"room {self.id}: the game is over")
        s = self.seats[self.check_seat(seat)]
        if s.kind != OPEN:
            raise RoomError(f"seat {SEAT_NAMES[seat]} is not empty")
        s.kind, s.bot = BOT, self._new_bot()
        s.name = f"Bot {SEAT_NAMES[seat]}"
        self._changed()

    def check_seat(self, seat: int) -> int:
        """``seat`` when the table has it (N E S with three players, N E with two)."""
        if not 0 <= seat < self.players:
            names = ", ".join(SEAT_NAMES[:self.players])
            raise RoomError(f"seat {SEAT_NAMES[seat] if 0 <= seat < 4 else seat!r}: "
                            f"this table of {self.players} seats {names}")
        return seat

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot acts for ``seat`` now (a bot seat, or an absent human)."""
        s = self.seats[seat]
        return s.kind != HUMAN or not s.connected

    def attach(self, client: Client, token: object = None) -> int | None:
        """Bind a connection: to the seat its token holds, else as a spectator."""
        self.touched = time.monotonic()
        seat = self.seat_of_token(token) if token else None
        if seat is None:
            self._bind(client, None)
            self._send_state(client)
            return None
        self._bind(client, seat)
        self._changed()
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
        """A connection closed: an absent human's seat passes to a bot (§ rooms)."""
        self.touched = time.monotonic()
        if client in self.spectators:
            self.spectators.discard(client)
            return
        for s in self.seats:
            if client in s.clients:
                s.clients.discard(client)
                if s.kind == HUMAN and not s.clients and s.bot is None:
                    s.bot = self._new_bot()
                self._changed()

    def clients(self) -> list[Client]:
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.clients)
        return out

    # --- the game ---------------------------------------------------------------------

    def start(self) -> None:
        """Fill the empty seats with bots and deal the first deal."""
        if self.status != WAITING:
            raise RoomError("the game has already started")
        for s in self.seats:
            if s.kind == OPEN:
                s.kind, s.bot, s.name = BOT, self._new_bot(), f"Bot {SEAT_NAMES[s.index]}"
            elif s.kind == HUMAN and s.bot is None:
                s.bot = self._new_bot()
        self.match = Match(self.rules, seed=self._rng.randrange(2**63))
        self.status = PLAYING
        self._deal()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def _deal(self) -> None:
        assert self.match is not None
        self.round = self.match.new_round()
        self.result = None
        self.between = False
        self._changed()

    def _live_round(self) -> Round:
        if self.status == WAITING:
            raise RoomError("the game has not started")
        if self.status == FINISHED:
            raise RoomError("the game is over")
        if self.between or self.round is None:
            raise RoomError("the deal is over: ask for the next deal")
        return self.round

    def call(self, seat: int, text: object) -> None:
        """A call for ``seat`` (its turn, or an out-of-turn coinche where allowed, §4.5)."""
        rnd = self._live_round()
        if rnd.phase == DISCARD:
            raise IllegalActionError(f"{SEAT_NAMES[seat]}: no call now, the bidding is over")
        if rnd.phase != BIDDING:
            raise IllegalActionError(f"{SEAT_NAMES[seat]}: no call now, the cards are played")
        rnd.call(normalise_call(text), seat)
        self._after_action()

    def play(self, seat: int, card_text: object, declare: bool = True,
             belote: bool = True) -> None:
        """Play a card for ``seat``; the engine names the rule an illegal card breaks."""
        rnd = self._live_round()
        if rnd.phase == DISCARD:
            raise IllegalActionError(
                f"{SEAT_NAMES[seat]}: no card now, {SEAT_NAMES[rnd.current_player()]} lays "
                "two cards aside first (§12.1)")
        if rnd.phase != PLAY or rnd.play is None:
            raise IllegalActionError(f"{SEAT_NAMES[seat]}: no card now, the bidding goes on")
        turn = rnd.current_player()
        if turn != seat:
            raise IllegalActionError(
                f"it is {SEAT_NAMES[turn]}'s turn to play, not {SEAT_NAMES[seat]}'s")
        if not isinstance(card_text, str):
            raise IllegalActionError(f"not a card: {card_text!r}")
        c = parse_card(card_text)
        rnd.play.verify_play(c)
        first = rnd.play.announced[seat] is None and not rnd.play.state.tricks
        decls: list[Declaration] | None = [] if first and not declare else None
        rnd.play_card(c, decls, bool(belote))
        self._after_action()

    def discard(self, seat: int, cards: object) -> None:
        """The taker of a kitty deal lays two cards aside (RULES.md §12.1 ``kitty``)."""
        rnd = self._live_round()
        if rnd.phase != DISCARD:
            raise IllegalActionError(
                f"{SEAT_NAMES[seat]}: nothing to lay aside now (only the taker of a kitty "
                "deal, once he took it, §12.1)")
        taker = rnd.current_player()
        if seat != taker:
            raise IllegalActionError(
                f"{SEAT_NAMES[taker]} took the kitty and lays two cards aside, "
                f"not {SEAT_NAMES[seat]}")
        if not isinstance(cards, list) or len(cards) != 2:
            raise IllegalActionError(f"lay aside two cards, not {cards!r} (§12.1)")
        rnd.discard([parse_card(c) for c in cards])
        self._after_action()

    def next_deal(self) -> None:
        """Deal the next deal now (the finished one has been seen)."""
        if self.status != PLAYING or not self.between:
            raise RoomError("the deal is not over")
        self._deal()

    def _after_action(self) -> None:
        rnd = self.round
        assert rnd is not None and self.match is not None
        self.actions += 1
        if rnd.phase in (OVER, ALL_PASS):
            self.result = rnd.result() if rnd.phase == OVER else None
            self.match.finish_round()
            self.between = True
            if self.match.finished:
                self.status = FINISHED
        self._changed()

    def _apply(self, seat: int, action: Action) -> None:
        kind, what, decls, belote = action
        rnd = self.round
        assert rnd is not None
        if kind == "call":
            rnd.call(what, seat)
        elif kind == "discard":
            rnd.discard(what)
        else:
            rnd.play_card(what, decls, belote)
        self._after_action()

    # --- messages ---------------------------------------------------------------------

    def handle(self, client: Client, msg: object) -> None:
        """One message from a connection; a refusal is answered with an error message."""
        self.touched = time.monotonic()
        try:
            self._handle(client, msg)
        except BeloteError as exc:
            text = str(exc)
            text = spanish_message(text) if self.rules.deck == "spanish" else symbol_message(text)
            client.push_json({"type": "error", "message": text})

    def _handle(self, client: Client, msg: object) -> None:
        if not isinstance(msg, dict):
            raise RoomError("a message is a JSON object with a 'type'")
        kind = msg.get("type")
        if kind == "ping":
            client.push_json({"type": "pong"})
            return
        if kind == "hello":
            token = msg.get("token")
            seat = self.attach(client, token)
            if seat is not None:
                client.push_json({"type": "welcome", "seat": SEAT_NAMES[seat]})
            elif token:
                client.push_json({
                    "type": "error", "code": "bad_token",
                    "message": f"room {self.id}: your token holds no seat here (take a seat)"})
            return
        if kind == "join":
            if client.seat is not None:
                raise RoomError(f"you already hold seat {SEAT_NAMES[client.seat]}")
            seat = self._seat_field(msg)
            token = self.join(seat, msg.get("name"), client)
            client.push_json({"type": "welcome", "seat": SEAT_NAMES[seat], "token": token})
            return
        seat = client.seat
        if seat is None:
            raise RoomError("take a seat first")
        if kind == "leave":
            self.leave(seat)
        elif kind == "bot":
            self.fill_bot(self._seat_field(msg))
        elif kind == "start":
            self.start()
        elif kind == "call":
            self.call(seat, msg.get("call"))
        elif kind == "play":
            self.play(seat, msg.get("card"), msg.get("declare", True) is not False,
                      msg.get("belote", True) is not False)
        elif kind == "discard":
            self.discard(seat, msg.get("cards"))
        elif kind == "next":
            self.next_deal()
        else:
            raise RoomError(f"unknown message type {kind!r}")

    def _seat_field(self, msg: Mapping[str, Any]) -> int:
        try:
            return parse_seat(msg.get("seat"), self.players)
        except ValueError as exc:
            raise RoomError(str(exc)) from None

    def _changed(self) -> None:
        self.version += 1
        self._wake.set()
        self.broadcast()

    def broadcast(self) -> None:
        """Send each connection the state of its own seat."""
        for s in self.seats:
            if s.clients:
                text = json.dumps(self.state_for(s.index), ensure_ascii=False)
                for client in s.clients:
                    client.push_state(text)
        if self.spectators:
            text = json.dumps(self.state_for(None), ensure_ascii=False)
            for client in self.spectators:
                client.push_state(text)

    def _send_state(self, client: Client) -> None:
        client.push_state(json.dumps(self.state_for(client.seat), ensure_ascii=False))

    def seat_json(self, s: Seat) -> dict[str, Any]:
        return {
            "seat": SEAT_NAMES[s.index],
            "kind": s.kind,
            "name": s.name,
            "connected": s.connected,
            "bot_playing": self.status != WAITING and self.bot_plays(s.index),
        }

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator, who sees no hand)."""
        rules = self.rules
        small = self.players != 4
        score: dict[str, Any] | None = None
        match = self.match
        if match is not None:
            if small:
                score = small_score_json(match.seat_totals, match.seat_hands, match.reserve,
                                         match.finished, match.winner)
            else:
                score = match.score.to_json()
        result: dict[str, Any] | None = None
        if self.result is not None:
            result = (small_result_json(self.result, self.players) if small
                      else result_json(self.result))
        return {
            "type": "state",
            "room": self.id,
            "name": self.name,
            "version": self.version,
            "actions": self.actions,
            "status": self.status,
            "profile": rules.profile,
            "players": self.players,
            "deal_mode": self.mode,
            "deck": rules.deck,
            "direction": rules.direction,
            "auction": rules.is_auction,
            "declarations_on": rules.declarations and self.mode != DECOUVERTE,
            "target": rules.target,
            "bots": self.bot_spec,
            "you": None if seat is None else {
                "seat": SEAT_NAMES[seat], "name": self.seats[seat].name},
            "seats": [self.seat_json(s) for s in self.seats],
            "deal": None if self.round is None else self._deal_json(self.round, seat),
            "result": result,
            "between_deals": self.between,
            "all_pass": self.round is not None and self.round.phase == ALL_PASS,
            "score": score,
            "error": self.error,
        }

    def _deal_json(self, rnd: Round, seat: int | None) -> dict[str, Any]:
        n = self.players
        names = SEAT_NAMES[:n]
        view = rnd.view(0 if seat is None else seat)
        contract = view.contract
        trump = contract.trump if contract is not None else None
        if view.phase == DISCARD:
            trump = discard_trump(view)  # named by the taker's call (§12.1)
        play = rnd.play
        tricks_won = [0] * n
        points_won = [0] * n
        for t in view.tricks:
            tricks_won[t.winner] += 1
            points_won[t.winner] += t.points
        if n == 4:
            tricks_json = {TEAM_NAMES[k]: tricks_won[k] + tricks_won[k + 2] for k in (0, 1)}
            points_json = {TEAM_NAMES[k]: points_won[k] + points_won[k + 2] for k in (0, 1)}
        else:
            tricks_json = dict(zip(names, tricks_won, strict=True))
            points_json = dict(zip(names, points_won, strict=True))
        hands = play.state.hands if play is not None else rnd.hands
        counts = [hands[s].bit_count() for s in range(n)]
        taker: str | None = None
        if view.phase == DISCARD:
            taker = SEAT_NAMES[view.turn]
        elif contract is not None and contract.value != DECOUVERTE:
            taker = SEAT_NAMES[contract.taker]
        deal: dict[str, Any] = {
            "number": self.match.deals if self.match is not None else 0,
            "dealer": SEAT_NAMES[view.dealer],
            "phase": view.phase,
            "turn": SEAT_NAMES[view.turn] if view.turn >= 0 else None,
            "turned": None if view.turned is None else card_name(view.turned),
            "calls": [{"seat": SEAT_NAMES[c.seat], "call": c.call} for c in view.calls],
            "contract": None if contract is None else contract.to_json(),
            "taker": taker,
            "trump": None if trump is None else trump_name(trump),
            "trick": current_trick_json(view.trick_leader, view.trick, n),
            "last_trick": trick_json(view.tricks[-1], n) if view.tricks else None,
            "tricks": len(view.tricks),
            "tricks_won": tricks_json,
            "points_won": points_json,
            "card_counts": dict(zip(names, counts, strict=True)),
            "announced": {
                SEAT_NAMES[s]: [announced_type(d) for d in a]
                for s, a in enumerate(view.announced) if a
            },
            "shown": {
                SEAT_NAMES[s]: [declaration_json(d) for d in a]
                for s, a in enumerate(view.shown) if a
            },
            "belote": [
                {"seat": SEAT_NAMES[s], "card": card_name(c)} for s, c in view.belote_cards
            ],
            # §12: the turned card stays on the table in the six-each and stock deals,
            # and the bergère is turned up beside it once the cards are all dealt.
            "turned_stays": rnd.mode in ("six_each", "stock"),
            "bergere": None if rnd.bergere is None or play is None else card_name(rnd.bergere),
            "face_up": None,
            "face_down": None,
            "covering": [],
            "hand": None,
            "legal": [],
            "must_discard": 0,
            "discards": [],
            "can_coinche": False,
            "declarations": [],
            "holds_belote": False,
        }
        if rnd.mode == DECOUVERTE and play is not None and rnd.piles is not None:
            # §12.2: every face-up card is seen by both players; of the face-down
            # cards only how many still lie under each player's face-up cards.
            covering = view.covering
            deal["face_up"] = {
                SEAT_NAMES[s]: sort_hand(play.state.hands[s], trump) for s in range(n)}
            deal["face_down"] = {
                SEAT_NAMES[s]: (covering & mask_of(up for _down, up in rnd.piles[s])).bit_count()
                for s in range(n)}
            deal["covering"] = [card_name(c) for c in _cards(covering)]
        if seat is None:
            return deal
        deal["hand"] = sort_hand(view.hand, trump)
        bidding = rnd.bidding
        # §4.5 coinche_in_turn false: an opponent may coinche out of turn.
        deal["can_coinche"] = (
            view.phase == BIDDING and view.turn != seat and isinstance(bidding, NumericAuction)
            and not self.rules.coinche_in_turn and bidding.can(COINCHE, seat))
        if view.turn == seat:
            deal["legal"] = [card_name(x) if isinstance(x, int) else x for x in view.legal]
            if view.phase == DISCARD:
                deal["must_discard"] = 2  # §12.1: two of the twelve cards laid aside
        deal["discards"] = [card_name(c) for c in _cards(view.discards)]  # the taker's own
        if play is not None and self.rules.declarations and rnd.mode != DECOUVERTE:
            own = view.my_declarations
            if own is None and view.phase == PLAY and not view.tricks:
                own = tuple(best_announcement(view.hand, self.rules, play.contract.trump))
            deal["declarations"] = [declaration_json(d) for d in own or ()]
        if play is not None and trump is not None:
            # Only the cards the seat knows: in découverte a face-down card is unknown
            # to its owner too (§12.2).
            known = view.hand | _played_by(view, seat, n)
            deal["holds_belote"] = bool(belote_suits(known, trump))
        return deal

    # --- the driver -----------------------------------------------------------------

    def _watched(self) -> bool:
        return bool(self.spectators) or any(s.clients for s in self.seats)

    def _humans_here(self) -> bool:
        return any(s.kind == HUMAN and s.connected for s in self.seats)

    async def _run(self) -> None:
        """Play the bots' turns and deal on, while the game lasts."""
        try:
            while self.status == PLAYING:
                self._wake.clear()
                if not self._watched():
                    await self._wake.wait()  # nobody looks: the table waits
                    continue
                if self.between:
                    version = self.version
                    pause = (self.settings.deal_pause if self._humans_here()
                             else self.settings.bot_delay)
                    if await self._wait(pause):
                        continue
                    if self.version == version and self.between and self.status == PLAYING:
                        self._deal()
                    continue
                rnd = self.round
                assert rnd is not None
                seat = rnd.current_player()
                if not self.bot_plays(seat):
                    await self._wake.wait()
                    continue
                await self._bot_turn(rnd, seat)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must not take the server down
            log.exception("room %s: the game stopped", self.id)
            self.error = f"the game stopped on an internal error: {exc}"
            self._changed()

    async def _wait(self, seconds: float) -> bool:
        """Sleep ``seconds``; True when woken before (something changed)."""
        try:
            await asyncio.wait_for(self._wake.wait(), timeout=max(seconds, 0.0))
        except TimeoutError:
            return False
        return True

    async def _bot_turn(self, rnd: Round, seat: int) -> None:
        version = self.version
        delay = self.settings.bot_delay
        if rnd.phase == PLAY and rnd.play is not None:
            state = rnd.play.state
            if not state.trick and state.tricks:
                delay += self.settings.trick_pause
        await asyncio.sleep(delay)  # a pause so people see; 0 yields to the others
        if self.version != version or self.status != PLAYING or not self.bot_plays(seat):
            return
        bot = self.seats[seat].bot
        assert bot is not None
        view = rnd.view(seat)
        kind = getattr(bot, "kind", "")
        if kind in INLINE_BOTS:
            action = decide(bot, view)
        else:
            action = await asyncio.to_thread(decide, bot, view)
            if self.version != version or self.status != PLAYING or not self.bot_plays(seat):
                return
        try:
            self._apply(seat, action)
        except BeloteError as exc:
            # A bot answering an illegal action is a bug; play on with a legal one.
            log.error("room %s: bot %s at %s: %s", self.id, bot.name, SEAT_NAMES[seat], exc)
            if rnd.phase == BIDDING:
                self._apply(seat, ("call", "pass", None, None))
            elif rnd.phase == DISCARD:
                self._apply(seat, ("discard", default_discard(rnd.view(seat)), None, None))
            else:
                self._apply(seat, ("play", rnd.legal_cards()[0], None, True))

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for client in self.clients():
            client.close()


def _cards(mask: int) -> list[Card]:
    return [c for c in range(32) if mask >> c & 1]


def _played_by(view: PlayerView, seat: int, players: int) -> int:
    """The cards ``seat`` has played so far in this deal."""
    out = 0
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            if (t.leader + i) % players == seat:
                out |= 1 << c
    for i, c in enumerate(view.trick):
        if (view.trick_leader + i) % players == seat:
            out |= 1 << c
    return out


class RoomManager:
    """Every room of one server, by id."""

    def __init__(self, settings: RoomSettings | None = None, seed: int | None = None) -> None:
        self.settings = settings or RoomSettings()
        self.rooms: dict[str, Room] = {}
        self._seed = seed
        self._count = 0

    def create(
        self,
        profile: str = "classic",
        options: Mapping[str, Any] | None = None,
        target: int | None = None,
        bots: str = "heuristic",
        name: str = "",
    ) -> Room:
        """A new room (the profile, options, target and bot spec checked): any profile
        of RULES.md, ``classic-3p`` and ``classic-2p`` included (§12)."""
        if len(self.rooms) >= self.settings.max_rooms:
            raise RoomError(f"the server holds {len(self.rooms)} rooms already; try later")
        opts = dict(options or {})
        if target is not None:
            opts["target"] = target
        rules = make_rules(profile, opts)
        # Four players, or three and two (§12): each bot of the spec must play there.
        check_table(rules, [make_bot(bots)] * rules.players, "tables on the web")
        self._count += 1
        seed = None if self._seed is None else self._seed + self._count
        room_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        while room_id in self.rooms:  # pragma: no cover - 48 random bits
            room_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        room = Room(room_id, rules, bots, self.settings, seed=seed, name=name)
        self.rooms[room_id] = room
        return room

    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise RoomError(f"no room {room_id!r} (it may have closed)")
        return room

    async def sweep(self, now: float | None = None) -> int:
        """Close the rooms nobody has been connected to for ``idle_ttl``."""
        now = time.monotonic() if now is None else now
        gone = [r for r in self.rooms.values()
                if not r.clients() and now - r.touched > self.settings.idle_ttl]
        for room in gone:
            del self.rooms[room.id]
            await room.stop()
        return len(gone)

    async def close(self) -> None:
        rooms = list(self.rooms.values())
        self.rooms.clear()
        for room in rooms:
            await room.stop()
