"""The PIMC bot's bidding search at three and two players (docs/rules.md §3.2–§3.4, §7,
§8, §12): the same worlds-and-solver idea as at four players
(:mod:`belote.bots.bid_sampling`, :mod:`belote.bots.bid_search`), on §12's deals.

A *world* (:class:`SmallWorld`) places every card the seat cannot see during the
bidding, as the deal of the table's mode places them (:data:`FIRST_HAND`): the cards
dealt to each other seat before the bidding, and the rest of the pack in dealing
order (the stock).  The seat sees its own cards and, except in the ``kitty`` deal,
the turned card; nothing else is shown before the play.  So:

- ``24_cards`` (three players, 24 cards): five cards each, the turned card, eight to
  deal; the taker gets the turned card and two more, the others three (§3.4);
- ``kitty`` (three): ten each and the two kitty cards, which the taker adds to his
  hand; he lays two aside (the heuristic's choice,
  :func:`belote.bots.base.discard_of`), counted in his tricks (§12.1);
- ``six_each`` (three) and ``stock`` (two): six each, the turned card (it stays on
  the table), three more each, the bergère, the rest out of play (§12.1, §12.2);
- ``decouverte`` has no bidding (§12.2): nothing to search.

:class:`SmallBidSampler` draws worlds uniformly among those consistent with the
seat's cards and the turned card (one uniform shuffle of the unseen cards, cut into
the other hands and the stock), and keeps by rejection those that fit the calls
(:class:`PassHint`: a seat that passed holds a hand the heuristic passes with,
:func:`belote.bots.heuristic.small_call` at the deal's take of :data:`SMALL_TAKE`);
when none fits within the draws allowed, the calls are dropped.

Each world is completed for a taker and a trump as the engine deals it
(:func:`belote.deal.deal_rest`) and its play solved for its value, as at four players
(:func:`belote.solver.solve`, value only: side 0's double-dummy points, the last
trick's 10 or a capot's 100 included).  The hand is then scored with the real scoring
(:func:`belote.scoring.score_hand`, §8 and §12: made, failed, litige with the reserve,
capot; every seat announcing its best declarations, compared with the sides of §12.1,
and saying its belote; the trick total of a deal that leaves cards out; the kitty's
discards in the taker's tricks), the takers' points taken as the solver's less
``caution``, give or take a normal error of ``noise`` points, a capot counting only
while they keep every point (:func:`belote.bots.bid_search.trick_cases`, the four
players' rule).  A call's value for the bot is its score less the others' mean (three
players: each defender counted half his side's score; two: the difference); with an
``outlook`` at three players (:class:`belote.bots.bid_search.SeatOutlook`, pimc
``game=aware``) the same per-seat scores weighed by the game so far instead.

:class:`SmallBidSearch` solves the worlds within a budget of positions (never a
clock, unless ``seconds`` is set) by the four-player search's own loop
(:func:`belote.bots.bid_search.solve_worlds`); the choice between the calls is
:class:`belote.bots.pimc.PimcBot`'s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from belote.bidding import PASS, TAKE
from belote.bots.base import discard_of
from belote.bots.bid_sampling import shuffled_hands
from belote.bots.bid_search import (
    BidMemo,
    Errors,
    Option,
    SeatOutlook,
    noise_errors,
    solve_worlds,
    takers_points,
    trick_cases,
)
from belote.bots.heuristic import SMALL_TAKE, small_call, small_strength
from belote.bots.knowledge import World
from belote.cards import (
    ALL_TRUMP,
    KING,
    NO_TRUMP,
    QUEEN,
    SUIT_LETTERS,
    Card,
    CardMask,
    TrumpMode,
    card,
    scan_forward,
    suit_of,
)
from belote.deal import FirstDeal, deal_rest
from belote.declarations import best_announcement, resolve
from belote.errors import BeloteError
from belote.options import Rules, ThreeDeal, TwoDeal
from belote.play import PlayState, card_points
from belote.round import BIDDING, PlayerView
from belote.scoring import HandEntry, score_hand
from belote.scoring import Outcome as HandOutcome
from belote.table import DealMode, Table

if TYPE_CHECKING:
    from belote.solver import SolverEngine

__all__ = [
    "FIRST_HAND",
    "PassHint",
    "PlayHint",
    "SmallBidSampler",
    "SmallBidSearch",
    "SmallDealt",
    "SmallOutcome",
    "SmallWorld",
    "deal_for_play",
    "defence_points",
    "play_hints",
    "seat_value",
    "small_options",
]

FIRST_HAND: Final = {DealMode.CARDS_24: 5, DealMode.KITTY: 10, DealMode.SIX_EACH: 6,
                     DealMode.STOCK: 6}
"""Cards each seat holds during the bidding, per deal of §12 that has one."""


def deal_of(view: PlayerView) -> ThreeDeal | TwoDeal:
    """The §12 deal option of a view's table."""
    return view.rules.three_deal if view.rules.players == 3 else view.rules.two_deal


