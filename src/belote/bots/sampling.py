"""What a seat knows about the hidden hands, and exact sampling of the deals it allows.

:func:`infer` reads a :class:`~belote.round.PlayerView` during the card play and
returns a :class:`Knowledge`: how many cards each seat holds, the cards known to
be in a hand, and the cards a seat cannot hold:

- its own cards, and every card played (RULES.md §5);
- the turned card, which the taker received whatever the trump (§3.4);
- the cards of the declarations shown at trick 2 (§7.6);
- belote said with a trump king or queen: the other one is in that hand (§7.7);
- voids revealed by the play (§6): a card played out of the led suit, a
  failure to trump or to overtrump, under the table's options.

The voids are read with the engine's own legal-move rule: after a card ``c``
was played from a position, holding card ``x`` as well would have made ``c``
illegal exactly when ``c`` is not legal from the hand ``{c, x}``.  Every rule of
§6 (with every option) makes the set of hands from which ``c`` is legal a set
of the form "holds ``c`` and none of F", so the pairwise test finds F exactly
(tests/test_sampling.py checks this on random positions).

:class:`DealSampler` then deals the unknown cards to the other seats uniformly
among all the deals consistent with that knowledge, without rejection: cards
are grouped by the set of seats that may hold them (at most 7 groups), a small
dynamic program counts the deals per group split, and a split is drawn with
the exact weights, then the cards of each group are shuffled among its seats.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import factorial

from belote.bots.base import played_by
from belote.cards import ALL_CARDS, ALL_TRUMP, KING, QUEEN, Card, CardMask, TrumpMode, scan_forward
from belote.errors import BeloteError
from belote.options import Rules
from belote.play import SEAT_NAMES, PlayState
from belote.round import PLAY, PlayerView

__all__ = [
    "DealSampler",
    "InconsistentViewError",
    "Knowledge",
    "forbidden_after",
    "infer",
    "knowledge_allows",
    "relax",
]

HAND_SIZE = 8


class InconsistentViewError(BeloteError):
    """No deal of the hidden cards agrees with what a seat knows."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of the four hands now (during the card play)."""

    seat: int
    trump: TrumpMode
    sizes: tuple[int, int, int, int]  # cards each seat holds now
    known: tuple[CardMask, CardMask, CardMask, CardMask]  # cards known in each hand
    forbidden: tuple[CardMask, CardMask, CardMask, CardMask]  # cards a seat cannot hold
    unknown: CardMask  # the cards still to place among the other seats

    def need(self, seat: int) -> int:
        """How many unknown cards ``seat`` holds."""
        return self.sizes[seat] - self.known[seat].bit_count()

    def allows(self, hands: Sequence[CardMask]) -> bool:
        """Whether ``hands`` (the four hands now) agree with this knowledge."""
        return knowledge_allows(self, hands)


def knowledge_allows(k: Knowledge, hands: Sequence[CardMask]) -> bool:
    seen = 0
    for s in range(4):
        h = hands[s]
        if h.bit_count() != k.sizes[s] or h & seen:
            return False
        if h & k.known[s] != k.known[s] or h & k.forbidden[s]:
            return False
        if s != k.seat and h & ~(k.known[s] | k.unknown):
            return False
        seen |= h
    return True


def _position_before(
    rules: Rules, trump: TrumpMode, leader: int, cards: Sequence[Card]
) -> PlayState:
    """A bare position: the trick so far ``cards`` from ``leader``; other hands empty."""
    state = PlayState(rules, trump, [0, 0, 0, 0], leader, tricks_left=1)
    for i, c in enumerate(cards):
        state.hands[(leader + i) & 3] = 1 << c
        state.push(c)
    return state


def forbidden_after(
    rules: Rules,
    trump: TrumpMode,
    leader: int,
    before: Sequence[Card],
    c: Card,
    candidates: CardMask = ALL_CARDS,
) -> CardMask:
    """The cards among ``candidates`` that the player of ``c`` cannot have held.

    ``before`` are the cards of the trick already played from ``leader``; ``c``
    is the next card.  A card ``x`` (not on the table) is returned when ``c`` is
    not legal from the hand ``{c, x}`` (RULES.md §6, the table's options applied
    by the engine).
    """
    if not before:
        return 0
    state = _position_before(rules, trump, leader, before)
    seat = state.turn
    hands = state.hands
    bit = 1 << c
    out = 0
    on_table = 0
    for b in before:
        on_table |= 1 << b
    for x in scan_forward(candidates & ~bit & ~on_table):
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
            f"seat {SEAT_NAMES[view.seat]}: nothing to infer in phase {view.phase!r}"
        )
    rules, trump, seat = view.rules, view.contract.trump, view.seat
    by_seat = played_by(view)
    played = by_seat[0] | by_seat[1] | by_seat[2] | by_seat[3]
    sizes = tuple(HAND_SIZE - m.bit_count() for m in by_seat)
    known = [0, 0, 0, 0]
    known[seat] = view.hand
    taker = view.contract.taker
    if view.turned is not None and taker != seat and not played >> view.turned & 1:
        known[taker] |= 1 << view.turned  # §3.4
    for s in range(4):
        if s == seat:
            continue
        for d in view.shown[s]:
            known[s] |= d.cards & ~played  # §7.6
    for s, c in view.belote_cards:
        other = c ^ (KING ^ QUEEN)  # §7.7: the trump queen after the king, or back
        if s != seat and not played >> other & 1:
            known[s] |= 1 << other
    placed = known[0] | known[1] | known[2] | known[3]
    unknown = ALL_CARDS & ~played & ~placed
    forbidden = [0, 0, 0, 0]
    tricks = [(t.leader, t.cards) for t in view.tricks] if voids else []
    if view.trick and voids:
        tricks.append((view.trick_leader, view.trick))
    for leader, cards in tricks:
        led = cards[0] >> 3
        for i in range(1, len(cards)):
            p = (leader + i) & 3
            c = cards[i]
            if p == seat or (c >> 3 == led and led != trump and trump != ALL_TRUMP):
                continue  # §6.1: following a plain suit reveals nothing
            forbidden[p] |= forbidden_after(
                rules, trump, leader, cards[:i], c, unknown | known[p]
            )
    for s in range(4):
        if s != seat:
            forbidden[s] |= ALL_CARDS & ~(unknown | known[s])
    k = Knowledge(
        seat=seat,
        trump=trump,
        sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        known=(known[0], known[1], known[2], known[3]),
        forbidden=(forbidden[0], forbidden[1], forbidden[2], forbidden[3]),
        unknown=unknown,
    )
    _check(k, view)
    return k


