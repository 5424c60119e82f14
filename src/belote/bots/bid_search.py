"""The bidding search of the PIMC bot: what one call leads to in a sampled world
(docs/rules.md §3, §4, §7.4–§7.7, §8, §9).

:class:`Option` is a call and the hand it leads to (who takes, in what trump, for
what contract and multiplier); :func:`world_outcome` the facts of a world solved
under one trump (the takers' double-dummy points, the declarations every seat
announces, the belote said); :class:`BidScorer` the hand's score difference for
the bot's team of an option in a world (the takers' points less a caution, give or
take a normal error); :class:`PassRollout` the contract the others reach, in
take-or-pass, when the bot passes and every seat calls as the heuristic does;
:class:`BidMemo` the worlds drawn for one seat in one deal; :func:`solve_worlds` the
worlds solved within a budget (the one loop of the bidding search at every table,
:mod:`belote.bots.small_bid` at two and three players); :func:`trick_cases` the
takers' points a solved world stands for (caution, noise, capot), at every table;
:class:`GameOutlook` a hand's scores weighed by the game so far (§11), for a bot that
knows the game score.  The search itself, which calls to weigh and over how many
worlds, is :class:`belote.bots.pimc.PimcBot`'s.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Protocol, TypeVar

from belote.auction import CAPOT, AuctionCall
from belote.bots.bid_sampling import BidWorld
from belote.bots.heuristic import TAKE_THRESHOLD, best_round2_suit, bid_strength, game_needs
from belote.cards import ALL_TRUMP, KING, NO_TRUMP, QUEEN, CardMask, TrumpMode, card, suit_of
from belote.declarations import best_announcement, resolve
from belote.errors import BeloteError
from belote.options import ThreeDeal
from belote.play import card_points
from belote.round import PlayerView
from belote.scoring import HandEntry, reached, score_hand
from belote.scoring import Outcome as HandOutcome

__all__ = [
    "BidMemo",
    "BidScorer",
    "GameOutlook",
    "Option",
    "Outcome",
    "PassRollout",
    "SeatOutlook",
    "WorldSource",
    "WorldsSolved",
    "belote_points",
    "current_contract",
    "noise_errors",
    "solve_worlds",
    "solved_outcome",
    "takers_points",
    "trick_cases",
    "world_outcome",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A bidding world solved under one trump: NS's card points with perfect play from
    the first lead, and the declaration and belote points per team."""

    ns: int
    declarations: tuple[int, int]
    belote: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Option:
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


W = TypeVar("W")  # a world of the bidding (BidWorld, SmallWorld)
S = TypeVar("S")  # a world solved for one contract (Outcome, SmallOutcome)
Contract = tuple[int, int]  # (trump, taker): a taker seat, or -1 for a team's bid


@dataclass(slots=True)
class BidMemo(Generic[W, S]):
    """The worlds drawn for one seat in one deal's bidding, and what was solved."""

    key: tuple[Any, ...]
    calls: tuple[Any, ...]
    draws: list[W] = field(default_factory=list)
    # per world, (trump, taker) -> the solved outcome, or None: past one budget, skipped
    solved: list[dict[Contract, S | None]] = field(default_factory=list)

    @staticmethod
    def of(memo: BidMemo[W, S] | None, view: PlayerView) -> BidMemo[W, S]:
        """``memo`` while the seat, its cards and the table are the same and the calls go
        on from those of its last decision (brought up to the view's calls); else a new
        one."""
        key = (view.seat, view.dealer, view.hand, view.turned, view.rules)
        if memo is None or memo.key != key or view.calls[:len(memo.calls)] != memo.calls:
            memo = BidMemo(key, view.calls)
        memo.calls = view.calls
        return memo


class WorldSource(Protocol[W]):
    """Where a bidding search draws its worlds (:class:`~belote.bots.bid_sampling.BidSampler`,
    :class:`~belote.bots.small_bid.SmallBidSampler`)."""

    @property
    def hints(self) -> Sequence[object]: ...

    @property
    def max_draws(self) -> int: ...

    def draw(self, rng: random.Random) -> W: ...

    def fits(self, world: W) -> bool: ...


@dataclass(slots=True)
class WorldsSolved:
    """What :func:`solve_worlds` did: the memo's worlds solved for every contract
    asked (by index, in order), the positions searched, the worlds left out because
    one solve passed the whole budget, and whether the hints were dropped."""

    used: list[int]
    nodes: int
    skipped: int
    relaxed: bool


