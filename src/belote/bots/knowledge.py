"""What a seat knows of the hidden cards during the card play, at every table
(docs/rules.md §3.4, §5, §6, §7.6, §7.7, §12).

:func:`infer` reads a :class:`~belote.round.PlayerView` into a :class:`Knowledge`:
how many cards each seat holds now, the cards known to be in a hand, the cards a
seat cannot hold, the cards still to place and how many of them lie out of play:

- its own cards, and every card played (§5);
- the turned card, which the taker received whatever the trump (§3.4; the deals
  that take it: four-player take-or-pass and three players' 24 cards, §12.1);
- the cards of the declarations shown at trick 2 (§7.6);
- belote said with a trump king or queen: the other one is in that hand (§7.7);
- voids revealed by the play (§6): a card played out of the led suit, a failure
  to trump or to overtrump, under the table's options;
- at the small tables (§12): the cards face up on the table (the turned card and
  the bergère of ``six_each`` and ``stock``) are in nobody's hand; the cards out
  of play (the taker's kitty discards, known to him; the stock) are among the
  unknown ones; in belote découverte (§12.2) both players' face-up cards are
  seen and the face-down cards, one under each face-up card that still covers
  one, are unknown to both.

The voids are read with the engine's own legal-move rule: after a card ``c``
was played from a position, holding card ``x`` as well would have made ``c``
illegal exactly when ``c`` is not legal from the hand ``{c, x}``.  Every rule of
§6 (with every option) makes the set of hands from which ``c`` is legal a set
of the form "holds ``c`` and none of F", so the pairwise test finds F exactly
(tests/test_sampling.py checks this on random positions).

A :class:`World` is one deal of the hidden cards that :mod:`belote.bots.sampling`
draws: every hand now, the cards out of play, découverte's face-down cards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from belote.bots.base import played_by
from belote.cards import (
    ALL_CARDS,
    ALL_TRUMP,
    KING,
    QUEEN,
    SUIT_MASKS,
    TRUMP_SUIT_MASKS,
    Card,
    CardMask,
    TrumpMode,
    mask_of,
    scan_forward,
    suit_of,
)
from belote.errors import BeloteError
from belote.options import Rules, UndertrumpPartner
from belote.play import SEAT_NAMES, PlayState, Trick
from belote.round import PLAY, PlayerView
from belote.table import DealMode, Table

__all__ = [
    "FORBIDDEN",
    "REVEALED",
    "InconsistentViewError",
    "Kept",
    "Knowledge",
    "Reading",
    "Unseen",
    "World",
    "forbidden_after",
    "infer",
    "relax",
    "revealed",
]


class InconsistentViewError(BeloteError):
    """No deal of the hidden cards agrees with what a seat knows (a view contradicting
    itself, or one that is not in the card play)."""


@dataclass(frozen=True)
class World:
    """One deal of the hidden cards: every hand now (the seat's own included), the
    cards out of play, and in belote découverte the face-down card under each
    face-up card still covering one (``beneath``; ``covering[s]``: seat ``s``'s
    covering cards)."""

    hands: tuple[CardMask, ...]
    out: CardMask = 0
    beneath: dict[Card, Card] = field(default_factory=dict)
    covering: tuple[CardMask, ...] = ()


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of the hidden cards now, at any table.

    ``sizes[s]`` is the number of cards seat ``s`` holds now (face-up cards in
    découverte); ``known[s]`` the cards known in that hand; ``forbidden[s]`` the
    cards it cannot hold; ``unknown`` the cards still to place, in the other hands
    or out of play; ``out`` how many of them lie out of play (the kitty discards,
    the stock, the face-down cards of découverte).  Découverte only: ``under[s]``
    face-down cards are still under seat ``s``'s face-up cards, and ``covering[s]``
    are the face-up cards (on the table too) that cover them.
    """

    seat: int
    table: Table
    trump: TrumpMode
    sizes: tuple[int, ...]
    known: tuple[CardMask, ...]
    forbidden: tuple[CardMask, ...]
    unknown: CardMask
    out: int = 0
    under: tuple[int, ...] = ()
    covering: tuple[CardMask, ...] = ()
    on_table: tuple[CardMask, ...] = ()

    @property
    def players(self) -> int:
        return self.table.players

    def need(self, seat: int) -> int:
        """How many unknown cards ``seat`` holds."""
        return self.sizes[seat] - self.known[seat].bit_count()

    def possible(self, seat: int) -> CardMask:
        """Cards ``seat`` may hold now as far as the seat knows."""
        if seat == self.seat:
            return self.known[seat]
        return (self.unknown | self.known[seat]) & ~self.forbidden[seat]

    def others(self) -> CardMask:
        """Cards not the seat's own, still held by another seat or out of play."""
        m = self.unknown
        for s in range(self.players):
            if s != self.seat:
                m |= self.known[s]
        return m

    def allows(self, world: World) -> bool:
        """Whether ``world`` (every hand now, the cards out of play) agrees with this."""
        seen = 0
        for s in range(self.players):
            h = world.hands[s]
            if h.bit_count() != self.sizes[s] or h & seen:
                return False
            if h & self.known[s] != self.known[s] or h & self.forbidden[s]:
                return False
            if s != self.seat and h & ~(self.known[s] | self.unknown):
                return False
            seen |= h
        if world.out & seen or world.out & ~self.unknown or world.out.bit_count() != self.out:
            return False
        if self.table.mode is DealMode.DECOUVERTE:
            for s in range(self.players):
                cover = world.covering[s] if world.covering else 0
                if cover.bit_count() != self.under[s]:
                    return False
                if cover & ~(world.hands[s] | self.on_table[s]):
                    return False
                if cover != self.covering[s]:
                    return False
            keys = mask_of(world.beneath)
            covered = 0
            for m in world.covering:
                covered |= m
            return keys == covered and mask_of(world.beneath.values()) == self.unknown
        return True


class Kept:
    """Answers kept by key, for one rules object each: two generations of at most
    ``size`` keys; when the newer is full it becomes the older, whose keys are dropped
    (those read since were copied to the newer).  A key holds the id of its rules,
    and the rules are kept with the answer: an id is a key only while its object
    lives.  Safe from threads: a lost write only costs working it out again."""

    __slots__ = ("new", "old", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.new: dict[tuple[object, ...], tuple[Rules, object]] = {}
        self.old: dict[tuple[object, ...], tuple[Rules, object]] = {}

    def get(self, key: tuple[object, ...], rules: Rules) -> object | None:
        entry = self.new.get(key)
        if entry is not None and entry[0] is rules:
            return entry[1]
        entry = self.old.get(key)
        if entry is not None and entry[0] is rules:
            self.put(key, rules, entry[1])
            return entry[1]
        return None

    def put(self, key: tuple[object, ...], rules: Rules, answer: object) -> None:
        if len(self.new) >= self.size:
            self.old, self.new = self.new, {}
        self.new[key] = (rules, answer)


# forbidden_after's answers over every card (its own candidates are only a filter of
# them), by position: (id of the rules, trump, leader, cards before, card, sides).  A
# seat's knowledge reads every card of the deal again at each of its turns
# (:func:`infer`), and the four seats of a table read the same cards: the web's tables
# of bots, the card model's many hands of one view.
FORBIDDEN: Final = Kept(1 << 14)


def forbidden_after(
    rules: Rules,
    trump: TrumpMode,
    leader: int,
    before: Sequence[Card],
    c: Card,
    candidates: CardMask = ALL_CARDS,
    sides: Sequence[int] = (0, 1, 0, 1),
) -> CardMask:
    """The cards among ``candidates`` that the player of ``c`` cannot have held.

    ``before`` are the cards of the trick already played from ``leader``; ``c``
    is the next card; ``sides`` each seat's side (the table's
    :meth:`~belote.table.Table.sides`: four seats by default).  A card ``x`` (not
    on the table) is returned when ``c`` is not legal from the hand ``{c, x}``
    (§6, the table's options applied by the engine).  The answer over every card is
    worked out once a position and kept (:data:`FORBIDDEN`).
    """
    if not before:
        return 0
    key = (id(rules), trump, leader, tuple(before), c, tuple(sides))
    full = FORBIDDEN.get(key, rules)
    if full is None:
        full = _forbidden_any(rules, trump, leader, before, c, sides)
        FORBIDDEN.put(key, rules, full)
    assert isinstance(full, int)
    return full & candidates


def _forbidden_any(rules: Rules, trump: TrumpMode, leader: int, before: Sequence[Card],
                   c: Card, sides: Sequence[int]) -> CardMask:
    """:func:`forbidden_after` over every card, worked out: the cards of the led suit and
    of the trump are tried, and the other suits' too where ``undertrump_partner`` is
    ``only_if_only_trumps`` (§6.3a: holding any card that is not a trump forbids
    undertrumping one's partner).  Under the other options holding a card of another
    suit never makes a card illegal (§6: one follows the led suit, or trumps, or
    overtrumps; a discard is free).  ``test_6_forbidden_set_is_exact`` checks the
    answer against the engine with every card of a hand."""
    n = len(sides)
    state = PlayState(rules, trump, [0] * n, leader, tricks_left=1, teams=sides)
    for i, b in enumerate(before):
        state.hands[(leader + i) % n] = 1 << b
        state.push(b)
    seat = state.turn
    hands = state.hands
    bit = 1 << c
    out = 0
    on_table = mask_of(before)
    if rules.undertrump_partner is UndertrumpPartner.ONLY_IF_ONLY_TRUMPS:
        tried = ALL_CARDS
    else:
        tried = SUIT_MASKS[suit_of(before[0])] | TRUMP_SUIT_MASKS[trump]
    for x in scan_forward(tried & ~bit & ~on_table):
        hands[seat] = bit | (1 << x)
        if not state.legal_mask() & bit:
            out |= 1 << x
    return out


def infer(view: PlayerView, voids: bool = True) -> Knowledge:
    """What ``view.seat`` knows of every hand now; the view must be in the card play.

    ``voids`` false leaves out the voids revealed by the play (§6).  Raises
    :class:`InconsistentViewError` when the view contradicts itself.
    """
    if view.phase != PLAY or view.contract is None:
        raise InconsistentViewError(
            f"seat {SEAT_NAMES[view.seat]}: nothing to infer in phase {str(view.phase)!r}"
        )
    table = Table.of(view.rules)
    if table.mode is DealMode.DECOUVERTE:
        return _decouverte(view, table, played_by(view))
    k = Unseen(view, voids, table).knowledge(view.hand)
    _check(k, view)
    return k


class Reading:
    """What one seat has read of a deal's completed tricks, kept between its decisions
    (a bot's, :class:`~belote.bots.heuristic.HeuristicBot`): the cards each seat
    played in them and the voids they revealed (:func:`revealed`).  :meth:`infer`
    answers what :func:`infer` answers for a view, reading only the tricks completed
    since the seat's decision before, when those tricks are the same objects as then
    (the same deal, its views reading one list of tricks, ``belote.views``);
    otherwise, and for any other view, it reads every trick again.  :func:`infer` stays
    the reference (tests/test_knowledge_kept.py checks them equal at every decision).
    Safe from threads: a reading replaced meanwhile only costs one from the start."""

    __slots__ = ("kept",)

    def __init__(self) -> None:
        self.kept: _Read | None = None

    def infer(self, view: PlayerView) -> Knowledge:
        """:func:`infer` of ``view`` (with the voids), from the completed tricks read so
        far; raises :class:`InconsistentViewError` as it does."""
        contract = view.contract
        if view.phase != PLAY or contract is None:
            return infer(view)  # (its refusal)
        rules = view.rules
        seat, trump, taker = view.seat, contract.trump, contract.taker
        tricks = view.tricks
        kept = self.kept
        start = 0
        if kept is not None and kept.rules is rules and kept.seat == seat \
                and kept.trump == trump and kept.taker == taker:
            read = kept.tricks
            start = len(read)
            if start > len(tricks):
                start = 0
            else:
                for i in range(start):
                    if read[i] is not tricks[i]:
                        start = 0
                        break
        if not start:
            table = Table.of(rules)
            if table.mode is DealMode.DECOUVERTE:
                return infer(view)
            kept = _Read(rules, seat, trump, taker, table)
        assert kept is not None
        if start < len(tricks):
            kept = kept.after(tricks, start)
        self.kept = kept
        k = Unseen(view, True, kept.table, kept).knowledge(view.hand)
        _check(k, view)
        return k


class _Read:
    """A :class:`Reading`'s completed tricks of one deal, read for one seat."""

    __slots__ = ("by_seat", "deck", "rules", "seat", "sides", "table", "taker", "tricks",
                 "trump", "voids")

    def __init__(self, rules: Rules, seat: int, trump: TrumpMode, taker: int,
                 table: Table) -> None:
        self.rules, self.seat, self.trump, self.taker, self.table = (
            rules, seat, trump, taker, table)
        self.sides = table.sides(taker)
        self.deck = table.deck_mask
        self.tricks: tuple[Trick, ...] = ()
        n = table.players
        self.by_seat: tuple[CardMask, ...] = (0,) * n  # the cards each seat played in them
        self.voids: tuple[CardMask, ...] = (0,) * n  # what they revealed (revealed())

    def after(self, tricks: tuple[Trick, ...], start: int) -> _Read:
        """This one with ``tricks`` read, the first ``start`` of them being this one's."""
        out = _Read.__new__(_Read)
        out.rules, out.seat, out.trump, out.taker, out.table = (
            self.rules, self.seat, self.trump, self.taker, self.table)
        out.sides, out.deck, out.tricks = self.sides, self.deck, tricks
        n = len(self.by_seat)
        by_seat, voids = list(self.by_seat), list(self.voids)
        for t in tricks[start:]:
            leader = t.leader
            for i, c in enumerate(t.cards):
                by_seat[(leader + i) % n] |= 1 << c
            _reveal(voids, self.rules, self.trump, self.seat, self.sides, leader, t.cards)
        out.by_seat, out.voids = tuple(by_seat), tuple(voids)
        return out


class Unseen:
    """:func:`infer` less the seat's own cards: what the seat's view says of the
    hidden cards whatever the seat holds (four players and §12.1's deals; not
    découverte).  :meth:`knowledge` adds a hand (the seat's cards now, as many as the
    view's) and answers what :func:`infer` answers for the view with that hand: a
    card model asks it for many hands of one past view (:mod:`belote.bots.card_model`)."""

    __slots__ = ("held", "known", "placed", "seat", "sizes", "table", "trump", "unknown",
                 "voids")

    def __init__(self, view: PlayerView, voids: bool = True,
                 table: Table | None = None,
                 read: _Read | None = None) -> None:
        """``read``, from a :class:`Reading` (with the voids): the view's completed
        tricks as read for its seat."""
        assert view.contract is not None
        table = table if table is not None else Table.of(view.rules)
        self.table = table
        n = table.players
        seat, trump = view.seat, view.contract.trump
        self.seat, self.trump = seat, trump
        if read is None:
            by_seat = played_by(view)
            deck = table.deck_mask
        else:
            by_seat, deck = list(read.by_seat), read.deck
            for i, c in enumerate(view.trick):
                by_seat[(view.trick_leader + i) % n] |= 1 << c
        played = 0
        for m in by_seat:
            played |= m
        total = view.hand.bit_count() + by_seat[seat].bit_count()
        self.sizes = tuple(total - by_seat[s].bit_count() for s in range(n))
        known = [0] * n
        taker = view.contract.taker
        turned = view.turned
        if (table.mode.takes_turned and turned is not None and taker != seat
                and not played >> turned & 1):
            known[taker] |= 1 << turned  # §3.4: the taker receives the turned card
        for s in range(n):
            if s != seat:
                for d in view.shown[s]:
                    known[s] |= d.cards & ~played  # §7.6
        for s, c in view.belote_cards:
            other = c ^ (KING ^ QUEEN)  # §7.7: the trump queen after the king, or back
            if s != seat and not played >> other & 1:
                known[s] |= 1 << other
        placed = 0
        for m in known:
            placed |= m
        # §12: the cards face up on the table are in no hand; the taker knows his discards.
        # (The seat's own cards are taken out of these in knowledge().)
        unknown = deck & ~played & ~view.public & ~placed & ~view.discards
        self.known, self.unknown, self.placed = known, unknown, placed
        self.held = sum(self.sizes[s] for s in range(n) if s != seat)  # by the others
        sides = table.sides(taker)
        forbidden = [0] * n
        if voids:
            # Every card that reveals something, over every card (forbidden_after's
            # answer is that over every card, filtered): the completed tricks' kept
            # (:func:`revealed`), the trick in progress's added.
            rules = view.rules
            over = (list(revealed(rules, trump, seat, sides, tuple(view.tricks)))
                    if read is None else list(read.voids))
            if view.trick:
                _reveal(over, rules, trump, seat, sides, view.trick_leader, view.trick)
            # (The seat's own cards among the candidates change nothing: they are
            # forbidden to the others in knowledge() anyway.)
            forbidden = [over[p] & (unknown | known[p]) for p in range(n)]
        self.voids = forbidden

    def knowledge(self, hand: CardMask, discards: CardMask = 0) -> Knowledge:
        """What the seat knows holding ``hand`` (and, the kitty's taker, having laid
        ``discards`` aside, §12.1: the view was made with none)."""
        seat = self.seat
        known = list(self.known)
        known[seat] = hand
        unknown = self.unknown & ~hand & ~discards
        forbidden = list(self.voids)
        for s in range(len(known)):
            if s != seat:
                forbidden[s] |= ALL_CARDS & ~(unknown | known[s])
        return Knowledge(
            seat=seat, table=self.table, trump=self.trump, sizes=self.sizes,
            known=tuple(known), forbidden=tuple(forbidden), unknown=unknown,
            out=(unknown | self.placed).bit_count() - self.held,
        )


# revealed's answers: (id of the rules, trump, seat, sides, the completed tricks).
REVEALED: Final = Kept(1 << 14)


def revealed(rules: Rules, trump: TrumpMode, seat: int, sides: Sequence[int],
             tricks: tuple[Trick, ...]) -> tuple[CardMask, ...]:
    """The cards each other seat cannot hold as far as ``seat`` reads the completed
    ``tricks`` (the voids their cards revealed, :func:`forbidden_after` over every
    card): kept by tricks, and worked out from the answer for all but the last
    trick (the seat's turn before), so that each turn reads one trick more."""
    key = (id(rules), trump, seat, tuple(sides), tricks)
    kept = REVEALED.get(key, rules)
    if kept is not None:
        assert isinstance(kept, tuple)
        return kept
    if tricks:
        out = list(revealed(rules, trump, seat, sides, tricks[:-1]))
        _reveal(out, rules, trump, seat, sides, tricks[-1].leader, tricks[-1].cards)
    else:
        out = [0] * len(sides)
    answer = tuple(out)
    REVEALED.put(key, rules, answer)
    return answer


def _reveal(out: list[CardMask], rules: Rules, trump: TrumpMode, seat: int,
            sides: Sequence[int], leader: int, cards: Sequence[Card]) -> None:
    """Add to ``out`` what each card of one trick after the first reveals of its
    player's hand (the seat's own cards reveal nothing to it)."""
    n = len(sides)
    led = suit_of(cards[0])
    for i in range(1, len(cards)):
        p = (leader + i) % n
        c = cards[i]
        if p == seat or (suit_of(c) == led and led != trump and trump != ALL_TRUMP):
            continue  # §6.1: following a plain suit reveals nothing
        out[p] |= forbidden_after(rules, trump, leader, cards[:i], c, ALL_CARDS, sides)


def _decouverte(view: PlayerView, table: Table, by_seat: list[CardMask]) -> Knowledge:
    """§12.2: both face-up sets are seen; the face-down cards are unknown to both."""
    assert view.contract is not None
    seat = view.seat
    other = 1 - seat
    hands = [0, 0]
    hands[seat] = view.hand
    hands[other] = view.public
    seen = [hands[s] | by_seat[s] for s in range(2)]
    under = tuple(table.hand_size - seen[s].bit_count() for s in range(2))
    unknown = ALL_CARDS & ~seen[0] & ~seen[1]
    on_table = [0, 0]
    for i, c in enumerate(view.trick):
        on_table[(view.trick_leader + i) % 2] |= 1 << c
    # The covering cards of each seat: in its face-up cards or on the trick (§12.2).
    covering = tuple(view.covering & (hands[s] | on_table[s]) for s in range(2))
    if any(covering[s].bit_count() != under[s] for s in range(2)):
        raise InconsistentViewError(
            f"seat {SEAT_NAMES[seat]}: the covering cards do not match the face-down cards")
    k = Knowledge(
        seat=seat, table=table, trump=view.contract.trump,
        sizes=(hands[0].bit_count(), hands[1].bit_count()), known=(hands[0], hands[1]),
        forbidden=(ALL_CARDS & ~hands[0], ALL_CARDS & ~hands[1]), unknown=unknown,
        out=unknown.bit_count(), under=under, covering=covering,
        on_table=(on_table[0], on_table[1]),
    )
    if min(under) < 0 or sum(under) != unknown.bit_count():
        raise InconsistentViewError(f"seat {SEAT_NAMES[seat]}: the face-down cards do not add up")
    return k


def _check(k: Knowledge, view: PlayerView) -> None:
    where = f"seat {SEAT_NAMES[view.seat]}, trick {len(view.tricks) + 1}"
    seen = 0
    for s in range(k.players):
        if k.known[s] & seen:
            raise InconsistentViewError(f"{where}: a card is known in two hands")
        seen |= k.known[s]
        if s != k.seat and k.known[s] & k.forbidden[s]:
            raise InconsistentViewError(f"{where}: {SEAT_NAMES[s]} holds a card it cannot hold")
        if k.need(s) < 0:
            raise InconsistentViewError(
                f"{where}: {SEAT_NAMES[s]} is known to hold more cards than it has")
    if k.need(k.seat) != 0 or k.out < 0:
        raise InconsistentViewError(f"{where}: the cards do not add up")


def relax(k: Knowledge) -> Knowledge:
    """The same knowledge without the voids (a fallback when no deal fits)."""
    forbidden = tuple(
        0 if s == k.seat else ALL_CARDS & ~(k.unknown | k.known[s]) for s in range(k.players)
    )
    return dataclasses.replace(k, forbidden=forbidden)
