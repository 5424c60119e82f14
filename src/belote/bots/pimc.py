"""The PIMC bot: perfect-information Monte Carlo over deals consistent with the view
(docs/rules.md §3–§9, and §12 at the tables of three and two).

Card play, at every table.  For a card decision the bot samples *worlds*: deals
of the hidden cards that agree with everything its seat knows
(:mod:`belote.bots.knowledge`, drawn by :mod:`belote.bots.sampling`: its own
cards, the cards played, the turned card in the taker's hand, the declarations
shown at trick 2, belote said, the voids revealed by the play under the table's
options; at three and two players the cards face up or out of play and
découverte's face-down cards), solves each world double-dummy with
:func:`belote.solver.solve` (the build of the search the bot was made with,
:attr:`PimcBot.engine`), and plays the card with the best average for its side.
At three and two players (§12) the settings not given take
:data:`SMALL_TABLE_DEFAULTS` (16 worlds, 100,000 nodes, from 7 tricks left), the
hints of the calls are not read, and the bidding and the kitty discard are the
heuristic's.

The objective (setting ``objective``):

- ``score`` [default]: the hand's score difference for the bot's team (RULES.md
  §8: made, failed, litige, capot; §9 in an auction), from the trick points
  already won, the solver's value of the rest, the declarations compared at
  trick 2 (§7.5) and the belote said or held in the world (§7.7); with the
  team's card points as a small tie-break;
- ``points``: the card points of the remaining tricks (NS maximise the solver's
  value, EW minimise it).

Each card decision solves up to ``worlds`` worlds (default 64) and stops adding
worlds once the solver has searched ``nodes`` positions (default 6,000,000;
deterministic and machine-independent) with at least ``min_worlds`` solved
(default 2) or twice as many with fewer, or once ``seconds`` of wall time have
passed (default 0: no clock, since a clock makes the choice depend on the
machine's load).  The search starts at ``tricks`` tricks left (default 8: from
trick 1; a smaller value plays the earlier tricks by the heuristic).  When not
one world could be solved within the budget the card is the heuristic's.

The worlds of the card play fit the others' calls too (setting ``play_calls``:
``hints`` [default] or ``ignore``): a world is kept only when the hands it gives
the other seats, with the cards they have played, fit the hints of
:func:`belote.bots.bid_sampling.play_hints` (the taker of a take-or-pass deal
holds the heuristic's take; in an auction, a bid's strength, a coincher's trumps,
an opening pass's weakness); the worlds kept are uniform among those that fit.
When more than 50 worlds a world wanted have been rejected, the hints are
dropped for that decision (:attr:`PimcBot.last_relaxed`).

Presets (setting ``preset``): the settings not given in a spec take the
defaults of ``v3`` (the defaults above), ``v2`` (the same with
``play_calls=ignore``) or ``v1``, the defaults of before the compiled solver
(``worlds=24,nodes=200000,bid_worlds=16,bid_nodes=1000000,play_calls=ignore``):
``pimc:preset=v1`` plays as the bot did then.  ``auto`` [default] is ``v3`` where
the solver's C build runs and ``v1`` on the pure-Python search (some fifty times
slower), so that a decision stays within about a second either way.

Bidding (setting ``bidding``: ``sampling`` [default] or ``heuristic``, the
heuristic's calls, seed 000 §9).  The same idea over the deal as far as the
bidding goes (:mod:`belote.bots.bid_sampling`): a world places the other
seats' dealt cards and, in take-or-pass, the stock in dealing order, uniformly
among those consistent with the seat's own cards and the turned card.  Calls
are soft information (setting ``calls``): with ``hints`` [default] only the
worlds in which the other seats' cards fit a plausible reading of their calls
are kept, by rejection (:func:`belote.bots.bid_sampling.call_hints`: a bid
suggests strength in its suit, a round-1 pass the lack of the turned suit's
jack and nine together, a coinche two trumps); with ``ignore`` every consistent
world counts.  Each world is completed as the engine deals it for the taker
(§3.4), solved double-dummy from the eldest's lead (§4.9) under each trump
searched (value only), and scored with the real scoring
(:func:`belote.scoring.score_hand`: §8 made, failed, litige with the reserve,
capot; §9 with the contract's value and multiplier), every seat announcing its
best declarations (§7.4–§7.6) and saying its belote (§7.7).  Real play falls
short of double dummy for the takers (measured: 8 card points in classic, 17
in coinche, spread about 30): their points are taken as the solver's less
``bid_caution`` (default 10), give or take a normal error of ``bid_noise``
(default 25; three points of a Gauss–Hermite rule), a capot counting only when
they keep every point.  A call's value in a world is the hand's score
difference for the bot's team:

- take-or-pass (§3.2, §3.3): ``take`` (round 1), a suit (and SA / TA, §3.5) in
  round 2, with the bot as taker; ``pass`` (setting ``pass_model``): with
  ``rollout`` [default], the contract the others reach in that world when every
  seat calls as the heuristic after the pass (the bot too, in round 2), 0 for
  an all-pass; with ``zero``, 0;
- numeric auction (§4): every legal bid of a trump searched, its value ``C``
  (80 ... ``max_bid``; never capot nor générale) scored as that contract by the
  bot's team, undoubled; ``coinche`` as the opponents' contract doubled (§4.5,
  §4.7), ``surcoinche`` as ours redoubled; ``pass`` as the contract on the table
  as it stands (the partner's, or the opponents'), 0 when there is none.

A call other than pass must gain a margin over it: ``bid_margin`` (default 0
points) for a take or a bid, plus ``partner_margin`` (default 30) over our own
side's contract, ``coinche_margin`` (default 20) for a coinche or a surcoinche.
The choice (setting ``bid_prior``): with ``heuristic`` [default] the bot keeps
the heuristic's call unless another call beats it, margins counted, by more
than ``bid_z`` (default 1) standard errors of their difference over the same
worlds (its spread counted at least as large as the difference itself: a few
worlds that all agree prove little) -- a few worlds are noisy, and the
heuristic is a sound prior; with
``none`` it calls the best average (pass on a tie, then the lower bid).

Effort: a full-deal solve takes about 200,000 positions (median; some take
millions): about 0.2 s in pure Python, a few ms with the compiled solver.  Each
call solves at most ``bid_worlds`` worlds (default 40), every trump searched
in each, and stops adding worlds once ``bid_nodes`` positions (default
8,000,000) have been searched with at least ``bid_min_worlds`` (default 4)
worlds solved, never past twice the budget (nor after ``seconds``, when set); a
world one of whose solves alone passes ``bid_nodes`` is left out
(:attr:`PimcBot.last_bid_skipped`).  With fewer than ``bid_min_worlds`` worlds
the call is the heuristic's (:attr:`PimcBot.last_bid_fallback`).  Only the
``bid_trumps`` (default 1) strongest trumps by
:func:`~belote.bots.bid_sampling.trump_strength` are searched, none below
``bid_floor`` (default 40) counting the cards the bot sees (its five and the
turned card in take-or-pass; ``bid_floor`` + 15 with its eight cards in an
auction), plus the partner's contract trump (when the bot's strength in it
reaches half of that), the trump of the contract on the table, and the
heuristic's call; a coinche is weighed from a strength of 40 in the contract's
trump.  A call with nothing to search is a pass.  The worlds drawn and solved
are kept for the bot's later calls in the same deal.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from belote.auction import CAPOT, GENERALE, AuctionCall, parse_bid
from belote.bidding import Call
from belote.bots.base import BaseBot, BotSetting, legal_calls, legal_cards, played_by
from belote.bots.bid_sampling import BidSampler, BidWorld, Hint, play_hints, trump_strength
from belote.bots.heuristic import TAKE_THRESHOLD, HeuristicBot, best_round2_suit, bid_strength
from belote.bots.knowledge import InconsistentViewError, Knowledge, World, infer, relax
from belote.bots.sampling import DealSampler
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
from belote.declarations import CARRE, best_announcement, resolve
from belote.errors import BeloteError
from belote.hand import DECOUVERTE
from belote.play import PlayState, card_points
from belote.round import PlayerView
from belote.scoring import HandEntry, score_hand
from belote.table import DealMode, Table

__all__ = ["PRESETS", "SMALL_TABLE_DEFAULTS", "PimcBot", "world_state"]

HINT_DRAWS: Final = 50  # worlds rejected per world wanted before the hints are dropped
AUCTION_FLOOR_EXTRA: Final = 15  # eight cards seen in an auction, six in take-or-pass
COINCHE_FLOOR: Final = 40  # trump_strength in the opponents' trump worth a coinche search
# The defaults of the settings not given in a spec, by ``preset``: ``v2`` (the
# SETTINGS defaults, sized for the compiled solver) and ``v1`` (those of before it).
PRESETS: Final[Mapping[str, Mapping[str, Any]]] = {
    "v3": {},
    "v2": {"play_calls": "ignore"},
    "v1": {"worlds": 24, "nodes": 200_000, "bid_worlds": 16, "bid_nodes": 1_000_000,
           "play_calls": "ignore"},
}
# The card play at two and three players (§12): the defaults of the settings not given
# (measured there: the deals are shorter and the worlds more alike).
SMALL_TABLE_DEFAULTS: Final[Mapping[str, Any]] = {
    "worlds": 16, "tricks": 7, "nodes": 100_000, "min_worlds": 2, "objective": "score",
}
_NAMED: Final = {**{letter: i for i, letter in enumerate(SUIT_LETTERS)},
                 "SA": NO_TRUMP, "TA": ALL_TRUMP}


def world_state(view: PlayerView, world: World, table: Table | None = None) -> PlayState:
    """The position of ``view`` in ``world`` (every hand now), ready to solve: the
    cards of the current trick given back to their players and played again."""
    assert view.contract is not None
    table = table if table is not None else Table.of(view.rules)
    n = table.players
    full = list(world.hands)
    for i, c in enumerate(view.trick):
        full[(view.trick_leader + i) % n] |= 1 << c
    sides = table.sides(view.contract.taker)
    won = [0, 0]
    for t in view.tricks:
        won[sides[t.winner]] += 1
    state = PlayState(
        view.rules, view.contract.trump, full, view.trick_leader,
        tricks_left=table.tricks - len(view.tricks), tricks_won=(won[0], won[1]), teams=sides,
    )
    for c in view.trick:
        state.push(c)
    return state


@dataclass(frozen=True, slots=True)
class _Outcome:
    """A bidding world solved under one trump: NS's card points with perfect play from
    the first lead, and the declaration and belote points per team."""

    ns: int
    declarations: tuple[int, int]
    belote: tuple[int, int]


@dataclass(frozen=True, slots=True)
class _Option:
    """A call and the hand it leads to: ``team`` takes in ``trump`` (``contract``,
    ``multiplier``); ``team`` None is a pass with no contract on the table (worth 0)."""

    call: str
    team: int | None = None
    trump: TrumpMode = 0
    contract: int | str | None = None
    multiplier: int = 1
    margin: float = 0.0

    @property
    def level(self) -> int:
        if self.contract is None:
            return 0
        return 250 if self.contract == CAPOT else int(self.contract)


@dataclass(slots=True)
class _BidMemo:
    """The worlds drawn for one seat in one deal's bidding, and what was solved."""

    key: tuple[Any, ...]
    calls: tuple[Call | AuctionCall, ...]
    draws: list[BidWorld] = field(default_factory=list)
    # per world, (trump, taker) -> the solved outcome, or None: past one budget, skipped
    solved: list[dict[tuple[int, int], _Outcome | None]] = field(default_factory=list)