def solve_worlds(memo: BidMemo[W, S], sampler: WorldSource[W], rng: random.Random,
                 contracts: Callable[[W], Sequence[Contract]],
                 solve: Callable[[W, Contract, int], tuple[S, int]], *, worlds: int,
                 nodes: int, min_worlds: int, seconds: float) -> WorldsSolved:
    """The bidding search's worlds solved within a budget, at every table.

    The memo's worlds are gone through first, then new ones drawn (at most
    ``sampler.max_draws`` in this call); a world that does not fit the hints is passed
    over, and when fewer than ``min_worlds`` fit within the draws the hints are dropped
    and the worlds gone through again.  Each world kept is solved for each of its
    ``contracts`` (a contract solved before is not solved again) by ``solve(world,
    contract, cap)``, which answers the outcome and its positions, or raises
    :class:`~belote.solver.SearchLimitError` past ``cap``.  Worlds stop being added at
    ``worlds``, or once ``nodes`` positions were searched with ``min_worlds`` worlds
    solved (or ``seconds`` of wall time passed, when set), and never past twice
    ``nodes``; a solve that alone passes ``nodes`` leaves its world out for good.
    """
    from belote.solver import SearchLimitError  # loaded when a call is searched

    budget = nodes
    searched = skipped = 0
    relaxed = False
    start = time.perf_counter()
    used: list[int] = []
    index = drawn = 0
    filtered = bool(sampler.hints)
    while len(used) < worlds:
        if searched >= 2 * budget or (len(used) >= min_worlds and (
            searched >= budget
            or (seconds > 0 and time.perf_counter() - start >= seconds)
        )):
            break
        if index == len(memo.draws):
            if drawn >= sampler.max_draws:
                if filtered and len(used) < min_worlds:
                    filtered = False  # no world fits the hints: drop them
                    relaxed = True
                    index, used = 0, []
                    continue
                break
            memo.draws.append(sampler.draw(rng))
            memo.solved.append({})
            drawn += 1
        world = memo.draws[index]
        solved = memo.solved[index]
        index += 1
        if filtered and not sampler.fits(world):
            continue
        complete = True
        for key in contracts(world):
            if key in solved:
                complete = solved[key] is not None
                if not complete:
                    break
                continue
            cap = min(budget, 2 * budget - searched)
            try:
                outcome, n = solve(world, key, cap)
            except SearchLimitError as stop:
                searched += stop.nodes
                complete = False
                if cap == budget:
                    solved[key] = None  # a world too hard for one budget: skipped
                    skipped += 1
                break
            searched += n
            solved[key] = outcome
        if complete:
            used.append(index - 1)
    return WorldsSolved(used, searched, skipped, relaxed)


class PassRollout:
    """Take-or-pass: who takes, in what trump, if the bot passes now, with every seat
    (the bot too, later) calling as the heuristic does (seed 000 §9) in the world,
    with ``loose`` (a hand without two master trumps taken from that strength)."""

    def __init__(self, view: PlayerView, loose: int = 0) -> None:
        assert view.turned is not None
        self.view = view
        self.loose = loose
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
                if bid_strength(hand | 1 << turned, suit_of(turned), self.loose) >= TAKE_THRESHOLD:
                    return (suit_of(turned), seat)
            else:  # §3.3 round 2
                suit, value = best_round2_suit(hand, turned, self.loose)
                if suit in self.names and value >= TAKE_THRESHOLD:
                    return (suit, seat)
            calls += 1
            seat = (seat + 1) & 3
        return None


def solved_outcome(outcome: Outcome | None) -> Outcome:
    assert outcome is not None
    return outcome


def current_contract(view: PlayerView) -> tuple[AuctionCall, int] | None:
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


def belote_points(hands: list[CardMask], trump: TrumpMode) -> tuple[int, int]:
    """Belote per team when every holder of trump K+Q says it (§7.7; one per suit in TA)."""
    if trump == NO_TRUMP:
        return (0, 0)
    points = [0, 0]
    for suit in range(4) if trump == ALL_TRUMP else (trump,):
        both = 1 << card(suit, KING) | 1 << card(suit, QUEEN)
        for seat in range(4):
            if hands[seat] & both == both:
                points[seat & 1] += 20
    return (points[0], points[1])