@dataclass(frozen=True, slots=True)
class SmallWorld:
    """One deal as far as the bidding goes at a table of three or two: per seat the
    cards dealt before the bidding (the seat's own included) and the rest of the pack
    in dealing order (``kitty``: the two kitty cards)."""

    hands: tuple[CardMask, ...]
    stock: tuple[Card, ...]

    def complete(self, table: Table, dealer: int, turned: Card | None,
                 taker: int) -> list[CardMask]:
        """Each seat's cards once ``taker`` took, as the engine deals them (§3.4, §12;
        ``kitty``: the taker's twelve, before he lays two aside)."""
        first = FirstDeal(self.hands, -1 if turned is None else turned, self.stock)
        return deal_rest(first, dealer, taker, table.players, table.mode)


def _legal_then(view: PlayerView, index: int) -> tuple[str, ...]:
    """The calls that were legal for the ``index``-th call of the bidding (§3.2, §3.3,
    §12.1: the kitty deal's single round names any suit)."""
    turned = view.turned
    if turned is not None and index < view.rules.players:
        return (PASS, TAKE)
    return (PASS, *(SUIT_LETTERS[s] for s in range(4)
                    if turned is None or s != suit_of(turned)))


@dataclass(frozen=True, slots=True)
class PassHint:
    """``seat`` passed when ``calls`` were legal: its cards dealt before the bidding are a
    hand the heuristic passes with (soft: a player may pass anything)."""

    seat: int
    calls: tuple[str, ...]

    def fits(self, hand: CardMask, turned: Card | None, mode: ThreeDeal | TwoDeal,
             need: int) -> bool:
        return small_call(hand, turned, self.calls, mode, need) == PASS


def call_hints(view: PlayerView) -> tuple[PassHint, ...]:
    """A :class:`PassHint` for each pass of another seat so far (a take ends the
    bidding, so every earlier call is a pass)."""
    return tuple(PassHint(c.seat, _legal_then(view, i))
                 for i, c in enumerate(view.calls) if c.seat != view.seat and c.call == PASS)


@dataclass(frozen=True, slots=True)
class PlayHint:
    """What another seat's calls say about the cards it was dealt before the bidding,
    read in the card play at three and two players (soft, as :class:`PassHint`): each
    of its calls (``said``: the calls legal then, and the one it made) is the
    heuristic's (:func:`belote.bots.heuristic.small_call`) with those cards.

    Which of its cards at the start of the play (those it holds in a world and those it
    has played, the kitty taker's discards with them; the turned card, never dealt
    first, left out) were the ``first`` dealt before the bidding nobody saw: a world is
    checked with ``first`` of them drawn at random, so that it is kept with the chance
    that the seat's first cards fit its calls."""

    seat: int
    said: tuple[tuple[tuple[str, ...], str], ...]
    first: int
    with_out: bool  # (the kitty's taker: his discards, out of play, were his cards)

    def fits(self, world: World, before: Sequence[CardMask], turned: Card | None,
             mode: ThreeDeal | TwoDeal, need: int, rng: random.Random) -> bool:
        full = world.hands[self.seat] | before[self.seat] | (world.out if self.with_out
                                                              else 0)
        if turned is not None:
            full &= ~(1 << turned)
        cards = list(scan_forward(full))
        if len(cards) < self.first:  # (never at the start of a play: every card counted)
            return True
        hand = 0
        for c in (rng.sample(cards, self.first) if len(cards) > self.first else cards):
            hand |= 1 << c
        return all(small_call(hand, turned, calls, mode, need) == call
                   for calls, call in self.said)