class _PassRollout:
    """Take-or-pass: who takes, in what trump, if the bot passes now, with every seat
    (the bot too, later) calling as the heuristic does (seed 000 §9) in the world."""

    def __init__(self, view: PlayerView) -> None:
        assert view.turned is not None
        self.view = view
        self.turned = view.turned
        self.names = {s for s in range(4) if s != suit_of(view.turned)}

    def after_pass(self, world: BidWorld) -> tuple[int, int] | None:
        """(trump, taker) of the contract the others reach, or None for an all-pass."""
        view, turned = self.view, self.turned
        calls = len(view.calls) + 1
        seat = (view.seat + 1) & 3
        while calls < 8:
            hand = world.hands[seat]
            if calls < 4:  # §3.2 round 1
                if bid_strength(hand | 1 << turned, suit_of(turned)) >= TAKE_THRESHOLD:
                    return (suit_of(turned), seat)
            else:  # §3.3 round 2
                suit, value = best_round2_suit(hand, turned)
                if suit in self.names and value >= TAKE_THRESHOLD:
                    return (suit, seat)
            calls += 1
            seat = (seat + 1) & 3
        return None


def _solved(outcome: _Outcome | None) -> _Outcome:
    assert outcome is not None
    return outcome


def _current_contract(view: PlayerView) -> tuple[AuctionCall, int] | None:
    """The highest bid of an auction so far (its call) and its multiplier (§4.5, §4.7)."""
    best: AuctionCall | None = None
    multiplier = 1
    for call in view.calls:
        if not isinstance(call, AuctionCall):
            continue
        if call.bid is not None:
            best, multiplier = call, 1
        elif call.call == "coinche":
            multiplier = 2
        elif call.call == "surcoinche":
            multiplier = 4
    return (best, multiplier) if best is not None else None