def world_outcome(
    view: PlayerView, trump: TrumpMode, hands: list[CardMask], leader: int, ns: int
) -> Outcome:
    """The solved world's facts: every seat announces its best combinations (§7.4,
    compared at trick 2, §7.5–§7.6) and says its belote (§7.7)."""
    rules = view.rules
    declarations = (0, 0)
    if rules.declarations:
        announced = [best_announcement(h, rules, trump) for h in hands]
        declarations = resolve(announced, rules, trump, leader).points
    return Outcome(ns, declarations, belote_points(hands, trump))


# A scored deal at four players, per team: about how many points it brings the side
# nearer the target, and the spread of the difference between the teams (classic-like
# tables, then the numeric auction, §4, where the contract's value is scored too).
DEAL_POINTS: Final[tuple[tuple[float, float], tuple[float, float]]] = ((95.0, 90.0),
                                                                       (150.0, 170.0))
_EVEN_SLOPE: Final = 1 / math.sqrt(2 * math.pi)  # the normal density at 0


class GameOutlook:
    """A hand's scores for the team, weighed by the game so far (§11, four players).

    The team's chance to win the game from the totals ``a`` (ours) and ``b``, both
    short of the target, is taken as Φ((a − b) / (σ √d)): the lead over the spread
    of the deals still to come, d = the points the nearer side still needs over the
    points a deal brings (:data:`DEAL_POINTS`, at least half a deal).  A total past
    the target ends the game (§11.2: won, or lost; when both pass it, the higher
    total wins, an equal one counts half).  A hand's value is the change it makes in
    that chance, over the chance's slope in an even game at the same stage: far from
    the target it is about the hand's score difference, near it a failure that hands
    the others the game costs all it can, a make that ends it for us gains as much.
    """

    def __init__(self, view: PlayerView) -> None:
        needs = game_needs(view)
        assert needs is not None and view.target is not None
        self.rules = view.rules
        self.target = view.target
        self.ours = self.target - needs[0]
        self.theirs = self.target - needs[1]
        self.per_deal, self.spread = DEAL_POINTS[view.rules.is_auction]
        self.now = self.chance(self.ours, self.theirs)
        deals = self._deals(self.ours, self.theirs)
        self.slope = _EVEN_SLOPE / (self.spread * math.sqrt(deals))

    @classmethod
    def of(cls, view: PlayerView) -> GameOutlook | None:
        """The outlook of a four-player game to a points target; None otherwise."""
        if view.rules.players != 4 or game_needs(view) is None:
            return None
        return cls(view)

    def _deals(self, a: int, b: int) -> float:
        return max(0.5, (self.target - max(a, b)) / self.per_deal)

    def chance(self, a: int, b: int) -> float:
        """The team's chance to win the game from the totals ``a`` (ours) and ``b``."""
        over_a, over_b = reached(self.rules, a, self.target), reached(self.rules, b, self.target)
        if over_a or over_b:
            if over_a and over_b:
                return 1.0 if a > b else 0.0 if b > a else 0.5
            return 1.0 if over_a else 0.0
        z = (a - b) / (self.spread * math.sqrt(self._deals(a, b)))
        return 0.5 * math.erfc(-z / math.sqrt(2))

    def value(self, ours: int, theirs: int) -> float:
        """A hand that scores ``ours`` and ``theirs``, in points of lead (see above)."""
        return (self.chance(self.ours + ours, self.theirs + theirs) - self.now) / self.slope


# A deal at three players (§12.1), per seat and deal mode: the points it brings a seat
# on average, and the spread of a seat's score (the standard deviation of the difference
# of two seats' scores over √2: the seats' scores in a deal are not independent), the
# deals thrown in counted as 0 (heuristic at every seat, 2,000 deals of each mode, seed
# 7400: 24 cards 50.8 and 59.5, 507 thrown in; kitty 69.4 and 74.3, 48; six each 30.1
# and 43.5, 1,000), docs/results/small-tables-dev-8.md.
SEAT_DEAL_POINTS: Final[Mapping[ThreeDeal, tuple[float, float]]] = {
    ThreeDeal.CARDS_24: (51.0, 60.0), ThreeDeal.KITTY: (69.0, 74.0),
    ThreeDeal.SIX_EACH: (30.0, 44.0),
}
# The standard normal as a quadrature rule for the race of SeatOutlook: (x, weight)
# pairs, the trapezoid rule with step 1/4 on [-7, 7] (its error far below 1e-9 for the
# smooth integrands here).
_RACE_STEP: Final = 0.25
_RACE_NODES: Final[tuple[tuple[float, float], ...]] = tuple(
    (x, _RACE_STEP * math.exp(-x * x / 2) / math.sqrt(2 * math.pi))
    for x in (i * _RACE_STEP for i in range(-28, 29)))