def play_hints(view: PlayerView) -> tuple[PlayHint, ...]:
    """A :class:`PlayHint` for each other seat that called, in the card play of a deal
    with a bidding at three or two players (none in découverte, or before the play)."""
    table = Table.of(view.rules)
    if view.contract is None or table.players == 4 or table.mode not in FIRST_HAND:
        return ()
    said: dict[int, list[tuple[tuple[str, ...], str]]] = {}
    for i, c in enumerate(view.calls):
        if c.seat != view.seat:
            said.setdefault(c.seat, []).append((_legal_then(view, i), c.call))
    taker = view.contract.taker
    return tuple(PlayHint(seat, tuple(calls), FIRST_HAND[table.mode],
                          seat == taker and table.mode is DealMode.KITTY)
                 for seat, calls in sorted(said.items()))


class SmallBidSampler:
    """Uniform worlds of a small table's bidding for one seat (see the module), kept by
    rejection when they fit the hints (:meth:`fits`)."""

    def __init__(self, view: PlayerView, hints: bool = True, max_draws: int = 2_000) -> None:
        table = Table.of(view.rules)
        if view.phase != BIDDING or table.players == 4 or table.mode not in FIRST_HAND:
            raise BeloteError(
                f"no small-table bidding worlds in phase {view.phase!r} at a table of "
                f"{table.players} ({table.mode})")
        self.table = table
        self.seat = view.seat
        self.hand = view.hand
        self.turned = view.turned
        self.dealer = view.dealer
        seen = view.hand | (0 if view.turned is None else 1 << view.turned)
        self.unseen = tuple(c for c in table.deck if not seen >> c & 1)
        self.dealt = FIRST_HAND[table.mode]
        self.others = tuple(s for s in range(table.players) if s != view.seat)
        self.mode = deal_of(view)
        self.need = SMALL_TAKE[self.mode]
        self.hints = call_hints(view) if hints else ()
        self.max_draws = max_draws

    def draw(self, rng: random.Random) -> SmallWorld:
        """One world drawn uniformly, hints ignored."""
        hands, rest = shuffled_hands(rng, self.unseen, self.table.players, self.seat,
                                     self.hand, self.others, self.dealt)
        return SmallWorld(tuple(hands), rest)

    def fits(self, world: SmallWorld) -> bool:
        """Whether every seat's passes fit its cards in ``world``."""
        return all(h.fits(world.hands[h.seat], self.turned, self.mode, self.need)
                   for h in self.hints)

    def possible(self, world: SmallWorld) -> bool:
        """Whether ``world`` agrees with everything the seat knows for certain: its own
        cards, the turned card out of every hand and the stock, each other seat dealt
        as many cards as the deal gives, every card of the pack placed once."""
        n = self.table.players
        if len(world.hands) != n or world.hands[self.seat] != self.hand:
            return False
        if len(world.stock) != len(self.unseen) - len(self.others) * self.dealt:
            return False
        if any(world.hands[s].bit_count() != self.dealt for s in self.others):
            return False
        placed = 0
        for h in world.hands:
            if placed & h:
                return False
            placed |= h
        for c in world.stock:
            if placed >> c & 1:
                return False
            placed |= 1 << c
        if self.turned is not None:
            if placed >> self.turned & 1:
                return False
            placed |= 1 << self.turned
        return placed == self.table.deck_mask


def small_options(view: PlayerView, calls: Sequence[str], band: int, most: int,
                  margin: float) -> list[Option]:
    """The calls worth a search (each a take by the seat, ``team`` being its seat): the
    ``most`` strongest trumps by :func:`~belote.bots.heuristic.small_strength` (the
    turned card counted as the heuristic counts it) within ``band`` of the deal's take
    (:data:`SMALL_TAKE`) either way; outside it the heuristic's call is clear."""
    mode = deal_of(view)
    need = SMALL_TAKE[mode]
    turned = view.turned
    held = (view.hand | 1 << turned if mode is ThreeDeal.CARDS_24 and turned is not None
            else view.hand)
    named: dict[str, TrumpMode] = {}
    for call in calls:
        if call == TAKE and turned is not None:
            named[call] = suit_of(turned)
        elif len(call) == 1 and call in SUIT_LETTERS:
            named[call] = SUIT_LETTERS.index(call)
    ranked = sorted(((small_strength(held, t), -t, call) for call, t in named.items()),
                    reverse=True)
    return [Option(call, view.seat, -neg, None, 1, margin)
            for strength, neg, call in ranked[:most] if abs(strength - need) <= band]


