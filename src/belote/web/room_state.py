"""The state a room sends to one seat: what that seat may know, as JSON.

:func:`state_for` is the ``state`` message of the room protocol
(:mod:`belote.web.rooms`): the room, its seats, the deal on the table, the result
and the score.  The deal is built from :meth:`belote.round.Round.view` for that
seat alone (:func:`known_view`), so that no client is ever sent a card its seat may
not see: the other hands, the cards behind an announced declaration before they are
shown at trick 2 (docs/rules.md §7.4, §7.6), the kitty before it is taken, the
taker's discards (to the taker only, §12.1), the cards left out of the deal or a
face-down card of belote découverte (§12.2).  A spectator (``seat`` None) sees no
hand.

Besides the deal, the state gives the game's ``history`` (each scored deal's
contract, outcome and capot, beside the score's points: :func:`history_of`) and, when
the room has a turn timer, ``turn_left``, the seconds left to the person whose turn it
is (:func:`turn_left_of`).

The deal is put together in parts: the public deal every seat sees
(:func:`public_deal`), découverte's piles (:func:`decouverte_piles`) and the seat's
private part (:func:`private_deal`); the scores come from
:mod:`belote.web.present`.  These functions read a room through
:class:`SeenRoom`, what a room shows of itself, and change nothing.
"""

from __future__ import annotations

import dataclasses
import json
import time
import weakref
from collections.abc import Sequence
from typing import Any, Final, Protocol

from belote.actions import Call
from belote.auction import COINCHE
from belote.bots.base import discard_trump
from belote.cards import Card, TrumpMode, card_name, mask_of, scan_forward, trump_name
from belote.declarations import belote_suits, best_announcement
from belote.game import Match
from belote.hand import DECOUVERTE, HandResult
from belote.options import Rules
from belote.play import SEAT_NAMES, Trick
from belote.round import PlayerView, Round
from belote.table import DealMode, Phase, Table
from belote.views import LiveView
from belote.web.present import (
    announced_type,
    current_trick_json,
    declaration_json,
    result_json,
    score_json,
    side_seats,
    sort_hand,
    trick_json,
    tricks_won_json,
)
from belote.web.seats import RoomSettings, RoomStatus, Seat, SeatKind, Visibility


class SeenRoom(Protocol):
    """What the state reads of a room (:class:`belote.web.rooms.Room`)."""

    id: str
    name: str
    version: int
    actions: int
    status: RoomStatus
    rules: Rules
    players: int
    mode: DealMode
    bot_spec: str
    visibility: Visibility
    settings: RoomSettings
    seats: list[Seat]
    match: Match | None
    round: Round | None
    result: HandResult | None
    between: bool
    error: str | None

    def bot_plays(self, seat: int, now: float | None = None) -> bool: ...

    def stand_in_at(self, seat: int) -> float: ...


