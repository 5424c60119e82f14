"""Shuffle, cut and deal (docs/rules.md §2, §3.1, §3.4, §4.1).

A deck is a list of the 32 cards, top card first.  Shuffling is
cryptographically secure by default (:class:`random.SystemRandom`) and
reproducible when a seed is given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Final, NamedTuple

from belote.cards import BIT, NINE, Card, CardMask, rank_of, suit_of
from belote.errors import OptionError
from belote.options import ThreeDeal
from belote.table import DealMode, deal_mode_of

Rng = random.Random
# (Members read once: a member read from its class is slow, and every deal reads them.)
_KITTY: Final = DealMode.KITTY
_SIX_EACH: Final = DealMode.SIX_EACH
_STOCK: Final = DealMode.STOCK


def make_rng(seed: int | None = None) -> Rng:
    """A secure generator, or a reproducible one for a given seed."""
    return random.SystemRandom() if seed is None else random.Random(seed)


def new_deck(players: int = 4, three_deal: ThreeDeal = ThreeDeal.CARDS_24) -> list[Card]:
    """The 32 cards; for three players dealt 24 (§12.1), the 7s and 8s are removed."""
    if players == 3 and three_deal is ThreeDeal.CARDS_24:
        return [c for c in range(32) if rank_of(c) >= NINE]
    return list(range(32))


def deal_mode(players: int, three_deal: str, two_deal: str, auction: bool) -> DealMode:
    """How a deal goes: ``classic`` (§3), ``auction`` (§4), or a §12 variant:
    ``24_cards``, ``kitty``, ``six_each`` (three players), ``stock``, ``decouverte`` (two)."""
    return deal_mode_of(players, three_deal, two_deal, auction)


def shuffle(deck: list[Card], rng: Rng) -> None:
    """Shuffle in place (Fisher–Yates): the draws of ``rng.shuffle`` (for each place
    from the last, an index below it drawn as bits of its length, drawn again while
    too high), written out for speed: ``belote simulate`` shuffles every deal."""
    getrandbits = rng.getrandbits
    for i, n, k in shuffle_steps(len(deck)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


@cache
def shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of :func:`shuffle` for a deck of ``size`` cards: for each place ``i``
    from the last, the number ``n`` of places an index is drawn below (``i + 1``) and
    the bits ``k`` of each draw (``n``'s length).  Cached: worked out once a size."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def draw_below(rng: Rng, n: int) -> int:
    """A number below ``n`` drawn as ``rng.randrange(n)`` draws it (the same stream): bits
    of ``n``'s length, drawn again while too high."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def cut(deck: Sequence[Card], rng: Rng, min_cut: int = 3) -> list[Card]:
    """Cut the deck: each packet holds at least ``min_cut`` cards (§2.3)."""
    if min_cut < 1 or 2 * min_cut > len(deck):
        raise OptionError(f"min_cut: {min_cut!r} leaves no valid cut of {len(deck)} cards")
    at = min_cut + draw_below(rng, len(deck) - 2 * min_cut + 1)  # rng.randint's draw
    cards = list(deck)
    return cards[at:] + cards[:at]


def packets(pattern: str) -> list[int]:
    """``"3-2"`` → ``[3, 2]``."""
    return [int(p) for p in pattern.split("-")]


@cache
def packet_seats(dealer: int, pattern: str, players: int) -> tuple[int, ...]:
    """The seat each card goes to, in the order dealt, when packets of ``pattern`` are
    dealt from the eldest (the seat after ``dealer``): ``(1, 1, 1, 2, 2, 2, ...)``.

    Cached: a deal is one pass over the deck with it (``belote simulate`` deals
    thousands)."""
    seats: list[int] = []
    for size in packets(pattern):
        for i in range(1, players + 1):
            seats += [(dealer + i) % players] * size
    return tuple(seats)


class FirstDeal(NamedTuple):
    """The deal before bidding in take-or-pass belote (§3.1).

    A named tuple: one is made for every deal (``belote simulate`` makes thousands)."""

    hands: tuple[CardMask, ...]  # five cards per seat
    turned: Card  # the 21st card, face up
    stock: tuple[Card, ...]  # the 11 cards left, top first


# A FirstDeal from its three fields, without the named tuple's own __new__ (one is made
# every deal).
_new_deal: Final = tuple.__new__


def deal_packets(
    deck: Sequence[Card], dealer: int, pattern: str, players: int = 4
) -> tuple[list[CardMask], int]:
    """Deal packets from the eldest in the given pattern; returns hands and cards used."""
    hands = [0] * players
    seats = packet_seats(dealer, pattern, players)
    _give(hands, deck, seats)
    return hands, len(seats)


