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

import dataclasses
import random
from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import factorial

from belote.bots.base import discard_of
from belote.bots.knowledge import InconsistentViewError, Knowledge, World
from belote.cards import Card, CardMask, TrumpMode, scan_forward
from belote.play import SEAT_NAMES
from belote.table import DealMode

__all__ = ["DealSampler", "DiscardReadSampler"]


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


class DiscardReadSampler:
    """Belote at three with the kitty (§12.1), seen by a defender: the worlds of the
    model "the taker's twelve cards uniform, the two laid aside by the discard rule"
    (:func:`belote.bots.base.discard_of`, every bot's default discard), over ``uniform``,
    the :class:`DealSampler` of what the defender knows.

    The taker's twelve cards before his discard (his cards now, those he has played and
    the two aside) are drawn as one place by a :class:`DealSampler` (the cards he cannot
    hold now allowed in it: they may be aside); the rule then picks the two aside, and
    the draw is kept only if that fits what was seen: the two aside are unknown cards
    of that place (never a card he played, showed or said), and every card of the
    place he cannot hold now by his play is among them.  Rejection within the exact
    draw is exact for the model.  A world wants at most ``tries`` draws; past that it
    is drawn as :class:`DealSampler` draws (the two aside uniform), and so is every
    later world of this sampler: ``fallbacks`` counts those worlds, ``draws`` the draws
    made, ``kept`` the worlds kept by the rule.  (With heuristic players, 1 turn of
    about 3,000 of the defenders' needed more than 512 draws: the taker's voids leave
    few twelves whose two aside fit.)
    """

    def __init__(self, uniform: DealSampler, taker: int, played: CardMask,
                 trump: TrumpMode, tries: int = 512) -> None:
        k = uniform.knowledge
        self.knowledge = k
        self.taker, self.played, self.trump, self.tries = taker, played, trump, tries
        self.uniform = uniform  # (the knowledge's uniform draw, its counts kept)
        sizes = list(k.sizes)
        sizes[taker] += k.out
        forbidden = list(k.forbidden)
        forbidden[taker] &= ~k.unknown  # a card he cannot hold now may lie aside
        merged = dataclasses.replace(k, sizes=tuple(sizes), forbidden=tuple(forbidden), out=0)
        self.merged = DealSampler(merged)
        self.given_up = self.merged.count() == 0
        self.fallbacks = self.draws = self.kept = 0
        self._rule: dict[CardMask, CardMask] = {}

    def count(self) -> int:
        """The deals the knowledge allows, the two aside uniform (:class:`DealSampler`)."""
        return self.uniform.count()

    def aside_of(self, twelve: CardMask) -> CardMask:
        """The two cards the rule lays aside from the taker's ``twelve``."""
        got = self._rule.get(twelve)
        if got is None:
            got = 0
            for c in discard_of(twelve, self.trump):
                got |= 1 << c
            self._rule[twelve] = got
        return got

    def fits(self, world: World) -> bool:
        """Whether ``world`` is one of the model's: the knowledge allows it and its two
        cards aside are the rule's from the taker's twelve."""
        twelve = world.hands[self.taker] | self.played | world.out
        return self.knowledge.allows(world) and self.aside_of(twelve) == world.out

    def sample(self, rng: random.Random) -> World:
        """One world of the model, or past ``tries`` draws one of :class:`DealSampler`."""
        k, taker = self.knowledge, self.taker
        if not self.given_up:
            for _ in range(self.tries):
                self.draws += 1
                world = self.merged.sample(rng)
                place = world.hands[taker]
                aside = self.aside_of(place | self.played)
                hand = place & ~aside
                if aside & ~(place & k.unknown) or hand & k.forbidden[taker]:
                    continue
                hands = list(world.hands)
                hands[taker] = hand
                self.kept += 1
                return World(tuple(hands), aside)
            self.given_up = True
        self.fallbacks += 1
        return self.uniform.sample(rng)
