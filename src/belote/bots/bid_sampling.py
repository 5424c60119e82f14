"""What a seat knows of the deal while the bidding runs, and exact sampling of it.

During the bidding (docs/rules.md §3, §4) a seat sees its own cards, the turned card
(take-or-pass, §3.1), the dealer and the calls; nothing else.  A *bidding
world* places every card the seat cannot see:

- take-or-pass (§3.1, §3.4): the five cards dealt to each other seat and the
  eleven cards left in the stock, in dealing order.  :meth:`BidWorld.complete`
  then deals the rest for a given taker exactly as the engine does
  (:func:`belote.deal.deal_rest`: the taker gets the turned card and 2 cards,
  the others 3, from the eldest), which gives the four 8-card hands of the
  play;
- numeric auction (§4.1): the eight cards of each other seat (no stock).

:class:`BidSampler` draws worlds uniformly among all those consistent with the
seat's own cards and the turned card: every such world is one arrangement of
the same unseen cards into the other hands and the stock, and a uniform
shuffle cut into them gives each arrangement the same chance.  (The table's
``deal_pattern`` decides which cards of the pack go where, not how likely an
arrangement is, so it does not enter.)

Calls are *soft* information: nothing certain follows from them, since a
player may call anything legal.  :func:`call_hints` reads them as
:class:`Hint` s, plausible facts about the caller's cards (a seat that bid a
suit is strong in it, a seat that passed the turned suit in round 1 lacks its
jack and nine together, a coincher holds trumps); with hints the sampler keeps
only the worlds that fit them, by rejection, so the worlds kept are uniform
among those that fit.  When too few fit within a bounded number of draws the
caller drops the hints (:attr:`BidSampler.max_draws`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from belote.auction import CAPOT, GENERALE, AuctionCall
from belote.bidding import PASS
from belote.bots.heuristic import TAKE_THRESHOLD, bid_strength, suit_strength
from belote.cards import (
    ACE,
    ALL_CARDS,
    ALL_TRUMP,
    JACK,
    NINE,
    NO_TRUMP,
    SUIT_MASKS,
    TEN,
    Card,
    CardMask,
    TrumpMode,
    rank_of,
    scan_forward,
    suit_of,
)
from belote.deal import FirstDeal, deal_rest
from belote.errors import BeloteError
from belote.play import SEAT_NAMES
from belote.round import BIDDING, PlayerView

__all__ = [
    "BidSampler",
    "BidWorld",
    "Hint",
    "call_hints",
    "play_hints",
    "trump_strength",
]

FIRST_DEAL: Final = 5  # cards each seat holds before the take-or-pass bidding (§3.1)
FULL_HAND: Final = 8
HINT_SLACK: Final = 30  # a first bid of C hints at a trump_strength of C - HINT_SLACK ...
HINT_CAP: Final = 60  # ... at most HINT_CAP
RAISE_HINT: Final = 25  # a bid in the suit the partner named first hints at support only
OPENING_EXTRA: Final = 15  # the heuristic opens at 80 from a bid_strength of TAKE_THRESHOLD + 15


def trump_strength(hand: CardMask, trump: TrumpMode) -> int:
    """A quick measure of ``hand`` for a contract in ``trump`` (higher is stronger).

    For a suit it is :func:`belote.bots.heuristic.bid_strength`'s count without
    its first rule (seed 000 §9 tip 1, two master trumps): trump points + 6 a
    trump + 10 a side ace + 4 a guarded side ten + 10 for the trump king and
    queen (§7.7).  Sans-atout (§5.3): 19 an ace + 10 a ten; tout-atout (§5.4):
    20 a jack + 14 a nine.  The bots use it to prune hopeless contracts and to
    read bids.

    >>> from belote.cards import mask_of, parse_card, HEARTS
    >>> trump_strength(mask_of(parse_card(c) for c in "JH 9H 7H AS 8D 7C".split()), HEARTS)
    62
    >>> trump_strength(mask_of(parse_card(c) for c in "KH QH 8H AS".split()), HEARTS)
    45
    """
    if trump == NO_TRUMP:
        return sum(19 if rank_of(c) == ACE else 10
                   for c in scan_forward(hand) if rank_of(c) in (ACE, TEN))
    if trump == ALL_TRUMP:
        return sum(20 if rank_of(c) == JACK else 14
                   for c in scan_forward(hand) if rank_of(c) in (JACK, NINE))
    return suit_strength(hand, trump)


@dataclass(frozen=True, slots=True)
class Hint:
    """A plausible fact about the cards ``seat`` was dealt, read from its calls.

    ``kind``: ``"bid"`` (its :func:`trump_strength` in ``trump`` is at least
    ``level``), ``"no_jack_nine"`` (it does not hold both the jack and the nine
    of ``trump``), ``"trumps"`` (it holds at least ``level`` cards of ``trump``),
    ``"take"`` (its :func:`~belote.bots.heuristic.bid_strength` in ``trump``, two
    master trumps required, is at least ``level``), ``"weak"`` (its
    :func:`~belote.bots.heuristic.bid_strength` is below ``level`` in every suit;
    ``trump`` unused).  ``loose``: the ``bid_strength`` of those two reads counts
    a hand without two master trumps from that strength (the heuristic's ``loose``).
    """

    seat: int
    kind: str
    trump: TrumpMode
    level: int = 0
    loose: int = 0

    def fits(self, hand: CardMask) -> bool:
        trump = self.trump
        if self.kind == "bid":
            return trump_strength(hand, trump) >= self.level
        if self.kind == "no_jack_nine":
            base = trump * 8
            return not (hand >> (base + JACK) & 1 and hand >> (base + NINE) & 1)
        if self.kind == "take":
            return bid_strength(hand, trump, self.loose) >= self.level
        if self.kind == "weak":
            return all(bid_strength(hand, suit, self.loose) < self.level for suit in range(4))
        return (hand & SUIT_MASKS[trump]).bit_count() >= self.level


def call_hints(view: PlayerView) -> tuple[Hint, ...]:
    """What the other seats' calls so far suggest about their cards (soft, see the module).

    Take-or-pass (§3.2): a seat that passed in round 1 does not hold the jack and
    the nine of the turned suit together (the two master trumps, seed 000 §9 tip
    1).  Numeric auction (§4): a seat's highest bid in a suit of value ``C``
    (capot counted 250) suggests a :func:`trump_strength` of at least ``C - 30``
    in that suit, at most 60 (a hand of J 9 + two small trumps + an ace); when
    its partner named that suit first, only 25 (support: an ace and a trump
    honour); SA and TA bids and générales suggest nothing.  A seat that coinched
    a suit contract (§4.5) holds at least two of its trumps.
    """
    seat = view.seat
    hints: list[Hint] = []
    if view.turned is not None and not view.rules.is_auction:
        for call in view.calls[:4]:  # round 1
            if call.seat != seat and call.call == PASS:
                hints.append(Hint(call.seat, "no_jack_nine", suit_of(view.turned)))
        return tuple(hints)
    best: dict[tuple[int, int], int] = {}
    first: dict[tuple[int, int], int] = {}  # (team, suit) -> the seat that named it first
    contract_trump: int | None = None
    for call in view.calls:
        if not isinstance(call, AuctionCall):
            continue
        bid = call.bid
        if bid is not None:
            contract_trump = bid.trump
            if bid.value == GENERALE or bid.trump >= NO_TRUMP:
                continue
            value = 250 if bid.value == CAPOT else int(bid.value)
            first.setdefault((call.seat & 1, bid.trump), call.seat)
            key = (call.seat, bid.trump)
            best[key] = max(best.get(key, 0), value)
        elif (call.call == "coinche" and call.seat != seat and contract_trump is not None
              and contract_trump < NO_TRUMP):
            hints.append(Hint(call.seat, "trumps", contract_trump, 2))
    for (s, trump), value in sorted(best.items()):
        if s == seat:
            continue
        level = min(value - HINT_SLACK, HINT_CAP)
        if first[(s & 1, trump)] != s:
            level = min(level, RAISE_HINT)
        hints.append(Hint(s, "bid", trump, level))
    return tuple(hints)


def play_hints(view: PlayerView, loose: int = 0) -> tuple[Hint, ...]:
    """What the other seats' calls suggest about the eight cards each was dealt, read
    during the card play (soft, as :func:`call_hints`; a hint is about a seat's
    cards now together with those it has played).

    Take-or-pass (§3.2, §3.3): the taker of a suit holds its jack with the nine or
    the ace and a :func:`~belote.bots.heuristic.bid_strength` of at least
    :data:`~belote.bots.heuristic.TAKE_THRESHOLD` (the heuristic's take, seed 000 §9
    tip 1, with its five cards and the turned card, or the turned card as plain
    in round 2; eight cards only add to it).  What a pass says is about the first
    five cards, not read here.  Numeric auction (§4): the hints of
    :func:`call_hints` (the dealt hands are the hands of the play), and a seat
    whose first call is a pass with no bid on the table holds no suit worth the
    heuristic's opening (:func:`~belote.bots.heuristic.auction_value`: a
    ``bid_strength`` of 60).  ``loose``: the others take and open as the heuristic
    with that ``loose`` (a hand without two master trumps counts from that strength).
    """
    seat = view.seat
    contract = view.contract
    if contract is None or view.rules.players != 4:
        return ()
    if view.turned is not None and not view.rules.is_auction:
        if contract.taker == seat or contract.trump >= NO_TRUMP:
            return ()
        return (Hint(contract.taker, "take", contract.trump, TAKE_THRESHOLD, loose),)
    hints = list(call_hints(view))
    called: set[int] = set()
    opened = False
    for call in view.calls:
        if not isinstance(call, AuctionCall):
            continue
        if call.seat not in called and call.seat != seat and call.call == PASS and not opened:
            hints.append(Hint(call.seat, "weak", 0, TAKE_THRESHOLD + OPENING_EXTRA, loose))
        called.add(call.seat)
        opened = opened or call.bid is not None
    return tuple(hints)


@dataclass(frozen=True, slots=True)
class BidWorld:
    """One deal as far as the bidding goes: the cards dealt so far and the stock.

    ``hands``: per seat, the cards dealt before the bidding (5 in take-or-pass,
    8 in an auction), the seat's own included.  ``stock``: the cards still to
    deal, top first (take-or-pass; empty in an auction).
    """

    hands: tuple[CardMask, CardMask, CardMask, CardMask]
    stock: tuple[Card, ...]

    def complete(self, dealer: int, turned: Card | None, taker: int) -> list[CardMask]:
        """The four 8-card hands of the play once ``taker`` took (§3.4); in an
        auction (no turned card) the hands as dealt (§4.1)."""
        if turned is None or not self.stock:
            return list(self.hands)
        first = FirstDeal(self.hands, turned, self.stock)
        return deal_rest(first, dealer, taker)


def shuffled_hands(rng: random.Random, unseen: Sequence[Card], players: int, seat: int,
                   hand: CardMask, others: Sequence[int], dealt: int
                   ) -> tuple[list[CardMask], tuple[Card, ...]]:
    """The ``unseen`` cards shuffled and dealt ``dealt`` to each of ``others`` in turn
    (``seat`` keeps ``hand``): the hands by seat, and the cards left over."""
    pool = list(unseen)
    rng.shuffle(pool)
    hands = [0] * players
    hands[seat] = hand
    for i, s in enumerate(others):
        m = 0
        for c in pool[i * dealt:(i + 1) * dealt]:
            m |= 1 << c
        hands[s] = m
    return hands, tuple(pool[len(others) * dealt:])


class BidSampler:
    """Uniform worlds of the bidding phase for one seat (optionally filtered by hints).

    ``unseen`` are the cards the seat cannot see; each other seat was dealt
    ``dealt`` of them and ``stock`` more are still to deal.  ``hints`` filter
    the worlds by rejection (:meth:`fits`); :meth:`sample` gives up after
    ``max_draws`` draws without a fit and raises :class:`BeloteError`.
    """

    def __init__(
        self,
        seat: int,
        hand: CardMask,
        unseen: Sequence[Card],
        dealt: int,
        stock: int,
        hints: Sequence[Hint] = (),
        max_draws: int = 20_000,
    ) -> None:
        others = [s for s in range(4) if s != seat]
        if len(unseen) != 3 * dealt + stock:
            raise ValueError(
                f"{len(unseen)} unseen cards do not make 3 hands of {dealt} and a stock of {stock}"
            )
        if any(h.seat == seat or not 0 <= h.seat < 4 for h in hints):
            raise ValueError("a hint must be about another seat")
        self.seat = seat
        self.hand = hand
        self.unseen = tuple(unseen)
        self.dealt = dealt
        self.stock = stock
        self.others = tuple(others)
        self.hints = tuple(hints)
        self.max_draws = max_draws

    @classmethod
    def from_view(cls, view: PlayerView, hints: bool = True) -> BidSampler:
        """The sampler of ``view`` (a four-player view in the bidding phase)."""
        if view.phase != BIDDING or view.rules.players != 4:
            raise BeloteError(
                f"seat {SEAT_NAMES[view.seat]}: no bidding worlds in phase {view.phase!r} "
                f"with {view.rules.players} players"
            )
        seen = view.hand
        if view.turned is not None:
            seen |= 1 << view.turned
        unseen = list(scan_forward(ALL_CARDS & ~seen))
        dealt = FIRST_DEAL if view.turned is not None else FULL_HAND
        stock = len(unseen) - 3 * dealt
        return cls(view.seat, view.hand, unseen, dealt, stock,
                   call_hints(view) if hints else ())

    def draw(self, rng: random.Random) -> BidWorld:
        """One world drawn uniformly, hints ignored."""
        hands, rest = shuffled_hands(rng, self.unseen, 4, self.seat, self.hand, self.others,
                                     self.dealt)
        return BidWorld((hands[0], hands[1], hands[2], hands[3]), rest)

    def fits(self, world: BidWorld) -> bool:
        """Whether every hint holds in ``world``."""
        return all(h.fits(world.hands[h.seat]) for h in self.hints)

    def sample(self, rng: random.Random) -> BidWorld:
        """One world drawn uniformly among those that fit the hints."""
        for _ in range(self.max_draws):
            world = self.draw(rng)
            if self.fits(world):
                return world
        raise BeloteError(
            f"seat {SEAT_NAMES[self.seat]}: no world fits the calls in {self.max_draws} draws"
        )