def _normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2))


class SeatOutlook:
    """A hand's scores for the seat, weighed by the game so far, at a table where each
    seat plays for himself (three players, §12.1; a game to a points target, §11).

    Each seat's total after the deals still to come is taken as its total now plus a
    normal gain, the seats' gains independent and alike (d deals of the deal mode's
    :data:`SEAT_DEAL_POINTS` spread: σ √d each, d = the points the leading seat still
    needs over the points a deal brings a seat, at least half a deal); the seat wins
    when its total ends highest: P(seat i) = E[Π_j Φ((t_i − t_j)/(σ √d) + X)], X a
    standard normal (a quadrature, :data:`_RACE_NODES`).  The chances sum to one over
    the seats, rise with the seat's own total and fall with each other's (each factor
    does), and two seats reduce to the four players' Φ of the lead over the spread
    of the difference.  A total at the target ends the game as the engine decides it
    (§11.2, §11.3): among the seats at the target the highest total wins; equal
    highest totals play on and count as an equal share here (``taker_must_make``
    and ``draw`` are not modelled).  A hand's value is the change it makes in the
    seat's chance over the chance's slope in an even game at the same stage: far from
    the target it is about the seat's score less the others' mean (in an even game a
    point to another seat costs half what a point to the seat gains, the chances
    summing to one).
    """

    def __init__(self, view: PlayerView) -> None:
        assert view.target is not None and view.game_score
        self.rules = view.rules
        self.target = view.target
        self.seat = view.seat
        self.totals = tuple(view.game_score)
        self.seats = len(self.totals)
        self.per_deal, self.spread = SEAT_DEAL_POINTS[view.rules.three_deal]
        self._cache: dict[tuple[int, ...], float] = {}
        self.now = self.chance(self.totals)[self.seat]
        spread = self.spread * math.sqrt(self._deals(self.totals))
        even = sum(w * (math.exp(-x * x / 2) / math.sqrt(2 * math.pi))
                   * _normal_cdf(x) ** (self.seats - 2) for x, w in _RACE_NODES)
        self.slope = (self.seats - 1) * even / spread

    @classmethod
    def of(cls, view: PlayerView) -> SeatOutlook | None:
        """The outlook of a three-player game to a points target; None otherwise."""
        if view.rules.players != 3 or game_needs(view) is None:
            return None
        return cls(view)

    def _deals(self, totals: Sequence[int]) -> float:
        return max(0.5, (self.target - max(totals)) / self.per_deal)

    def chance(self, totals: Sequence[int]) -> tuple[float, ...]:
        """Each seat's chance to win the game from the seats' ``totals``."""
        over = [s for s, t in enumerate(totals) if reached(self.rules, t, self.target)]
        if over:
            best = max(totals[s] for s in over)
            leaders = [s for s in over if totals[s] == best]
            return tuple(1 / len(leaders) if s in leaders else 0.0
                         for s in range(len(totals)))
        return tuple(self._race(totals, s) for s in range(len(totals)))

    def _race(self, totals: Sequence[int], seat: int) -> float:
        """The seat's chance to end highest, every total short of the target."""
        spread = self.spread * math.sqrt(self._deals(totals))
        gaps = [(totals[seat] - u) / spread for j, u in enumerate(totals) if j != seat]
        p = 0.0
        for x, w in _RACE_NODES:
            f = w
            for g in gaps:
                f *= _normal_cdf(g + x)
            p += f
        return p

    def value(self, scores: Sequence[int | float]) -> float:
        """A hand that scores ``scores`` (per seat), for the seat, in points (see above)."""
        key = tuple(round(t + s) for t, s in zip(self.totals, scores, strict=True))
        got = self._cache.get(key)
        if got is None:
            if any(reached(self.rules, t, self.target) for t in key):
                chance = self.chance(key)[self.seat]
            else:
                chance = self._race(key, self.seat)
            got = self._cache[key] = (chance - self.now) / self.slope
        return got


