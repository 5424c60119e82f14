"""Shuffle, cut and deal (RULES.md §2, §3.1, §3.4, §4.1).

A deck is a list of the 32 cards, top card first.  Shuffling is
cryptographically secure by default (:class:`random.SystemRandom`) and
reproducible when a seed is given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from belote.cards import Card, CardMask
from belote.errors import OptionError

Rng = random.Random


def make_rng(seed: int | None = None) -> Rng:
    """A secure generator, or a reproducible one for a given seed."""
    return random.SystemRandom() if seed is None else random.Random(seed)


def new_deck() -> list[Card]:
    return list(range(32))


def shuffle(deck: list[Card], rng: Rng) -> None:
    """Shuffle in place (Fisher–Yates through ``rng.shuffle``)."""
    rng.shuffle(deck)


def cut(deck: Sequence[Card], rng: Rng, min_cut: int = 3) -> list[Card]:
    """Cut the deck: each packet holds at least ``min_cut`` cards (§2.3)."""
    if min_cut < 1 or 2 * min_cut > len(deck):
        raise OptionError(f"min_cut: {min_cut!r} leaves no valid cut of {len(deck)} cards")
    at = rng.randint(min_cut, len(deck) - min_cut)
    return list(deck[at:]) + list(deck[:at])


def packets(pattern: str) -> list[int]:
    """``"3-2"`` → ``[3, 2]``."""
    return [int(p) for p in pattern.split("-")]


@dataclass(frozen=True, slots=True)
class FirstDeal:
    """The deal before bidding in take-or-pass belote (§3.1)."""

    hands: tuple[CardMask, ...]  # five cards per seat
    turned: Card  # the 21st card, face up
    stock: tuple[Card, ...]  # the 11 cards left, top first


def deal_packets(
    deck: Sequence[Card], dealer: int, pattern: str, players: int = 4
) -> tuple[list[CardMask], int]:
    """Deal packets from the eldest in the given pattern; returns hands and cards used."""
    hands = [0] * players
    pos = 0
    for size in packets(pattern):
        for i in range(1, players + 1):
            seat = (dealer + i) % players
            for c in deck[pos:pos + size]:
                hands[seat] |= 1 << c
            pos += size
    return hands, pos


def deal_first(deck: Sequence[Card], dealer: int, pattern: str = "3-2") -> FirstDeal:
    """Five cards each from the eldest in two packets, then turn the next card (§3.1)."""
    hands, used = deal_packets(deck, dealer, pattern)
    return FirstDeal(tuple(hands), deck[used], tuple(deck[used + 1:]))


def deal_rest(first: FirstDeal, dealer: int, taker: int) -> list[CardMask]:
    """The taker gets the turned card; then 3 cards each from the eldest, 2 to the taker (§3.4)."""
    hands = list(first.hands)
    hands[taker] |= 1 << first.turned
    pos = 0
    stock = first.stock
    for i in range(1, 5):
        seat = (dealer + i) & 3
        n = 2 if seat == taker else 3
        for c in stock[pos:pos + n]:
            hands[seat] |= 1 << c
        pos += n
    return hands


def deal_all(deck: Sequence[Card], dealer: int, pattern: str = "3-3-2") -> list[CardMask]:
    """All 32 cards, 8 each from the eldest in packets (§4.1)."""
    hands, used = deal_packets(deck, dealer, pattern)
    if used != len(deck):
        raise OptionError(f"deal_pattern {pattern!r} does not deal {len(deck)} cards")
    return hands