def _belote_points(hands: list[CardMask], trump: TrumpMode) -> tuple[int, int]:
    """Belote per team when every holder of trump K+Q says it (§7.7; one per suit in TA)."""
    if trump == NO_TRUMP:
        return (0, 0)
    points = [0, 0]
    for suit in range(4) if trump == ALL_TRUMP else (trump,):
        both = 1 << (suit * 8 + KING) | 1 << (suit * 8 + QUEEN)
        for seat in range(4):
            if hands[seat] & both == both:
                points[seat & 1] += 20
    return (points[0], points[1])


def _outcome(
    view: PlayerView, trump: TrumpMode, hands: list[CardMask], leader: int, ns: int
) -> _Outcome:
    """The solved world's facts: every seat announces its best combinations (§7.4,
    compared at trick 2, §7.5–§7.6) and says its belote (§7.7)."""
    rules = view.rules
    declarations = (0, 0)
    if rules.declarations:
        announced = [best_announcement(h, rules, trump) for h in hands]
        declarations = resolve(announced, rules, trump, leader).points
    return _Outcome(ns, declarations, _belote_points(hands, trump))


class _BidScorer:
    """The hand score difference for the bot's team of a call in a solved world.

    The takers' card points in play are taken as their double-dummy points less
    ``caution``, give or take a normal error of ``noise`` points (a three-point
    Gauss–Hermite rule: -√3σ, 0, +√3σ weighted 1/6, 2/3, 1/6); a capot counts
    only while the takers keep every point.
    """

    def __init__(self, view: PlayerView, caution: int, noise: int) -> None:
        self.rules = view.rules
        self.team = view.seat & 1
        self.reserve = view.reserve
        self.caution = caution
        spread = round(noise * 3 ** 0.5)
        self.errors = ((0, 1.0),) if spread == 0 else (
            (-spread, 1 / 6), (0, 2 / 3), (spread, 1 / 6))
        self._totals: dict[TrumpMode, int] = {}
        self._cache: dict[tuple[Any, ...], tuple[float, float]] = {}

    def value(self, o: _Option, out: _Outcome) -> tuple[float, float]:
        """The expected score difference, and the chance that the takers make it."""
        assert o.team is not None
        key = (o.team, o.trump, o.contract, o.multiplier, out)
        got = self._cache.get(key)
        if got is not None:
            return got
        total = self._totals.get(o.trump)
        if total is None:
            total = self._totals[o.trump] = sum(card_points(self.rules, o.trump))
        ns, capot_points = out.ns, total + 100
        if o.team == 0:
            takers_dd = ns
        elif ns in (0, capot_points):
            takers_dd = capot_points - ns
        else:
            takers_dd = total + 10 - ns
        value = made = 0.0
        for error, weight in self.errors:
            points = takers_dd - self.caution + error
            capot: int | None = None
            if points >= capot_points or (points <= 0 and takers_dd == 0):
                capot = o.team if points > 0 else o.team ^ 1
                takers = capot_points if points > 0 else 0
                defence = capot_points - takers
            else:
                takers = max(0, min(points, total + 10))
                defence = total + 10 - takers
            trick_points = (takers, defence) if o.team == 0 else (defence, takers)
            v, m = self._score(o, out, trick_points, capot)
            value += weight * v
            made += weight * m
        got = (value, made)
        self._cache[key] = got
        return got

    def _score(
        self, o: _Option, out: _Outcome, trick_points: tuple[int, int], capot: int | None
    ) -> tuple[float, bool]:
        assert o.team is not None
        entry = HandEntry(
            taker=o.team, trick_points=trick_points, capot=capot,
            declarations=out.declarations, belote=out.belote, trump=o.trump,
            contract=o.contract, multiplier=o.multiplier, reserve=self.reserve,
        )
        team = self.team
        try:
            result = score_hand(self.rules, entry)
        except BeloteError:
            diff = trick_points[team] - trick_points[team ^ 1]
            return float(diff), trick_points[o.team] > trick_points[o.team ^ 1]
        score = result.score
        return float(score[team] - score[team ^ 1]), result.outcome == "made"