Errors = tuple[tuple[int, float], ...]
"""A normal error of the takers' points as a quadrature rule: (error, weight) pairs."""


def noise_errors(noise: int) -> Errors:
    """The takers' error of ``noise`` points standard deviation as a three-point
    Gauss–Hermite rule (-√3σ, 0, +√3σ weighted 1/6, 2/3, 1/6); none for 0."""
    spread = round(noise * 3 ** 0.5)
    return ((0, 1.0),) if spread == 0 else ((-spread, 1 / 6), (0, 2 / 3), (spread, 1 / 6))


def takers_points(ns: int, team: int, total: int) -> int:
    """The takers' (side ``team``) double-dummy points of a deal whose tricks hold
    ``total`` card points, side 0's being ``ns`` (the last trick's 10 in, a capot's
    100: a side that takes every trick has ``total + 100``, the other 0)."""
    capot_points = total + 100
    if team == 0:
        return ns
    if ns in (0, capot_points):
        return capot_points - ns
    return total + 10 - ns


def trick_cases(ns: int, team: int, total: int, caution: int,
                errors: Errors) -> list[tuple[float, tuple[int, int], int | None]]:
    """The hands a solved world stands for, weighed: side 0's double-dummy points ``ns``
    (the last trick's 10 included, a capot's 100) made the takers' (side ``team``) of
    ``total`` card points, less ``caution`` and give or take each of ``errors``.  Per
    error its weight, the trick points per side (side 0 first) and the side that took
    every trick (None): a capot counts only while the takers keep every point (or take
    none, double dummy)."""
    capot_points = total + 100
    takers_dd = takers_points(ns, team, total)
    cases: list[tuple[float, tuple[int, int], int | None]] = []
    for error, weight in errors:
        points = takers_dd - caution + error
        capot: int | None = None
        if points >= capot_points or (points <= 0 and takers_dd == 0):
            capot = team if points > 0 else team ^ 1
            takers = capot_points if points > 0 else 0
            defence = capot_points - takers
        else:
            takers = max(0, min(points, total + 10))
            defence = total + 10 - takers
        cases.append((weight, (takers, defence) if team == 0 else (defence, takers), capot))
    return cases


class BidScorer:
    """The hand score difference for the bot's team of a call in a solved world.

    The takers' card points in play are taken as their double-dummy points less
    ``caution``, give or take a normal error of ``noise`` points (a three-point
    Gauss–Hermite rule: -√3σ, 0, +√3σ weighted 1/6, 2/3, 1/6); a capot counts
    only while the takers keep every point.  With an ``outlook`` the hand's scores
    are weighed by the game so far (:meth:`GameOutlook.value`) instead.
    """

    def __init__(
        self, view: PlayerView, caution: int, noise: int, outlook: GameOutlook | None = None
    ) -> None:
        self.rules = view.rules
        self.outlook = outlook
        self.team = view.seat & 1
        self.reserve = view.reserve
        self.caution = caution
        self.errors = noise_errors(noise)
        self._totals: dict[TrumpMode, int] = {}
        self._cache: dict[tuple[Any, ...], tuple[float, float]] = {}

    def value(self, o: Option, out: Outcome) -> tuple[float, float]:
        """The expected score difference, and the chance that the takers make it."""
        assert o.team is not None
        key = (o.team, o.trump, o.contract, o.multiplier, out)
        got = self._cache.get(key)
        if got is not None:
            return got
        total = self._totals.get(o.trump)
        if total is None:
            total = self._totals[o.trump] = sum(card_points(self.rules, o.trump))
        value = made = 0.0
        for weight, trick_points, capot in trick_cases(out.ns, o.team, total, self.caution,
                                                       self.errors):
            v, m = self._score(o, out, trick_points, capot)
            value += weight * v
            made += weight * m
        got = (value, made)
        self._cache[key] = got
        return got

    def _score(
        self, o: Option, out: Outcome, trick_points: tuple[int, int], capot: int | None
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
            score: tuple[int, ...] = trick_points
            made = trick_points[o.team] > trick_points[o.team ^ 1]
        else:
            score, made = result.score, result.outcome is HandOutcome.MADE
        if self.outlook is not None:
            return self.outlook.value(score[team], score[team ^ 1]), made
        return float(score[team] - score[team ^ 1]), made