@dataclass(frozen=True, slots=True)
class SmallOutcome:
    """A world dealt for one taker and trump and solved: side 0's double-dummy points of
    the play (``ns``: the last trick's 10 included, a capot's 100), the card points in
    play (``cards``), those of the kitty's discards (``aside``, the taker's), the board's
    trick total (``in_play``, a deal that leaves cards out; None: the whole pack's), and
    the declarations and belote per side."""

    ns: int
    cards: int
    aside: int
    in_play: int | None
    declarations: tuple[int, int]
    belote: tuple[int, int]


@dataclass(frozen=True, slots=True)
class SmallDealt:
    """A world dealt for one taker and trump (:meth:`SmallBidSearch.dealt`): the card
    play's start, the kitty's discards' points (``aside``), the trick total in play
    and in all, the board's trick total (None: the whole pack's), and the
    declarations and belote per side."""

    state: PlayState
    aside: int
    play_total: int
    total: int
    in_play: int | None
    declarations: tuple[int, int]
    belote: tuple[int, int]


class SmallBidSearch:
    """The worlds of one call solved within a budget (see the module): each option's
    value for the seat in each world used (:meth:`values`)."""

    def __init__(self, view: PlayerView, *, worlds: int, nodes: int, min_worlds: int,
                 caution: int, hints: bool, rollout: bool, noise: int = 0,
                 seconds: float = 0.0, memo: BidMemo[SmallWorld, SmallOutcome] | None = None,
                 own_need: int | None = None, engine: SolverEngine | None = None,
                 own_offset: int = 0, own_leak: float = 0.0,
                 outlook: SeatOutlook | None = None) -> None:
        self.view = view
        self.rules = view.rules
        self.table = Table.of(view.rules)
        self.outlook = outlook if self.table.players == 3 else None
        self.sampler = SmallBidSampler(view, hints=hints)
        self.worlds, self.budget, self.min_worlds = worlds, nodes, min_worlds
        self.caution = caution
        self.own_offset = own_offset  # added to the caution of the seat's own takes
        self.own_leak = own_leak  # the defence's share taken off it for the seat's own takes
        self.errors = noise_errors(noise)
        self.rollout = rollout
        self.seconds = seconds
        self.engine = engine
        self.memo: BidMemo[SmallWorld, SmallOutcome] = BidMemo.of(memo, view)
        self.own_need = self.sampler.need if own_need is None else own_need
        self.leader = self.table.next(view.dealer)  # the eldest leads (§3.4, §12)
        self.used: list[int] = []
        self.nodes = 0
        self.skipped = 0
        self.relaxed = False
        self.made: dict[str, float] = {}  # per call searched, how often its contract is made
        self._values: dict[tuple[TrumpMode, int, SmallOutcome], tuple[float, float]] = {}

    # --- the pass: who takes after it ----------------------------------------------------

    def after_pass(self, world: SmallWorld) -> tuple[int, int] | None:
        """(trump, taker) of the contract reached when the seat passes now and every
        seat (the bot too, later) calls as the heuristic with its cards in ``world``;
        None for an all-pass."""
        view, sampler = self.view, self.sampler
        n = self.table.players
        rounds = 2 if view.turned is not None else 1
        index = len(view.calls) + 1
        seat = (view.seat + 1) % n
        while index < rounds * n:
            legal = _legal_then(view, index)
            need = self.own_need if seat == view.seat else sampler.need
            call = small_call(world.hands[seat], view.turned, legal, sampler.mode, need)
            if call == TAKE:
                assert view.turned is not None
                return (suit_of(view.turned), seat)
            if call != PASS:
                return (SUIT_LETTERS.index(call), seat)
            index += 1
            seat = (seat + 1) % n
        return None

    # --- one world, one contract ---------------------------------------------------------

    def dealt(self, world: SmallWorld, trump: TrumpMode, taker: int,
              laid: CardMask | None = None) -> SmallDealt:
        """``world`` dealt for ``taker`` in ``trump`` as the engine deals it
        (:meth:`SmallWorld.complete`), the kitty's two cards laid aside (``laid``, or the
        heuristic's choice), with what the scoring needs besides the trick points."""
        view = self.view
        hands = world.complete(self.table, view.dealer, view.turned, taker)
        return deal_for_play(self.rules, self.table, hands, trump, taker, self.leader, laid)

    @staticmethod
    def outcome(dealt: SmallDealt, ns: int) -> SmallOutcome:
        """The world ``dealt`` with side 0's double-dummy points ``ns`` of its play."""
        return SmallOutcome(ns, dealt.play_total - 10, dealt.aside, dealt.in_play,
                            dealt.declarations, dealt.belote)

    def solve(self, world: SmallWorld, trump: TrumpMode, taker: int,
              cap: int) -> tuple[SmallOutcome, int]:
        """``world`` dealt for ``taker`` in ``trump`` and its play's value solved
        (:func:`belote.solver.solve`), with the positions searched;
        :class:`~belote.solver.SearchLimitError` past ``cap``."""
        from belote.solver import solve  # loaded when a call is searched

        dealt = self.dealt(world, trump, taker)
        result = solve(dealt.state, moves=False, max_nodes=cap, engine=self.engine)
        return self.outcome(dealt, result.value), result.nodes

    def value(self, trump: TrumpMode, taker: int, out: SmallOutcome) -> tuple[float, float]:
        """The hand's score for the seat less the others' mean (three players: each
        defender half his side's score; two: the difference), and the chance that the
        takers make it: the takers' double-dummy points less ``caution`` (less
        ``caution + own_offset`` when the seat is the taker, and ``own_leak`` times the
        defence's double-dummy points less, :func:`defence_points`), give or take the ``noise``
        (:func:`~belote.bots.bid_search.trick_cases`, a capot counted as at four
        players), the kitty's discards in the taker's tricks (§12.1; a capot against him:
        the whole pack's 252 to the defence), scored by :func:`belote.scoring.score_hand`
        (§8, §12); with the ``outlook``, those per-seat scores weighed by the game
        (:meth:`~belote.bots.bid_search.SeatOutlook.value`): :func:`seat_value`."""
        key = (trump, taker, out)
        got = self._values.get(key)
        if got is not None:
            return got
        caution = self.caution
        if taker == self.view.seat:
            caution += self.own_offset
            if self.own_leak:
                side = self.table.sides(taker)[taker]
                caution -= round(self.own_leak * defence_points(out.ns, side, out.cards))
        got = self._values[key] = seat_value(self.view, self.table, trump, taker, out,
                                             caution, self.errors, self.outlook)
        return got

    # --- the worlds ----------------------------------------------------------------------

    def values(self, options: Sequence[Option],
               rng: random.Random) -> dict[str, list[float]] | None:
        """Each option's value in each world solved within the budget (the same worlds
        for all, :func:`~belote.bots.bid_search.solve_worlds`; a pass with ``rollout`` is
        the contract the others reach after it, 0 without); None when fewer than
        ``min_worlds`` worlds could be solved.  :attr:`made`: how often each take's
        contract is made."""
        memo = self.memo
        keys = sorted({(o.trump, o.team) for o in options if o.team is not None})

        def contracts(world: SmallWorld) -> list[tuple[int, int]]:
            after = self.after_pass(world) if self.rollout else None
            return keys if after is None or after in keys else [*keys, after]

        def solved(world: SmallWorld, key: tuple[int, int], cap: int
                   ) -> tuple[SmallOutcome, int]:
            return self.solve(world, key[0], key[1], cap)

        done = solve_worlds(memo, self.sampler, rng, contracts, solved, worlds=self.worlds,
                            nodes=self.budget, min_worlds=self.min_worlds,
                            seconds=self.seconds)
        self.used, self.nodes = done.used, done.nodes
        self.skipped, self.relaxed = done.skipped, done.relaxed
        if len(self.used) < self.min_worlds:
            return None
        values: dict[str, list[float]] = {}
        for o in options:
            row: list[float] = []
            made = 0.0
            for i in self.used:
                contract = ((o.trump, o.team) if o.team is not None
                            else self.after_pass(memo.draws[i]) if self.rollout else None)
                got = memo.solved[i].get(contract) if contract is not None else None
                if contract is None or got is None:
                    row.append(0.0)
                    continue
                v, m = self.value(contract[0], contract[1], got)
                row.append(v)
                made += m
            values[o.call] = row
            if o.team is not None:
                self.made[o.call] = made / len(self.used)
        return values