def _declarations(view: PlayerView, sides: Sequence[int]) -> tuple[int, int]:
    """Declaration points per side: the comparison once trick 2 has started (§7.4);
    before, the seat's own combinations (all it holds, announced with its first card)
    against what the others announced (their kind and height only, §7.4), a tie going
    to nobody.  None in belote découverte (§12.2)."""
    if view.declaration_result is not None:
        return view.declaration_result.points
    assert view.contract is not None
    if not view.rules.declarations or view.contract.value == DECOUVERTE:
        return (0, 0)
    seat = view.seat
    mine = view.my_declarations
    if mine is None:
        start = view.hand | played_by(view)[seat]
        mine = tuple(best_announcement(start, view.rules, view.contract.trump))
    keyed: list[list[tuple[tuple[int, ...], int]]] = [[], []]
    for d in mine:
        keyed[sides[seat]].append(((d.points, d.kind == CARRE, d.rank), d.points))
    for other, said in enumerate(view.announced):
        if other == seat or said is None:
            continue
        for a in said:
            keyed[sides[other]].append(((a.points, a.kind == CARRE, a.rank), a.points))
    best = [max((k for k, _ in side), default=None) for side in keyed]
    if best[0] is None and best[1] is None:
        return (0, 0)
    if best[1] is None or (best[0] is not None and best[0] > best[1]):
        winner = 0
    elif best[0] is None or best[1] > best[0]:
        winner = 1
    else:
        return (0, 0)
    points = [0, 0]
    points[winner] = sum(p for _, p in keyed[winner])
    return (points[0], points[1])