def _check(k: Knowledge, view: PlayerView) -> None:
    where = f"seat {SEAT_NAMES[view.seat]}, trick {len(view.tricks) + 1}"
    seen = 0
    for s in range(4):
        if k.known[s] & seen:
            raise InconsistentViewError(f"{where}: a card is known in two hands")
        seen |= k.known[s]
        if s != k.seat and k.known[s] & k.forbidden[s]:
            raise InconsistentViewError(
                f"{where}: {SEAT_NAMES[s]} holds a card it cannot hold"
            )
        if k.need(s) < 0:
            raise InconsistentViewError(
                f"{where}: {SEAT_NAMES[s]} is known to hold more cards than it has"
            )
    if k.need(k.seat) != 0:
        raise InconsistentViewError(f"{where}: the seat's hand has the wrong size")


def relax(k: Knowledge) -> Knowledge:
    """The same knowledge without the voids (a fallback when none fits)."""
    forbidden = tuple(
        0 if s == k.seat else ALL_CARDS & ~(k.unknown | k.known[s]) for s in range(4)
    )
    return Knowledge(
        k.seat, k.trump, k.sizes, k.known,
        (forbidden[0], forbidden[1], forbidden[2], forbidden[3]), k.unknown,
    )


def _splits(k: int, seats: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Ways to put ``k`` cards into ``seats`` groups, group ``i`` at most ``caps[i]``."""
    if seats == 1:
        if k <= caps[0]:
            yield (k,)
        return
    for first in range(min(k, caps[0]) + 1):
        for rest in _splits(k - first, seats - 1, caps[1:]):
            yield (first, *rest)


def _multinomial(parts: Sequence[int]) -> int:
    out = factorial(sum(parts))
    for p in parts:
        out //= factorial(p)
    return out


class DealSampler:
    """Uniform, rejection-free deals of the unknown cards consistent with a :class:`Knowledge`."""

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        k = knowledge
        self.others = tuple(s for s in range(4) if s != k.seat)
        groups: dict[tuple[int, ...], list[Card]] = {}
        for c in scan_forward(k.unknown):
            allowed = tuple(i for i, s in enumerate(self.others) if not k.forbidden[s] >> c & 1)
            groups.setdefault(allowed, []).append(c)
        self.groups = sorted(groups.items())
        self.needs = tuple(k.need(s) for s in self.others)
        self._ways = lru_cache(maxsize=None)(self._count)

    def _count(self, i: int, needs: tuple[int, ...]) -> int:
        if i == len(self.groups):
            return 1 if not any(needs) else 0
        seats, cards = self.groups[i]
        if not seats:
            return 0
        total = 0
        for split in _splits(len(cards), len(seats), [needs[s] for s in seats]):
            rest = list(needs)
            for s, n in zip(seats, split, strict=True):
                rest[s] -= n
            sub = self._ways(i + 1, tuple(rest))
            if sub:
                total += _multinomial(split) * sub
        return total

    def count(self) -> int:
        """The number of deals consistent with the knowledge."""
        return self._ways(0, self.needs)

    def sample(self, rng: random.Random) -> list[CardMask]:
        """One deal drawn uniformly: the four hands now (the seat's own included)."""
        total = self.count()
        if total == 0:
            raise InconsistentViewError(
                f"seat {SEAT_NAMES[self.knowledge.seat]}: no deal fits what it knows"
            )
        hands = list(self.knowledge.known)
        needs = list(self.needs)
        for i, (seats, cards) in enumerate(self.groups):
            r = rng.randrange(self._ways(i, tuple(needs)))
            chosen: tuple[int, ...] | None = None
            for split in _splits(len(cards), len(seats), [needs[s] for s in seats]):
                rest = list(needs)
                for s, n in zip(seats, split, strict=True):
                    rest[s] -= n
                w = _multinomial(split) * self._ways(i + 1, tuple(rest))
                if r < w:
                    chosen, needs = split, rest
                    break
                r -= w
            assert chosen is not None
            pool = list(cards)
            rng.shuffle(pool)
            pos = 0
            for s, n in zip(seats, chosen, strict=True):
                for c in pool[pos:pos + n]:
                    hands[self.others[s]] |= 1 << c
                pos += n
        return hands