def deal_for_play(rules: Rules, table: Table, hands: list[CardMask], trump: TrumpMode,
                  taker: int, leader: int, laid: CardMask | None = None) -> SmallDealt:
    """A small table's deal (``hands``: every seat's cards once dealt for ``taker``, the
    kitty taker's twelve) ready to play in ``trump`` from ``leader``: with the kitty
    (§12.1) the two cards ``laid`` aside (None: the heuristic's,
    :func:`belote.bots.base.discard_of`) taken out of the taker's hand and their points
    kept (``aside``), with what the scoring needs besides the trick points.  ``hands``
    is changed (the taker's two cards taken out)."""
    pts = card_points(rules, trump)
    aside = 0
    if table.mode is DealMode.KITTY:
        for c in (discard_of(hands[taker], trump) if laid is None else scan_forward(laid)):
            hands[taker] &= ~(1 << c)
            aside += pts[c]
    play_total = sum(pts[c] for h in hands for c in scan_forward(h)) + 10
    sides = table.sides(taker)
    declarations = (0, 0)
    if rules.declarations:
        announced = [best_announcement(h, rules, trump) for h in hands]
        points = resolve(announced, rules, trump, leader, sides).points
        declarations = (points[0], points[1])
    state = PlayState(rules, trump, list(hands), leader, teams=sides, table=table)
    return SmallDealt(state, aside, play_total, play_total + aside,
                      play_total if table.mode.leaves_cards_out else None,
                      declarations, _belote(hands, trump, sides))