class _Scorer:
    """The hand's score difference for the seat's side in a world, from side 0's value
    of the remaining tricks (§8, §9 with the contract's value and multiplier, and
    §12's trick totals: the kitty discards in the taker's tricks, the points in play
    of a deal that leaves cards out, découverte's plain trick points)."""

    def __init__(self, view: PlayerView, table: Table | None = None) -> None:
        assert view.contract is not None
        self.view = view
        self.rules = view.rules
        self.contract = view.contract
        self.table = table = table if table is not None else Table.of(view.rules)
        self.sides = table.sides(view.contract.taker)
        self.side = self.sides[view.seat]
        self.trump = view.contract.trump
        self.points = pts = card_points(view.rules, self.trump)
        self.card_total = sum(pts[c] for c in table.deck)
        self.past = [0, 0]
        self.past_tricks = [0, 0]
        for t in view.tricks:
            self.past[self.sides[t.winner]] += t.points
            self.past_tricks[self.sides[t.winner]] += 1
        self.by_seat = played_by(view)
        self.played = 0
        for m in self.by_seat:
            self.played |= m
        self.declarations = _declarations(view, self.sides)
        self._cache: dict[tuple[int, tuple[int, int], int | None, int], float] = {}

    def belote(self, world: World) -> tuple[int, int]:
        """Belote points per side in this world: said already, or trump K+Q held
        (découverte: among the face-up cards and those beneath them)."""
        if self.trump == NO_TRUMP:
            return (0, 0)
        n = self.table.players
        said = {(s, suit_of(c)) for s, c in self.view.belote_cards}
        points = [0, 0]
        suits = range(4) if self.trump == ALL_TRUMP else (self.trump,)
        under = [0] * n
        for c, u in world.beneath.items():
            for s in range(n):
                if world.covering and world.covering[s] >> c & 1:
                    under[s] |= 1 << u
        for suit in suits:
            k, q = card(suit, KING), card(suit, QUEEN)
            for seat in range(n):
                start = world.hands[seat] | self.by_seat[seat] | under[seat]
                if start >> k & 1 and start >> q & 1 and (
                    (seat, suit) in said or not self.by_seat[seat] & (1 << k | 1 << q)
                ):
                    points[self.sides[seat]] += 20
        return (points[0], points[1])

    def in_play(self, world: World) -> tuple[int | None, int]:
        """The card points of the deal's cards in play in ``world`` (None: the whole
        pack, as at four players), and those of the kitty discards (§12.1)."""
        if self.table.players == 4:
            return None, 0
        pts = self.points
        cards = self.played
        for h in world.hands:
            cards |= h
        for u in world.beneath.values():
            cards |= 1 << u
        aside = 0
        if self.table.mode is DealMode.KITTY:
            laid = self.view.discards if self.view.discards else world.out
            aside = sum(pts[c] for c in scan_forward(laid))
        return sum(pts[c] for c in scan_forward(cards)), aside

    def utility(self, value: int, belote: tuple[int, int], cards: int | None = None,
                aside: int = 0) -> float:
        """The seat's side's score minus the other side's, for side 0's ``value`` of the
        remaining tricks, the belote per side and the world's :meth:`in_play` (with
        the side's own trick points / 1000 as a tie-break)."""
        key = (value, belote, cards, aside)
        got = self._cache.get(key)
        if got is not None:
            return got
        total = self.card_total if cards is None else cards
        final0 = self.past[0] + value
        capot: int | None = None
        if self.past_tricks[1] == 0 and final0 > total + 10:
            capot, tp = 0, [final0, 0]
        elif self.past_tricks[0] == 0 and final0 == 0:
            capot, tp = 1, [0, total + 100]
        else:
            tp = [final0, total + 10 - final0]
        me, other = self.side, 1 - self.side
        mode = self.table.mode
        if mode is DealMode.DECOUVERTE:
            got = float(tp[me] + belote[me] - tp[other] - belote[other])
            self._cache[key] = got
            return got
        if mode is DealMode.KITTY:
            if capot == 1:
                tp = [0, 252]
            else:
                tp[0] += aside  # §12.1: the discards count in the taker's tricks
        entry = HandEntry(
            taker=self.contract.team, trick_points=(tp[0], tp[1]), capot=capot,
            declarations=self.declarations, belote=belote, trump=self.trump,
            contract=self.contract.value, multiplier=self.contract.multiplier,
            reserve=self.view.reserve, in_play=total + 10 if mode.leaves_cards_out else None,
        )
        own = tp[me]
        try:
            score = score_hand(self.rules, entry).score
            got = score[me] - score[other] + own / 1000
        except BeloteError:
            got = float(own)
        self._cache[key] = got
        return got


