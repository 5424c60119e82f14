"""Exact sampling of the deals of the hidden cards that a seat's knowledge allows,
at every table (docs/rules.md §6, §12).

:class:`DealSampler` deals the unknown cards of a
:class:`~belote.bots.knowledge.Knowledge` uniformly among all the deals
consistent with it, without rejection: cards are grouped by the set of places
that may hold them (the other seats, and at the tables of three and two the
place out of play: the kitty discards, the stock, découverte's face-down cards),
a small dynamic program counts the deals per group split, and a split is drawn
with the exact weights, then the cards of each group are shuffled among its
places.  In belote découverte (§12.2) the face-down cards are then laid under the
face-up cards that still cover one, in a random order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import factorial

from belote.bots.knowledge import InconsistentViewError, Knowledge, World
from belote.cards import Card, CardMask, scan_forward
from belote.play import SEAT_NAMES
from belote.table import DealMode

__all__ = ["DealSampler"]


def _splits(k: int, places: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Ways to put ``k`` cards into ``places`` places, place ``i`` at most ``caps[i]``."""
    if places == 1:
        if k <= caps[0]:
            yield (k,)
        return
    for first in range(min(k, caps[0]) + 1):
        for rest in _splits(k - first, places - 1, caps[1:]):
            yield (first, *rest)


def _multinomial(parts: Sequence[int]) -> int:
    out = factorial(sum(parts))
    for p in parts:
        out //= factorial(p)
    return out


class DealSampler:
    """Uniform, rejection-free deals of the unknown cards consistent with a
    :class:`~belote.bots.knowledge.Knowledge`: into the other hands and, at the
    tables of three and two (§12), the place out of play."""

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = k = knowledge
        self.others = tuple(s for s in range(k.players) if s != k.seat)
        # The small tables deal into one more place, out of play (empty in 24_cards).
        self.aside = len(self.others) if k.table.players != 4 else -1
        groups: dict[tuple[int, ...], list[Card]] = {}
        for c in scan_forward(k.unknown):
            seats = [i for i, s in enumerate(self.others) if not k.forbidden[s] >> c & 1]
            allowed = (*seats, self.aside) if self.aside >= 0 else tuple(seats)
            groups.setdefault(allowed, []).append(c)
        self.groups = sorted(groups.items())
        needs = [0 if k.table.mode is DealMode.DECOUVERTE else k.need(s) for s in self.others]
        self.needs = tuple([*needs, k.out] if self.aside >= 0 else needs)
        self._ways = lru_cache(maxsize=None)(self._count)

    def _count(self, i: int, needs: tuple[int, ...]) -> int:
        if i == len(self.groups):
            return 0 if any(needs) else 1
        places, cards = self.groups[i]
        if not places:
            return 0
        total = 0
        for split in _splits(len(cards), len(places), [needs[p] for p in places]):
            rest = list(needs)
            for p, m in zip(places, split, strict=True):
                rest[p] -= m
            sub = self._ways(i + 1, tuple(rest))
            if sub:
                total += _multinomial(split) * sub
        return total

    def count(self) -> int:
        """The number of deals consistent with the knowledge (face-down placement in
        découverte not counted: every placement is equally likely)."""
        return self._ways(0, self.needs)

    def sample(self, rng: random.Random) -> World:
        """One deal drawn uniformly."""
        k = self.knowledge
        if self.count() == 0:
            raise InconsistentViewError(f"seat {SEAT_NAMES[k.seat]}: no deal fits what it knows")
        hands = list(k.known)
        out = 0
        needs = list(self.needs)
        for i, (places, cards) in enumerate(self.groups):
            r = rng.randrange(self._ways(i, tuple(needs)))
            chosen: tuple[int, ...] | None = None
            for split in _splits(len(cards), len(places), [needs[p] for p in places]):
                rest = list(needs)
                for p, m in zip(places, split, strict=True):
                    rest[p] -= m
                w = _multinomial(split) * self._ways(i + 1, tuple(rest))
                if r < w:
                    chosen, needs = split, rest
                    break
                r -= w
            assert chosen is not None
            pool = list(cards)
            rng.shuffle(pool)
            pos = 0
            for p, m in zip(places, chosen, strict=True):
                got = 0
                for c in pool[pos:pos + m]:
                    got |= 1 << c
                if p == self.aside:
                    out |= got
                else:
                    hands[self.others[p]] |= got
                pos += m
        if k.table.mode is not DealMode.DECOUVERTE:
            return World(tuple(hands), out)
        return self._under(rng, hands, out)

    def _under(self, rng: random.Random, hands: list[CardMask], out: CardMask) -> World:
        """Découverte: the face-down cards, drawn under the covering cards (§12.2)."""
        covering = self.knowledge.covering
        hidden = list(scan_forward(out))
        rng.shuffle(hidden)
        beneath: dict[Card, Card] = {}
        pos = 0
        for s in range(2):
            for c in scan_forward(covering[s]):
                beneath[c] = hidden[pos]
                pos += 1
        return World(tuple(hands), out, beneath, covering)