def _give(hands: list[CardMask], cards: Sequence[Card], seats: tuple[int, ...]) -> None:
    """Add ``cards`` to ``hands``, the i-th to seat ``seats[i]`` (a short pack: what it
    holds; cards beyond the plan stay out)."""
    if len(cards) < len(seats):
        for seat, c in zip(seats, cards, strict=False):
            hands[seat] |= 1 << c
        return
    for seat, places in seat_places(seats):  # (a hand at a time: a measured hot path)
        held = 0
        for i in places:
            held |= BIT[cards[i]]
        hands[seat] |= held


@cache
def seat_places(seats: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """A dealing plan (:func:`packet_seats`, :func:`rest_seats`) seat by seat: each seat
    with the places of its cards in the order dealt.  Cached: a hand is made in one
    loop over its own places (``belote simulate`` deals thousands)."""
    return tuple((seat, tuple(i for i, s in enumerate(seats) if s == seat))
                 for seat in dict.fromkeys(seats))


def deal_first(
    deck: Sequence[Card], dealer: int, pattern: str = "3-2", players: int = 4,
    mode: DealMode = DealMode.CLASSIC,
) -> FirstDeal:
    """The deal before bidding (§3.1, §12).

    ``classic`` and ``24_cards``: five cards each from the eldest in two packets,
    then the next card turned up.  ``six_each`` and ``stock``: six each (3+3), then
    one turned up.  ``kitty``: ten each (3-2-3-2); the last two cards are the kitty
    (``stock``), nothing is turned.
    """
    if mode is _SIX_EACH or mode is _STOCK:
        pattern = "3-3"
    elif mode is _KITTY:
        hands, used = deal_packets(deck, dealer, "3-2-3-2", players)
        return FirstDeal(tuple(hands), -1, tuple(deck[used:]))
    hands, used = deal_packets(deck, dealer, pattern, players)
    return _new_deal(FirstDeal, (tuple(hands), deck[used], tuple(deck[used + 1:])))


def deal_rest(
    first: FirstDeal, dealer: int, taker: int, players: int = 4,
    mode: DealMode = DealMode.CLASSIC,
) -> list[CardMask]:
    """The rest of the deal once somebody took (§3.4, §12).

    ``classic`` and ``24_cards``: the taker gets the turned card, then 3 cards each
    from the eldest, 2 to the taker.  ``six_each`` and ``stock``: 3 more cards each
    (the turned card stays on the table).  ``kitty``: the taker takes the kitty.
    """
    hands = list(first.hands)
    stock = first.stock
    if mode is _KITTY:
        for c in stock:
            hands[taker] |= 1 << c
        return hands
    give_turned = mode.takes_turned
    if give_turned:
        hands[taker] |= 1 << first.turned
    _give(hands, stock, rest_seats(dealer, taker if give_turned else -1, players))
    return hands


@cache
def rest_seats(dealer: int, taker: int, players: int) -> tuple[int, ...]:
    """The seat each card of the second deal goes to (§3.4): three each from the
    eldest, two to ``taker`` (who has the turned card; -1 when it stays on the table)."""
    seats: list[int] = []
    for i in range(1, players + 1):
        seat = (dealer + i) % players
        seats += [seat] * (2 if seat == taker else 3)
    return tuple(seats)


def bergere(first: FirstDeal, players: int) -> Card:
    """``six_each`` and ``stock``: the card turned face up after the second deal (§12)."""
    return first.stock[3 * players]


def deal_piles(deck: Sequence[Card], dealer: int) -> tuple[list[list[tuple[Card, Card]]], int]:
    """Belote découverte (§12.2): each player gets 8 piles of a face-down card under a
    face-up one.  Four face-down cards to the non-dealer, four to the dealer, a face-up
    card on each of them in the same order, then the same again.  The last card dealt
    fixes trump; returns the piles per seat (down, up) and that trump suit."""
    other = (dealer + 1) % 2
    piles: list[list[tuple[Card, Card]]] = [[], []]
    pos = 0
    for _ in range(2):
        down = {other: list(deck[pos:pos + 4]), dealer: list(deck[pos + 4:pos + 8])}
        up = {other: list(deck[pos + 8:pos + 12]), dealer: list(deck[pos + 12:pos + 16])}
        pos += 16
        for seat in (other, dealer):
            piles[seat] += list(zip(down[seat], up[seat], strict=True))
    return piles, suit_of(deck[31])


def deal_all(deck: Sequence[Card], dealer: int, pattern: str = "3-3-2") -> list[CardMask]:
    """All 32 cards, 8 each from the eldest in packets (§4.1)."""
    hands, used = deal_packets(deck, dealer, pattern)
    if used != len(deck):
        raise OptionError(f"deal_pattern {str(pattern)!r} does not deal {len(deck)} cards")
    return hands