def defence_points(ns: int, side: int, cards: int) -> int:
    """The defence's double-dummy card points of a deal whose tricks hold ``cards``
    points, side 0's being ``ns`` (the last trick's 10 in, a capot's 100: so 0 when the
    takers take every trick, ``cards + 10`` when they take none), the takers being side
    ``side``."""
    return max(0, cards + 10 - takers_points(ns, side, cards))


def seat_value(view: PlayerView, table: Table, trump: TrumpMode, taker: int,
               out: SmallOutcome, caution: int, errors: Errors,
               outlook: SeatOutlook | None) -> tuple[float, float]:
    """The hand's score for ``view``'s seat less the others' mean (three players: each
    defender half his side's score; two: the difference), and the chance that the
    takers make it: the takers' double-dummy points less ``caution``, give or take the
    ``errors`` (:func:`~belote.bots.bid_search.trick_cases`, a capot counted as at four
    players), the kitty's discards in the taker's tricks (§12.1; a capot against him:
    the whole pack's 252 to the defence), scored by :func:`belote.scoring.score_hand`
    (§8, §12); with the ``outlook`` (three players), those per-seat scores weighed by
    the game (:meth:`~belote.bots.bid_search.SeatOutlook.value`)."""
    side = table.sides(taker)[taker]  # three: 0; two: the taker's seat
    value = made = 0.0
    for weight, trick_points, capot in trick_cases(out.ns, side, out.cards, caution, errors):
        tp = list(trick_points)
        tp[side if capot is None else capot] += out.aside
        (takers, defence), m = _score(view, table, trump, out, taker, (tp[0], tp[1]), capot)
        v: float
        if table.players == 2:
            v = takers - defence if taker == view.seat else defence - takers
        elif outlook is not None:
            seats = [defence / 2] * 3
            seats[taker] = takers
            v = outlook.value(seats)
        elif taker == view.seat:
            v = takers - defence / 2
        else:
            v = defence / 4 - takers / 2
        value += weight * v
        made += weight * m
    return value, made


def _score(view: PlayerView, table: Table, trump: TrumpMode, out: SmallOutcome, taker: int,
           trick_points: tuple[int, int], capot: int | None) -> tuple[tuple[int, int], bool]:
    """The hand's score per side (the taker's first) with these trick points per side
    (side 0 first; ``capot``: the side that took every trick), and whether the takers
    made it."""
    side = table.sides(taker)[taker]
    entry = HandEntry(taker=side, trick_points=trick_points,
                      declarations=out.declarations, belote=out.belote, trump=trump,
                      reserve=view.reserve, in_play=out.in_play, capot=capot)
    try:
        result = score_hand(view.rules, entry)
    except BeloteError:  # pragma: no cover - an entry the scoring refuses
        takers = trick_points[side]
        return (takers, trick_points[1 - side]), takers > trick_points[1 - side]
    s = result.score
    score = (s[side], s[1 - side]) if table.players == 2 else (s[0], s[1])
    return score, result.outcome is HandOutcome.MADE


def _belote(hands: Sequence[CardMask], trump: TrumpMode,
            sides: Sequence[int]) -> tuple[int, int]:
    """Belote per side when every holder of trump K+Q says it (§7.7; one per suit in TA)."""
    if trump == NO_TRUMP:
        return (0, 0)
    points = [0, 0]
    for suit in range(4) if trump == ALL_TRUMP else (trump,):
        both = 1 << card(suit, KING) | 1 << card(suit, QUEEN)
        for seat, h in enumerate(hands):
            if h & both == both:
                points[sides[seat]] += 20
    return (points[0], points[1])