class PimcBot(BaseBot):
    """Perfect-information Monte Carlo card play and bidding over exact samples."""

    kind = "pimc"
    SETTINGS: ClassVar[Mapping[str, BotSetting]] = {
        "preset": BotSetting(str, "auto", "the defaults of the settings not given: auto "
                             "[default: v3 with the compiled solver, else v1], v3, v2 (the "
                             "calls ignored in the card play) or v1 (the budgets of before "
                             "the compiled solver too)", choices=("auto", *PRESETS)),
        "worlds": BotSetting(int, 64, "worlds solved per card at most", 1),
        "tricks": BotSetting(int, 8, "search from this many tricks left (earlier: heuristic)", 1),
        "nodes": BotSetting(int, 6_000_000, "stop adding worlds past this many solver nodes", 1),
        "min_worlds": BotSetting(int, 2, "worlds solved unless past twice the node budget", 1),
        "seconds": BotSetting(float, 0.0, "stop adding worlds after this time (0: no clock)", 0),
        "objective": BotSetting(str, "score", "score or points", choices=("score", "points")),
        "bidding": BotSetting(str, "sampling", "sampling or heuristic",
                              choices=("sampling", "heuristic")),
        "calls": BotSetting(str, "hints", "read the others' calls as hints, or ignore them",
                            choices=("hints", "ignore")),
        "play_calls": BotSetting(str, "hints", "card play: keep the worlds that fit the "
                                 "others' calls (hints), or ignore the calls",
                                 choices=("hints", "ignore")),
        "bid_worlds": BotSetting(int, 40, "worlds solved per call at most", 1),
        "bid_nodes": BotSetting(int, 8_000_000, "stop adding bidding worlds past this many "
                                "solver nodes", 1),
        "bid_min_worlds": BotSetting(int, 4, "fewer worlds solved: the heuristic's call", 1),
        "bid_margin": BotSetting(float, 0.0, "points a take or a bid must gain over a pass"),
        "partner_margin": BotSetting(float, 30.0, "more points to bid over our own contract"),
        "coinche_margin": BotSetting(float, 20.0, "points a coinche or a surcoinche must gain"),
        "pass_model": BotSetting(str, "rollout", "take-or-pass: the others call as the "
                                 "heuristic after a pass (rollout), or a pass is 0 (zero)",
                                 choices=("rollout", "zero")),
        "bid_prior": BotSetting(str, "heuristic", "the call kept unless the worlds show a "
                                "better one (heuristic), or none: the best average",
                                choices=("heuristic", "none")),
        "bid_z": BotSetting(float, 1.0, "standard errors a call must beat the prior by", 0),
        "bid_trumps": BotSetting(int, 1, "own trumps searched per call at most", 1),
        "bid_floor": BotSetting(int, 40, "trump_strength below which a trump is not searched"),
        "bid_caution": BotSetting(int, 10, "card points the takers are expected to lose "
                                  "against double dummy", 0),
        "bid_noise": BotSetting(int, 25, "spread of the takers' points around that", 0),
    }

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        super().__init__(seed, **settings)
        preset = self.settings["preset"]
        from belote.solver import solver_engine  # loaded with the bot, not at import

        # The build of the search this bot runs: BELOTE_SOLVER's when the bot is made.
        self.engine = solver_engine()
        if preset == "auto":
            preset = "v3" if self.engine.compiled else "v1"
        for key, value in PRESETS[preset].items():
            if key not in self.given:
                self.settings[key] = value
        self.heuristic = HeuristicBot(seed)
        self.small_settings: dict[str, Any] = {
            **self.settings,
            **{k: v for k, v in SMALL_TABLE_DEFAULTS.items() if k not in self.given},
        }
        self.last_worlds = 0  # worlds solved for the last card decision
        self.last_nodes = 0
        self.last_values: dict[Card, float] = {}
        self.last_rejected = 0  # worlds drawn for the last card and rejected by the hints
        self.last_relaxed = False  # the hints were dropped for the last card: hardly any fit
        self.last_bid_worlds = 0  # worlds behind the last call (0: no search)
        self.last_bid_nodes = 0  # solver nodes searched for the last call
        self.last_bid_values: dict[str, float] = {}  # average value of each call weighed
        self.last_bid_made: dict[str, float] = {}  # how often its contract was made
        self.last_bid_fallback = False  # the last call is the heuristic's: too few worlds
        self.last_bid_relaxed = False  # the hints were dropped: no world fitted them
        self.last_bid_skipped = 0  # worlds left out: one solve passed the whole budget
        self._memo: _BidMemo | None = None

    # --- bidding --------------------------------------------------------------

    def call(self, view: PlayerView) -> str:
        calls = legal_calls(view)
        self.last_bid_worlds = self.last_bid_nodes = 0
        self.last_bid_values, self.last_bid_made = {}, {}
        self.last_bid_fallback = self.last_bid_relaxed = False
        self.last_bid_skipped = 0
        current = _current_contract(view)
        if (self.settings["bidding"] == "heuristic" or len(calls) <= 1
                or view.rules.players != 4
                or (current is not None and current[0].call.startswith(GENERALE))):
            return self.heuristic.call(view)  # (a générale is not searched, §4.8)
        prior = self.heuristic.call(view) if self.settings["bid_prior"] == "heuristic" else None
        options, stay = self._bid_options(view, calls, prior)
        if not options:
            return stay.call
        every = [stay, *options]
        worlds = self._bid_values(view, every)
        if worlds is None:
            self.last_bid_fallback = True
            return self.heuristic.call(view)
        n = len(worlds[stay.call])
        values = {call: sum(v) / n for call, v in worlds.items()}
        self.last_bid_values = values
        if prior is None:
            def rank(o: _Option) -> tuple[float, bool, int]:
                return (values[o.call] - o.margin, o is stay, -o.level)

            return max(every, key=rank).call
        # The heuristic's call unless a call beats it by z standard errors (paired worlds).
        base = next(o for o in every if o.call == prior)
        z = self.settings["bid_z"]
        best, best_bound = prior, 0.0
        for o in every:
            if o is base:
                continue
            diffs = [a - b for a, b in zip(worlds[o.call], worlds[prior], strict=True)]
            gain = sum(diffs) / n
            spread = (sum((d - gain) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
            # (worlds that all agree prove little: the spread counts at least the gain)
            bound = gain - (o.margin - base.margin) - z * max(spread, abs(gain)) / n ** 0.5
            if bound > best_bound:
                best, best_bound = o.call, bound
        return best

    def _bid_options(
        self, view: PlayerView, calls: list[str], prior: str | None = None
    ) -> tuple[list[_Option], _Option]:
        """The calls worth a search (with ``prior``, the heuristic's call, among them
        unless a pass), and the pass (see the module docstring)."""
        options, stay = self._searched_options(view, calls)
        if prior is not None and prior != stay.call and all(o.call != prior for o in options):
            options.append(self._option_of(view, prior, stay))
        return options, stay

    def _option_of(self, view: PlayerView, call: str, stay: _Option) -> _Option:
        """The option of one legal call other than pass."""
        team, margin = view.seat & 1, self.settings["bid_margin"]
        if call in ("coinche", "surcoinche"):
            return dataclasses.replace(stay, call=call, multiplier=2 if call == "coinche" else 4,
                                       margin=self.settings["coinche_margin"])
        if view.turned is not None and not view.rules.is_auction:
            trump = suit_of(view.turned) if call == "take" else _NAMED[call]
            return _Option(call, team, trump, None, 1, margin)
        bid = parse_bid(call)
        assert bid is not None
        if stay.team == team:
            margin += self.settings["partner_margin"]
        return _Option(call, team, bid.trump, bid.value, 1, margin)

    def _searched_options(
        self, view: PlayerView, calls: list[str]
    ) -> tuple[list[_Option], _Option]:
        """The calls of the strongest trumps (``bid_trumps``, ``bid_floor``), the partner's
        trump, coinche and surcoinche, and the pass: 0, or the contract on the table."""
        team = view.seat & 1
        floor = self.settings["bid_floor"]
        margin = self.settings["bid_margin"]
        options: list[_Option] = []
        if view.turned is not None and not view.rules.is_auction:
            seen = view.hand | 1 << view.turned
            named = {call: suit_of(view.turned) if call == "take" else _NAMED.get(call)
                     for call in calls}
            trumps = self._strongest({t for t in named.values() if t is not None}, seen, floor)
            options += [_Option(call, team, t, None, 1, margin)
                        for call, t in named.items() if t is not None and t in trumps]
            return options, _Option("pass")
        current = _current_contract(view)
        stay = _Option("pass")
        raise_trump = -1
        if current is not None:
            best, multiplier = current
            assert best.bid is not None
            ours = best.seat & 1 == team
            stay = _Option("pass", best.seat & 1, best.bid.trump, best.bid.value, multiplier)
            if ours:
                raise_trump = best.bid.trump
                margin += self.settings["partner_margin"]
            doubled = dataclasses.replace(stay, margin=self.settings["coinche_margin"])
            if "coinche" in calls and trump_strength(view.hand, best.bid.trump) >= COINCHE_FLOOR:
                options.append(dataclasses.replace(doubled, call="coinche", multiplier=2))
            if "surcoinche" in calls:
                options.append(dataclasses.replace(doubled, call="surcoinche", multiplier=4))
        parsed = [(call, parse_bid(call)) for call in calls]
        bids = [(call, bid) for call, bid in parsed
                if bid is not None and bid.value not in (CAPOT, GENERALE)]
        floor += AUCTION_FLOOR_EXTRA
        trumps = self._strongest({bid.trump for _, bid in bids}, view.hand, floor)
        if raise_trump >= 0 and 2 * trump_strength(view.hand, raise_trump) >= floor:
            trumps.add(raise_trump)
        options += [_Option(call, team, bid.trump, bid.value, 1, margin)
                    for call, bid in bids if bid.trump in trumps]
        return options, stay

    def _strongest(self, trumps: set[TrumpMode], hand: CardMask, floor: int) -> set[TrumpMode]:
        """The ``bid_trumps`` strongest of ``trumps`` by trump_strength, none below ``floor``."""
        ranked = sorted(((trump_strength(hand, t), -t) for t in trumps), reverse=True)
        return {-t for strength, t in ranked[:self.settings["bid_trumps"]] if strength >= floor}

    def _memo_for(self, view: PlayerView) -> _BidMemo:
        """The worlds of this deal so far: kept while the seat, its cards and the table
        are the same and the calls go on from those of the last decision."""
        key = (view.seat, view.dealer, view.hand, view.turned, view.rules)
        memo = self._memo
        if memo is None or memo.key != key or view.calls[:len(memo.calls)] != memo.calls:
            memo = _BidMemo(key, view.calls)
        memo.calls = view.calls
        self._memo = memo
        return memo

    def _bid_values(
        self, view: PlayerView, options: list[_Option]
    ) -> dict[str, list[float]] | None:
        """Each option's score difference for the bot's team in each world solved within
        the budget (the same worlds for all); None when fewer than ``bid_min_worlds``."""
        from belote.solver import SearchLimitError, solve  # loaded when a call is searched

        settings = self.settings
        sampler = BidSampler.from_view(view, hints=settings["calls"] == "hints")
        memo = self._memo_for(view)
        auction = view.turned is None or view.rules.is_auction
        leader = (view.dealer + 1) & 3  # §3.4 / §4.9: the eldest leads
        keys = sorted({(o.trump, -1 if auction else view.seat)
                       for o in options if o.team is not None})
        rollout = None
        if not auction and settings["pass_model"] == "rollout":
            rollout = _PassRollout(view).after_pass
        budget = settings["bid_nodes"]
        start = time.perf_counter()
        nodes = 0
        used: list[int] = []
        index = 0
        drawn = 0
        filtered = bool(sampler.hints)
        while len(used) < settings["bid_worlds"]:
            if nodes >= 2 * budget or (len(used) >= settings["bid_min_worlds"] and (
                nodes >= budget
                or (settings["seconds"] > 0 and time.perf_counter() - start >= settings["seconds"])
            )):
                break
            if index == len(memo.draws):
                if drawn >= sampler.max_draws:
                    if filtered and len(used) < settings["bid_min_worlds"]:
                        filtered = False  # no world fits the hints: drop them
                        self.last_bid_relaxed = True
                        index, used = 0, []
                        continue
                    break
                memo.draws.append(sampler.draw(self.rng))
                memo.solved.append({})
                drawn += 1
            world = memo.draws[index]
            solved = memo.solved[index]
            index += 1
            if filtered and not sampler.fits(world):
                continue
            complete = True
            after = rollout(world) if rollout is not None else None
            for key in keys if after is None or after in keys else [*keys, after]:
                if key in solved:
                    complete = solved[key] is not None
                    if not complete:
                        break
                    continue
                trump, taker = key
                hands = world.complete(view.dealer, view.turned, taker if taker >= 0 else 0)
                cap = min(budget, 2 * budget - nodes)
                try:
                    result = solve(PlayState(view.rules, trump, hands, leader), moves=False,
                                   max_nodes=cap, engine=self.engine)
                except SearchLimitError as stop:
                    nodes += stop.nodes
                    complete = False
                    if cap == budget:
                        solved[key] = None  # a world too hard for one budget: skipped
                        self.last_bid_skipped += 1
                    break
                nodes += result.nodes
                solved[key] = _outcome(view, trump, hands, leader, result.value)
            if complete:
                used.append(index - 1)
        self.last_bid_worlds, self.last_bid_nodes = len(used), nodes
        if len(used) < settings["bid_min_worlds"]:
            return None
        scorer = _BidScorer(view, settings["bid_caution"], settings["bid_noise"])
        values: dict[str, list[float]] = {}
        self.last_bid_made = {}
        for o in options:
            if o.team is None and rollout is not None:
                row = []
                for i in used:
                    after = rollout(memo.draws[i])
                    if after is None:
                        row.append(0.0)
                        continue
                    contract = _Option(o.call, after[1] & 1, after[0])
                    row.append(scorer.value(contract, _solved(memo.solved[i][after]))[0])
                values[o.call] = row
                continue
            if o.team is None:
                values[o.call] = [0.0] * len(used)
                continue
            key = (o.trump, -1 if auction else view.seat)
            scored = [scorer.value(o, _solved(memo.solved[i][key])) for i in used]
            values[o.call] = [v for v, _ in scored]
            self.last_bid_made[o.call] = sum(made for _, made in scored) / len(used)
        return values

    # --- card play ------------------------------------------------------------

    def discard(self, view: PlayerView) -> list[Card]:
        return self.heuristic.discard(view)  # §12.1 kitty

    def play(self, view: PlayerView) -> int:
        legal = legal_cards(view)
        self.last_worlds = self.last_nodes = self.last_rejected = 0
        self.last_relaxed = False
        self.last_values = {}
        if len(legal) == 1:
            return legal[0]
        table = Table.of(view.rules)
        if table.tricks - len(view.tricks) > self.card_settings(table)["tricks"]:
            return self.heuristic.play(view)
        values = self.evaluate(view)
        if not values:
            return self.heuristic.play(view)
        return max(legal, key=lambda c: (values.get(c, float("-inf")), -c))

    def card_settings(self, table: Table) -> Mapping[str, Any]:
        """The settings of the card play at ``table``: at two and three players (§12)
        the settings not given take :data:`SMALL_TABLE_DEFAULTS`."""
        return self.settings if table.players == 4 else self.small_settings

    def sampler(self, view: PlayerView) -> DealSampler | None:
        """The exact sampler of the worlds the view allows (voids dropped if none fits)."""
        knowledge: Knowledge
        try:
            knowledge = infer(view)
        except InconsistentViewError:  # pragma: no cover - a view contradicting itself
            try:
                knowledge = infer(view, voids=False)
            except InconsistentViewError:
                return None
        sampler = DealSampler(knowledge)
        if sampler.count() == 0:
            sampler = DealSampler(relax(knowledge))
            if sampler.count() == 0:
                return None
        return sampler

    def evaluate(self, view: PlayerView) -> dict[Card, float]:
        """The average value of each legal card over the sampled worlds (higher is better)."""
        from belote.solver import SearchLimitError, solve  # loaded when a card is searched

        sampler = self.sampler(view)
        if sampler is None:
            return {}
        assert view.contract is not None
        table = Table.of(view.rules)
        settings = self.card_settings(table)
        scorer = _Scorer(view, table) if settings["objective"] == "score" else None
        sign = 1 if table.sides(view.contract.taker)[view.seat] == 0 else -1
        hints: tuple[Hint, ...] = ()
        if table.players == 4 and settings["play_calls"] == "hints":
            hints = play_hints(view)
        before = played_by(view)
        misses = 0  # worlds drawn that did not fit the hints (rejected)
        totals: dict[Card, float] = {}
        start = time.perf_counter()
        nodes = 0
        worlds = 0
        while worlds < settings["worlds"]:
            if nodes >= 2 * settings["nodes"] or (worlds >= settings["min_worlds"] and (
                nodes >= settings["nodes"]
                or (settings["seconds"] > 0 and time.perf_counter() - start >= settings["seconds"])
            )):
                break
            world = sampler.sample(self.rng)
            while hints and not all(h.fits(world.hands[h.seat] | before[h.seat]) for h in hints):
                misses += 1
                if misses > HINT_DRAWS * settings["worlds"]:
                    hints = ()  # hardly a world fits the calls: drop them
                    self.last_relaxed = True
                    break
                world = sampler.sample(self.rng)
            try:
                # No decision searches more than twice the ``nodes`` setting.
                result = solve(world_state(view, world, table),
                               max_nodes=2 * settings["nodes"] - nodes, engine=self.engine,
                               beneath=world.beneath)
            except SearchLimitError:
                break
            nodes += result.nodes
            worlds += 1
            if scorer is not None:
                belote = scorer.belote(world)
                cards, aside = scorer.in_play(world)
                for c, v in result.moves.items():
                    totals[c] = totals.get(c, 0.0) + scorer.utility(v, belote, cards, aside)
            else:
                for c, v in result.moves.items():
                    totals[c] = totals.get(c, 0.0) + sign * v
        self.last_worlds, self.last_nodes, self.last_rejected = worlds, nodes, misses
        self.last_values = {c: v / worlds for c, v in totals.items()} if worlds else {}
        return self.last_values