def state_for(room: SeenRoom, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``None``: a spectator, who sees no hand)."""
    return states_for(room, (seat,))[0]


def states_for(room: SeenRoom, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """:func:`state_for` of each of ``seats`` (a broadcast): what every seat sees
    alike (the seats, the score, the result, the public deal) is built once and
    shared by the states, which are only read (serialised) afterwards; each seat's
    own part (its hand, its legal moves...) is built from its own view."""
    head, fixed = room_fields(room)
    history, score = game_parts(room)
    return [{**head, **first, **fixed, **middle, "score": score, "history": history,
             "error": room.error} for first, middle in _changing_parts(room, seats)]


def state_texts(room: SeenRoom, seats: Sequence[int | None]) -> list[str]:
    """:func:`states_for`'s states as the JSON text sent to each seat, the text that
    ``json.dumps(state, ensure_ascii=False)`` writes, put together from pieces of
    text kept for each room (:class:`_Kept`): the room's fields, written again only
    when one of them changes (its name, say), the game's score and history, which
    change at most once a deal, and the seats, written again only when who sits
    there, who is here or who plays changes (each compared by a tuple of the values
    the text is made of, not by the text's dicts); what every seat sees alike (the
    version, the public deal, the result) is written once a broadcast; only each
    seat's own part (``you``, its hand, its legal moves...: :data:`PRIVATE_DEFAULTS`)
    is written for each seat, and a spectator's is always the same text.  The
    reference: ``json.dumps`` of :func:`states_for` (tests/web/test_capacity.py
    checks them equal to the byte at every move of whole games)."""
    kept = _KEPT.get(room)
    if kept is None:
        kept = _KEPT[room] = _Kept()
    rules, settings = room.rules, room.settings
    key = (room.id, room.name, rules, room.players, room.mode, room.bot_spec,
           room.visibility, settings.grace, settings.turn_timer)
    if kept.room != key:
        head, fixed = room_fields(room)
        kept.room, kept.head_text, kept.fixed_text = (
            key, "{" + to_json(head)[1:-1] + ", ", ", " + to_json(fixed)[1:-1] + ", ")
    match = room.match
    if match is None or kept.match is not match \
            or kept.game != (len(match.entries), match.deals):
        # (game_parts keeps them too: its key, and the texts' when they are its own)
        history, score = game_parts(room)
        kept.match = match
        kept.game = None if match is None else (len(match.entries), match.deals)
        if kept.history is not history or kept.score is not score:
            kept.history, kept.score = history, score
            kept.game_text = ", " + to_json({"score": score, "history": history})[1:-1] + ", "
    rnd = room.round
    # The state's keys in their order: start (type, room, name), version, actions,
    # status, fixed (profile... turn_timer), turn_left, you, seats, deal, result,
    # between_deals, all_pass, game (score, history), error.
    start = (f'{kept.head_text}"version": {room.version:d}, "actions": {room.actions:d}, '
             f'"status": {_STATUS_TEXT[room.status]}{kept.fixed_text}"turn_left": '
             f'{_scalar(turn_left_of(room))}, "you": ')
    # (seat_json's values, by seat: "away" follows from the kind and "connected"; a
    # bot plays a seat that is not a person's, bot_plays without the call)
    playing = room.status != RoomStatus.WAITING
    seen = [(s.kind, s.name, bool(s.clients),
             playing and (s.kind != SeatKind.HUMAN or room.bot_plays(s.index)))
            for s in room.seats]
    if kept.seats != seen:
        kept.seats = seen
        kept.seats_text = (', "seats": ' + to_json([seat_json(room, s) for s in room.seats])
                           + ', "deal": ')
    result = result_of(room)
    end = (f', "result": {"null" if result is None else to_json(result)}, "between_deals": '
           f'{"true" if room.between else "false"}, "all_pass": '
           f'{"true" if rnd is not None and rnd.phase == Phase.ALL_PASS else "false"}'
           f'{kept.game_text}"error": '
           f'{"null" if room.error is None else to_json(room.error)}}}')
    # the public deal's text, less its closing brace and the seat's part
    public = "" if rnd is None else public_text(room, rnd, kept)
    seats_text = kept.seats_text
    out = []
    for seat in seats:
        if seat is None:
            own = "null" if rnd is None else _SPECTATOR_PART
            out.append(f"{start}null{seats_text}{public}{own}{end}")
            continue
        own = "null" if rnd is None else private_text(room, rnd, seat, kept)
        you = f'{{"seat": "{SEAT_NAMES[seat]}", "name": {to_json(room.seats[seat].name)}}}'
        out.append(f"{start}{you}{seats_text}{public}{own}{end}")
    return out


def private_text(room: SeenRoom, rnd: Round, seat: int, kept: _Kept) -> str:
    """The text of ``seat``'s own part of the deal (:data:`PRIVATE_DEFAULTS`'s keys,
    :func:`private_deal`'s values) as the deal's text ends.  In the card play it is
    kept for each seat (``kept``, the room's) and written again only when what it is
    made of changes: the deal, the phase, whether it is the seat's turn and its legal
    cards, its hand (the cards it played with it), its declarations, discards and
    whether any trick is completed (its declarations are offered before the first)."""
    view = known_view(room, rnd, seat)
    key: tuple[Any, ...] | None = None
    if isinstance(view, LiveView):
        key = (rnd, view.phase, view.turn == seat, view.legal_cards, view.hand,
               view.my_declarations, view.discards, not view.tricks)
        last = kept.private.get(seat)
        if last is not None and last[0] == key:
            return last[1]
    own = dict(PRIVATE_DEFAULTS)
    own.update(private_deal(room.rules, rnd, view, seat, view_trump(view), room.players))
    text: str = to_json(own)[1:]
    if key is not None:
        kept.private[seat] = (key, text)
    return text


# A state's JSON text, as json.dumps(..., ensure_ascii=False) writes it, less its
# check for cycles (a state is a tree of fresh dicts and lists: some shared, none
# cyclic).
to_json: Final = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def _scalar(value: str | float | bool | None) -> str:
    """A string's, a number's, a boolean's or None's JSON text, as :func:`to_json`
    writes it (without making an encoder for a number, a boolean or None).

    >>> [_scalar(v) for v in (None, True, False, 3, 2.5, "é")]
    ['null', 'true', 'false', '3', '2.5', '"é"']
    """
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return to_json(value)
    return repr(value)


# Each status's and each phase's JSON text.
_STATUS_TEXT: Final = {status: to_json(str(status)) for status in RoomStatus}
_PHASE_TEXT: Final = {phase: to_json(str(phase)) for phase in Phase}


class _Kept:
    """What :func:`state_texts` keeps of a room between two broadcasts: each part's
    values as last written (a tuple or list of them: compared, not the part's dicts),
    with the part's text, and the deal on the table (:class:`_KeptDeal`)."""

    __slots__ = ("deal", "fixed_text", "game", "game_text", "head_text", "history",
                 "match", "private", "room", "score", "seats", "seats_text")

    def __init__(self) -> None:
        self.room: tuple[Any, ...] | None = None  # room_fields' values
        self.head_text = ""  # room_fields' first part (before the version)
        self.fixed_text = ""  # its second part (after the status)
        self.match: Match | None = None  # the game whose parts these are ...
        self.game: tuple[int, int] | None = None  # ... at its scored deals and deals dealt
        self.history: list[dict[str, Any]] | None = None  # game_parts, by identity
        self.score: dict[str, Any] | None = None
        self.game_text = ""
        self.seats: list[tuple[Any, ...]] | None = None  # seat_json's values, by seat
        self.seats_text = ""
        self.deal: _KeptDeal | None = None
        # each seat's own part of the deal in the card play: its values, its text
        self.private: dict[int, tuple[tuple[Any, ...], str]] = {}


# Each room's parts as last written (state_texts).
_KEPT: Final[weakref.WeakKeyDictionary[Any, _Kept]] = weakref.WeakKeyDictionary()


def room_fields(room: SeenRoom) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields of a state that are the room's and not its game's, the same for
    every seat and, but for its name, fixed when the room is made: those written
    before the game's version, and those after its status."""
    rules = room.rules
    return {"type": "state", "room": room.id, "name": room.name}, {
        "profile": rules.profile,
        "players": room.players,
        "deal_mode": room.mode,
        "deck": rules.deck,
        "direction": rules.direction,
        "auction": rules.is_auction,
        "declarations_on": rules.declarations and room.mode != DealMode.DECOUVERTE,
        "target": rules.target,
        "bots": room.bot_spec,
        "visibility": room.visibility,
        "grace": room.settings.grace,
        "turn_timer": room.settings.turn_timer,
    }


def _changing_parts(room: SeenRoom, seats: Sequence[int | None]
                    ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The fields of each seat's state that change with the game, but the score,
    the history (:func:`game_parts`) and the error: those written before the room's
    fixed fields (:func:`room_fields`), and those after."""
    rules = room.rules
    rnd = room.round
    seats_json = [seat_json(room, s) for s in room.seats]
    result = result_of(room)
    public: dict[str, Any] | None = None
    if rnd is not None:
        view = rnd.spectator_view()
        trump = view_trump(view)
        public = public_deal(room, rnd, view, trump)
        if rnd.mode is DealMode.DECOUVERTE and rnd.contract is not None:
            public.update(decouverte_piles(rnd, view, trump, room.players))
    all_pass = rnd is not None and rnd.phase == Phase.ALL_PASS
    turn_left = turn_left_of(room)
    out = []
    for seat in seats:
        deal = public
        if rnd is not None and seat is not None:
            view = known_view(room, rnd, seat)
            deal = dict(public or {})
            deal.update(private_deal(rules, rnd, view, seat, view_trump(view), room.players))
        out.append(({
            "version": room.version,
            "actions": room.actions,
            "status": room.status,
        }, {
            "turn_left": turn_left,
            "you": None if seat is None else {
                "seat": SEAT_NAMES[seat], "name": room.seats[seat].name},
            "seats": seats_json,
            "deal": deal,
            "result": result,
            "between_deals": room.between,
            "all_pass": all_pass,
        }))
    return out


def turn_left_of(room: SeenRoom) -> float | None:
    """The seconds left to the player whose turn it is, when the room has a turn timer
    (``--turn-timer``) and a connected person holds that turn; None otherwise (no
    timer, a bot's turn, a player away, whose grace runs instead)."""
    rnd = room.round
    if room.settings.turn_timer is None or rnd is None or room.between \
            or room.status != RoomStatus.PLAYING:
        return None
    seat = rnd.current_player()
    if seat < 0 or room.seats[seat].kind != SeatKind.HUMAN \
            or not room.seats[seat].connected:
        return None
    ends = room.stand_in_at(seat)
    if ends == float("inf"):
        return None
    return round(max(0.0, ends - time.monotonic()), 1)


# The game's history and score as the states show them, worked out once a scored deal
# (they change only when a deal is scored) and shared by the states sent until then:
# each game's, by its Match, with the counts they were worked out at.
_GAME_PARTS: Final[weakref.WeakKeyDictionary[
    Match, tuple[tuple[int, int], list[dict[str, Any]], dict[str, Any], int]]] = \
    weakref.WeakKeyDictionary()


def game_parts(room: SeenRoom) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """:func:`history_of` and :func:`score_of` of the room, worked out again only once
    its game has scored or dealt another deal (to be read only: the states share them).
    The history grows by the deals scored since: those before are not read again."""
    match = room.match
    if match is None:
        return [], None
    key = (len(match.entries), match.deals)
    cached = _GAME_PARTS.get(match)
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    before, start = ([], 0) if cached is None else (cached[1], cached[3])
    history, scanned = _history(room, match, before, start)
    score = score_json(match.score)
    _GAME_PARTS[match] = (key, history, score, scanned)
    return history, score


def history_of(room: SeenRoom) -> list[dict[str, Any]]:
    """Each scored deal of the game, in the order of the score's hands (the score
    holds its points): its number among the deals dealt (all-passes count), its
    contract, its outcome and the seats of the side that made a capot (None: no
    capot)."""
    match = room.match
    if match is None:
        return []
    return _history(room, match, [], 0)[0]


def _history(room: SeenRoom, match: Match, before: list[dict[str, Any]], start: int
             ) -> tuple[list[dict[str, Any]], int]:
    """:func:`history_of`, its entries of the deals before ``start`` (an index of
    ``match.rounds``) being ``before``: a new list, and the deals read so far."""
    out = list(before)
    scored = len(match.entries)
    rounds = match.rounds
    i = start
    while i < len(rounds) and len(out) < scored:
        rnd = rounds[i]
        i += 1
        if rnd.phase != Phase.OVER:
            continue
        result = rnd.result()
        capot: list[str] | None = None
        if result.capot is not None:
            if room.players == 4:
                capot = [SEAT_NAMES[s] for s in range(4) if s % 2 == result.capot]
            else:
                capot = side_seats(result.contract, room.players)[result.capot]
        out.append({"deal": i, "contract": result.contract.to_json(),
                    "outcome": str(result.score.outcome), "capot": capot})
    return out, i


def seat_json(room: SeenRoom, s: Seat) -> dict[str, Any]:
    """One seat as every connection sees it: who sits there, and whether a bot plays."""
    return {
        "seat": SEAT_NAMES[s.index],
        "kind": s.kind,
        "name": s.name,
        "connected": s.connected,
        "away": s.kind == SeatKind.HUMAN and not s.connected,
        "bot_playing": room.status != RoomStatus.WAITING and room.bot_plays(s.index),
    }


def score_of(room: SeenRoom) -> dict[str, Any] | None:
    """The game's score: the teams' (four players), or each seat's total (§12)."""
    match = room.match
    if match is None:
        return None
    return score_json(match.score)


def result_of(room: SeenRoom) -> dict[str, Any] | None:
    """The result of the deal on the table, once it is over."""
    if room.result is None:
        return None
    return result_json(room.result, room.players)


def known_view(room: SeenRoom, rnd: Round, seat: int) -> PlayerView:
    """What the person at ``seat`` may know: the seat's view, less the cards it
    laid aside before he took it over mid-deal (§12.1); the hint's adviser
    reads this one too."""
    view = rnd.view(seat)
    if room.match is not None and room.match.deals <= room.seats[seat].secret_until \
            and view.discards:
        view = dataclasses.replace(view, discards=0)
    return view


def deal_json(room: SeenRoom, rnd: Round, seat: int | None) -> dict[str, Any]:
    """The deal on the table as ``seat`` sees it (``None``: a spectator)."""
    view = rnd.spectator_view() if seat is None else known_view(room, rnd, seat)
    trump = view_trump(view)
    deal = public_deal(room, rnd, view, trump)
    if rnd.mode is DealMode.DECOUVERTE and rnd.contract is not None:
        deal.update(decouverte_piles(rnd, view, trump, room.players))
    if seat is not None:
        deal.update(private_deal(room.rules, rnd, view, seat, trump, room.players))
    return deal


def view_trump(view: PlayerView) -> TrumpMode | None:
    """The trump of the deal, as far as the view tells: the contract's, or while the
    taker of a kitty deal lays his cards aside, the one his call named (§12.1)."""
    if view.phase == Phase.DISCARD:
        return discard_trump(view)
    return view.contract.trump if view.contract is not None else None


def public_deal(room: SeenRoom, rnd: Round, view: PlayerView, trump: TrumpMode | None
                ) -> dict[str, Any]:
    """What every seat sees of the deal, the private keys at their empty values
    (:data:`PRIVATE_DEFAULTS`)."""
    return {**public_fields(room, rnd, view, trump), **private_defaults()}


# The deal's keys only a seat sees of itself (private_deal), each at its value for a
# spectator, in their order at the end of the deal: a state's lists are fresh ones.
PRIVATE_DEFAULTS: Final[dict[str, Any]] = {
    "hand": None, "legal": [], "must_discard": 0, "discards": [], "can_coinche": False,
    "declarations": [], "holds_belote": False,
}


def private_defaults() -> dict[str, Any]:
    """:data:`PRIVATE_DEFAULTS` with fresh lists (a state may be changed by its reader)."""
    return {key: list(value) if isinstance(value, list) else value
            for key, value in PRIVATE_DEFAULTS.items()}


# A spectator's part of the deal, as the text of the deal ends.
_SPECTATOR_PART: Final = to_json(PRIVATE_DEFAULTS)[1:]


def public_text(room: SeenRoom, rnd: Round, kept_room: _Kept | None = None) -> str:
    """The text of the public deal (:func:`public_fields` from the spectator's view,
    découverte's piles included), less its closing brace, followed by ``", "``: the
    deal's bidding (the turned card, the calls, the contract, the taker, the trump), its
    completed tricks (the last one, their count, the tricks and points won) and what
    was said (the declarations, belote) are written once each time they change and
    their text kept (``kept_room``, the room's :class:`_Kept`: by default the one
    :func:`state_texts` keeps).  During the card play the bidding is fixed, and what was
    said changes only with :meth:`~belote.views.LiveView.said_seen`."""
    view = rnd.spectator_view()
    trump = view_trump(view)
    n = room.players
    if kept_room is None:
        kept_room = _KEPT.get(room)
        if kept_room is None:
            kept_room = _KEPT[room] = _Kept()
    kept = kept_room.deal
    if kept is None or kept.deal is not rnd:
        kept = kept_room.deal = _KeptDeal(rnd)
    phase = view.phase
    # In the card play (or at its end: a LiveView) the bidding is over.
    bidding: object = _IN_PLAY if isinstance(view, LiveView) else (
        view.turned, len(view.calls), phase, view.contract, trump,
        view.turn if phase == Phase.DISCARD else -1)
    if kept.bidding != bidding:
        kept.bidding, kept.bidding_text = bidding, to_json(bidding_fields(view, trump))[1:-1]
    done = view.tricks_done() if isinstance(view, LiveView) else len(view.tricks)
    if kept.tricks != done:
        tricks = view.tricks
        kept.tricks, kept.tricks_text = len(tricks), tricks_text(tricks, n)
    if rnd.mode is DealMode.DECOUVERTE and rnd.contract is not None:
        said = to_json({**said_fields(rnd, view),
                        **decouverte_piles(rnd, view, trump, n)})[1:-1]
    else:
        heard: object = view.said_seen() if isinstance(view, LiveView) else (
            view.announced, view.shown, view.belote_cards, rnd.contract is not None)
        if kept.said != heard:
            kept.said, kept.said_text = heard, to_json(said_fields(rnd, view))[1:-1]
        said = kept.said_text
    held = rnd.card_counts()
    counts = _COUNTS.get(held)
    if counts is None:
        counts = _COUNTS[held] = ", ".join(
            [f'"{SEAT_NAMES[s]}": {c:d}' for s, c in enumerate(held)])
    number = room.match.deals if room.match is not None else 0
    if kept.number != number:  # (the deal's number and dealer: once a deal)
        kept.number = number
        kept.number_text = (f'{{"number": {number:d}, "dealer": "{SEAT_NAMES[view.dealer]}", '
                            '"phase": ')
    turn = "null" if view.turn < 0 else f'"{SEAT_NAMES[view.turn]}"'
    return (f'{kept.number_text}'
            f'{_PHASE_TEXT[phase]}, "turn": {turn}, {kept.bidding_text}, "trick": '
            f'{trick_text(view.trick_leader, view.trick, n)}, '
            f'{kept.tricks_text}, '
            f'"card_counts": {{{counts}}}, {said}, ')


# The cards each seat holds (Round.card_counts) as the text of the deal writes them.
_COUNTS: Final[dict[tuple[int, ...], str]] = {}


# Each card of a trick in progress as the text of the deal writes it, by seat and card
# (the JSON of present.current_trick_json's items).
_PLAYED: Final = tuple(
    tuple(to_json({"seat": SEAT_NAMES[s], "card": card_name(c)}) for c in range(32))
    for s in range(4))


def trick_text(leader: int, cards: Sequence[Card], players: int) -> str:
    """The trick in progress as its JSON text, ``to_json(current_trick_json(leader,
    cards, players))``, put together from each card's text written once (:data:`_PLAYED`).

    >>> from belote.cards import parse_card
    >>> trick_text(3, [parse_card("JH"), parse_card("7S")], 4)
    '{"leader": "W", "cards": [{"seat": "W", "card": "JH"}, {"seat": "N", "card": "7S"}]}'
    """
    order = Table.seated(players).orders[leader]
    return (f'{{"leader": "{SEAT_NAMES[leader]}", "cards": ['
            + ", ".join([_PLAYED[order[i]][c] for i, c in enumerate(cards)]) + "]}")


def tricks_text(tricks: Sequence[Trick], n: int) -> str:
    """The text of :func:`tricks_fields` less its braces, ``to_json(tricks_fields(tricks,
    n))[1:-1]``: the last trick put together from its cards' texts (:func:`trick_text`).

    >>> from belote.cards import parse_card
    >>> t = Trick(3, tuple(parse_card(c) for c in ("JH", "7S", "AH", "8H")), 3, 31)
    >>> tricks_text([t], 4) == to_json(tricks_fields([t], 4))[1:-1]
    True
    """
    if tricks:
        t = tricks[-1]
        last = (trick_text(t.leader, t.cards, n)[:-1]
                + f', "winner": "{SEAT_NAMES[t.winner]}", "points": {t.points:d}}}')
    else:
        last = "null"
    won, points = tricks_won_json(tricks, n)
    return (f'"last_trick": {last}, "tricks": {len(tricks):d}, "tricks_won": {to_json(won)}, '
            f'"points_won": {to_json(points)}')


class _KeptDeal:
    """A room's deal on the table (:func:`public_text`): its number and dealer, the
    last values of its bidding, of its completed tricks (their count) and of what was
    said (declarations, belote), each with its text as last written."""

    __slots__ = ("bidding", "bidding_text", "deal", "number", "number_text", "said",
                 "said_text", "tricks", "tricks_text")

    def __init__(self, deal: Round) -> None:
        self.deal = deal
        self.number = -1  # the deal's number in the game (its dealer is the deal's)
        self.number_text = ""
        self.bidding: object = None  # its values (_IN_PLAY once the card play is on)
        self.bidding_text = ""
        self.tricks = -1
        self.tricks_text = ""
        self.said: object = None  # its values (LiveView.said_seen in the card play)
        self.said_text = ""


# The bidding's values in the card play: fixed for the deal (the PlayRecord's).
_IN_PLAY: Final = "the card play"


def public_rest(room: SeenRoom, rnd: Round, view: PlayerView) -> dict[str, Any]:
    """The public deal's fields after its tricks won (:func:`public_fields`): the cards
    each seat holds, then :func:`said_fields`."""
    n = room.players
    counts = [rnd.hand(s).bit_count() for s in range(n)]
    return {"card_counts": dict(zip(SEAT_NAMES[:n], counts, strict=True)),
            **said_fields(rnd, view)}


def said_fields(rnd: Round, view: PlayerView) -> dict[str, Any]:
    """The declarations announced and shown, belote said, and what lies on the table
    at the small tables (découverte's piles at their values outside découverte)."""
    return {
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
        "turned_stays": rnd.mode.leaves_cards_out,
        "bergere": None if rnd.bergere is None or rnd.contract is None else card_name(rnd.bergere),
        "face_up": None,
        "face_down": None,
        "covering": [],
    }


def public_fields(room: SeenRoom, rnd: Round, view: PlayerView, trump: TrumpMode | None
                  ) -> dict[str, Any]:
    """:func:`public_deal` less its private keys, which come after these."""
    n = room.players
    return {
        "number": room.match.deals if room.match is not None else 0,
        "dealer": SEAT_NAMES[view.dealer],
        "phase": view.phase,
        "turn": SEAT_NAMES[view.turn] if view.turn >= 0 else None,
        **bidding_fields(view, trump),
        "trick": current_trick_json(view.trick_leader, view.trick, n),
        **tricks_fields(view.tricks, n),
        **public_rest(room, rnd, view),
    }


def bidding_fields(view: PlayerView, trump: TrumpMode | None) -> dict[str, Any]:
    """The public deal's bidding: the turned card, the calls, the contract, the taker
    and the trump."""
    contract = view.contract
    return {
        "turned": None if view.turned is None else card_name(view.turned),
        "calls": [{"seat": SEAT_NAMES[c.seat], "call": c.call} for c in view.calls],
        "contract": None if contract is None else contract.to_json(),
        "taker": taker_of(view),
        "trump": None if trump is None else trump_name(trump),
    }


def tricks_fields(tricks: Sequence[Trick], n: int) -> dict[str, Any]:
    """The public deal's completed tricks: the last one, their count, and the tricks
    and card points won."""
    tricks_json, points_json = tricks_won_json(tricks, n)
    return {
        "last_trick": trick_json(tricks[-1], n) if tricks else None,
        "tricks": len(tricks),
        "tricks_won": tricks_json,
        "points_won": points_json,
    }


def taker_of(view: PlayerView) -> str | None:
    """Who took: the taker of a kitty deal laying aside, or the contract's (none in
    découverte, §12.2)."""
    if view.phase == Phase.DISCARD:
        return SEAT_NAMES[view.turn]
    contract = view.contract
    if contract is not None and contract.value != DECOUVERTE:
        return SEAT_NAMES[contract.taker]
    return None


def decouverte_piles(rnd: Round, view: PlayerView, trump: TrumpMode | None, n: int
                     ) -> dict[str, Any]:
    """§12.2: every face-up card is seen by both players; of the face-down cards
    only how many still lie under each player's face-up cards."""
    piles = rnd.piles
    assert piles is not None
    covering = view.covering
    return {
        "face_up": {SEAT_NAMES[s]: sort_hand(rnd.hand(s), trump) for s in range(n)},
        "face_down": {
            SEAT_NAMES[s]: (covering & mask_of(up for _down, up in piles[s])).bit_count()
            for s in range(n)},
        "covering": [card_name(c) for c in cards_of(covering)],
    }


def private_deal(rules: Rules, rnd: Round, view: PlayerView, seat: int,
                 trump: TrumpMode | None, n: int) -> dict[str, Any]:
    """What only ``seat`` sees: its hand, its legal moves on its turn, the cards it
    laid aside, its declarations and whether it holds the belote."""
    contract = rnd.contract  # (once the card play starts)
    out: dict[str, Any] = {"hand": sort_hand(view.hand, trump)}
    # §4.5 coinche_in_turn false: an opponent may coinche out of turn.
    out["can_coinche"] = (
        view.phase == Phase.BIDDING and view.turn != seat and rnd.mode is DealMode.AUCTION
        and not rules.coinche_in_turn and rnd.can(Call(COINCHE, seat)))
    if view.turn == seat:
        out["legal"] = [*view.legal_calls, *map(card_name, view.legal_cards)]
        if view.phase == Phase.DISCARD:
            out["must_discard"] = 2  # §12.1: two of the twelve cards laid aside
    out["discards"] = [card_name(c) for c in cards_of(view.discards)]  # the taker's own
    if contract is not None and rules.declarations and rnd.mode is not DealMode.DECOUVERTE:
        own = view.my_declarations
        if own is None and view.phase == Phase.PLAY and not view.tricks:
            own = tuple(best_announcement(view.hand, rules, contract.trump))
        out["declarations"] = [declaration_json(d) for d in own or ()]
    if contract is not None and trump is not None:
        # Only the cards the seat knows: in découverte a face-down card is unknown
        # to its owner too (§12.2).
        known = view.hand | played_by(view, seat, n)
        out["holds_belote"] = bool(belote_suits(known, trump))
    return out


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in card order."""
    return list(scan_forward(mask))


def played_by(view: PlayerView, seat: int, players: int) -> int:
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
