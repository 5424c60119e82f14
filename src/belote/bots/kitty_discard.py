"""The kitty taker's two cards aside chosen by search, at three players (docs/rules.md
§12.1; ``pimc:discard=search``).

The taker of the ``kitty`` deal holds twelve cards (his ten and the kitty's two) and
lays two aside; they count in his tricks.  The rule every bot lays aside by
(:func:`belote.bots.base.discard_of`) keeps the trumps and the aces, puts a ten
without its ace safe and empties short plain suits.  The search weighs the rule's own
best pairs against each other on the deals the taker may face:

- the *candidates* are the ``pairs`` best pairs by the rule's value
  (:func:`belote.bots.base.discard_pairs`: two plain cards, a trump only when fewer
  than two plain cards are held), the rule's pair first; with ``pool=announce`` the
  last of them gives way, when none keeps the most declaration points that ten of the
  twelve cards can hold, to the rule's best pair that keeps them
  (:func:`discard_candidates`: the rule never looks at the declarations, and lays
  aside a jack of a carré of jacks or a card of a run of four);
- a *world* places the twenty cards the taker does not see, ten to each defender,
  uniformly (:func:`belote.bots.bid_sampling.shuffled_hands`), kept when every
  defender's pass fits his ten cards as the heuristic's call
  (:func:`belote.bots.small_bid.call_hints`, as the bidding search reads the calls),
  the hints dropped when hardly any world fits (more than 50 draws rejected per world
  wanted);
- each candidate is solved in each world, the same worlds for all
  (:func:`belote.solver.solve`, value only: the play from the eldest's lead with the
  taker's ten cards left), and scored as the bidding search scores a world
  (:func:`belote.bots.small_bid.seat_value`: the real scoring of §8 and §12, the two
  cards aside counted in the taker's tricks, the declarations and belote of the hands
  the pair leaves, the takers' points give or take ``noise``, the taker's score less
  the defenders' mean);
- in each world the candidates are solved one after the other, each solve's
  zero-window tests going first to the values of the pairs solved before it in that
  world (``guess=world``: two pairs' deals differ by two of the taker's cards and often
  have values alike; :func:`belote.solver.solve`'s ``guesses``): the same values, 4% to
  15% fewer positions (``benchmarks/bench_kitty_solves.py``), so more worlds within the
  budget; ``guess=none`` starts each solve from scratch;
- worlds are added until ``nodes`` solver positions have been searched with at least
  ``min_worlds`` worlds (never past twice ``nodes``), or ``worlds`` worlds; a world one
  of whose solves passes a quarter of ``nodes`` is left out (its positions counted):
  the deals of ten tricks of three solve in some 300,000 positions (median) but some
  in millions, and a few such worlds would leave too few for the others;
- the pair with the best mean value is laid aside, the rule's on a tie (and when fewer
  than ``min_worlds`` worlds could be solved).

:func:`reference_values` is the slow, plain reference of the values (every pair asked
for, every world solved afresh, the scoring rebuilt from the hands) that the tests
hold the search to.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from belote.bots.base import discard_pairs, discard_trump
from belote.bots.bid_sampling import shuffled_hands
from belote.bots.bid_search import SeatOutlook, noise_errors
from belote.bots.heuristic import SMALL_TAKE
from belote.bots.pimc_config import DiscardGuess, DiscardPool
from belote.bots.small_bid import (
    SmallOutcome,
    call_hints,
    deal_for_play,
    deal_of,
    seat_value,
)
from belote.cards import Card, CardMask, TrumpMode, scan_forward
from belote.declarations import best_announcement
from belote.errors import BeloteError
from belote.options import Rules
from belote.round import DISCARD, PlayerView
from belote.table import DealMode, Table

if TYPE_CHECKING:
    from belote.solver import SolverEngine

__all__ = ["DiscardSearch", "DiscardWorld", "Pair", "discard_candidates", "reference_values"]

Pair = tuple[Card, Card]
HINT_DRAWS: Final = 50  # worlds rejected per world wanted before the passes are not read
SKIP_SHARE: Final = 4  # a world whose one solve passes nodes / SKIP_SHARE is left out
DEALT: Final = 10  # each seat's cards in the kitty deal before the taker takes the kitty


def discard_candidates(hand: CardMask, rules: Rules, trump: TrumpMode, most: int,
                       pool: DiscardPool) -> list[Pair]:
    """The pairs the search weighs (at most ``most``, the rule's pair first): the rule's
    best (:func:`belote.bots.base.discard_pairs`); with ``announce`` (and declarations
    played) the last of them replaced, when none of them keeps the most declaration
    points the twelve can keep in ten cards (the rule does not look at them: it would lay
    aside a jack of a carré), by the rule's best pair that keeps them."""
    ranked = discard_pairs(hand, trump)
    chosen = ranked[:most]
    if pool is DiscardPool.RULE or not rules.declarations or most < 2:
        return chosen

    def kept(pair: Pair) -> int:
        left = hand & ~(1 << pair[0]) & ~(1 << pair[1])
        return sum(d.points for d in best_announcement(left, rules, trump))

    every = [(kept(p), p) for p in itertools.combinations(scan_forward(hand), 2)]
    top = max(points for points, _ in every)
    if top == 0 or any(kept(p) == top for p in chosen):
        return chosen
    keeping = {p for points, p in every if points == top}
    # (the rule's pool holds every plain card: a pair keeping them may hold a trump)
    first = next((p for p in ranked if p in keeping), None)
    if first is None:
        first = min(keeping)
    return [*chosen[:-1], first]


@dataclass(frozen=True, slots=True)
class DiscardWorld:
    """The defenders' cards in one world: every seat's hand (the taker's twelve)."""

    hands: tuple[CardMask, ...]


class DiscardSearch:
    """The search of the kitty taker's discard for one view in the discard phase (see
    the module)."""

    def __init__(self, view: PlayerView, *, pairs: int, worlds: int, nodes: int,
                 min_worlds: int, noise: int, pool: DiscardPool = DiscardPool.ANNOUNCE,
                 hints: bool = True, guess: DiscardGuess = DiscardGuess.WORLD,
                 engine: SolverEngine | None = None,
                 outlook: SeatOutlook | None = None) -> None:
        table = Table.of(view.rules)
        trump = discard_trump(view)
        if view.phase != DISCARD or table.mode is not DealMode.KITTY or trump is None:
            raise BeloteError(f"no kitty discard to search in phase {view.phase!r} "
                              f"({table.mode})")
        self.view, self.table, self.trump = view, table, trump
        self.taker = view.seat
        self.leader = table.next(view.dealer)  # the eldest leads (§12.1)
        self.candidates = discard_candidates(view.hand, view.rules, trump, pairs, pool)
        self.worlds, self.budget, self.min_worlds = worlds, nodes, min_worlds
        self.errors = noise_errors(noise)
        self.engine = engine
        self.outlook = outlook
        self.guess = guess
        self.others = tuple(s for s in range(table.players) if s != view.seat)
        self.unseen = tuple(c for c in table.deck if not view.hand >> c & 1)
        self.mode = deal_of(view)
        self.need = SMALL_TAKE[self.mode]
        self.hints = call_hints(view) if hints else ()
        self.relaxed = False  # the passes were not read: hardly any world fitted them
        self.rejected = 0
        self.used = 0  # worlds solved for every candidate
        self.solved: list[DiscardWorld] = []  # those worlds
        self.skipped = 0  # worlds left out: a solve passed a quarter of the budget
        self.nodes = 0
        self.values: dict[Pair, list[float]] = {p: [] for p in self.candidates}

    def draw(self, rng: random.Random) -> DiscardWorld:
        """One world: the unseen cards dealt ten to each defender, uniformly, kept when
        the defenders' passes fit (unless they were dropped)."""
        while True:
            hands, _ = shuffled_hands(rng, self.unseen, self.table.players, self.taker,
                                      self.view.hand, self.others, DEALT)
            world = DiscardWorld(tuple(hands))
            if not self.hints or self.fits(world):
                return world
            self.rejected += 1
            if self.rejected > HINT_DRAWS * self.worlds:
                self.hints, self.relaxed = (), True

    def fits(self, world: DiscardWorld) -> bool:
        """Whether each defender's pass fits his ten cards in ``world``."""
        return all(h.fits(world.hands[h.seat], None, self.mode, self.need)
                   for h in self.hints)

    def outcome(self, world: DiscardWorld, pair: Pair, cap: int | None = None,
                guesses: Sequence[int] = ()) -> tuple[SmallOutcome, int]:
        """``world`` played with ``pair`` aside and solved (the taker's points in
        ``ns``), and the positions searched, the solver's tests going first to
        ``guesses``; :class:`~belote.solver.SearchLimitError` past ``cap``."""
        from belote.solver import solve  # loaded when a discard is searched

        laid = 1 << pair[0] | 1 << pair[1]
        dealt = deal_for_play(self.view.rules, self.table, list(world.hands), self.trump,
                              self.taker, self.leader, laid)
        result = solve(dealt.state, moves=False, max_nodes=cap, engine=self.engine,
                       guesses=guesses)
        return SmallOutcome(result.value, dealt.play_total - 10, dealt.aside, dealt.in_play,
                            dealt.declarations, dealt.belote), result.nodes

    def score(self, out: SmallOutcome) -> float:
        """The taker's value of a solved world (:func:`small_bid.seat_value`)."""
        return seat_value(self.view, self.table, self.trump, self.taker, out, 0,
                          self.errors, self.outlook)[0]

    def solve(self, world: DiscardWorld, pair: Pair, cap: int | None = None
              ) -> tuple[float, int]:
        """``pair``'s value for the taker in ``world`` and the positions searched;
        :class:`~belote.solver.SearchLimitError` past ``cap``."""
        out, nodes = self.outcome(world, pair, cap)
        return self.score(out), nodes

    def run(self, rng: random.Random) -> None:
        """Solves every candidate in worlds drawn one at a time within the budget; a
        world one of whose solves passes a quarter of ``nodes`` is left out
        (:attr:`skipped`, its positions counted)."""
        from belote.solver import SearchLimitError

        if len(self.candidates) < 2:
            return
        hard = max(1, self.budget // SKIP_SHARE)
        while self.used < self.worlds:
            if self.nodes >= 2 * self.budget or (
                    self.used >= self.min_worlds and self.nodes >= self.budget):
                break
            world = self.draw(rng)
            row: list[float] = []
            found: list[int] = []  # the taker's points of the pairs solved in this world
            try:
                for pair in self.candidates:
                    left = 2 * self.budget - self.nodes
                    out, nodes = self.outcome(world, pair, min(hard, left),
                                              guesses_of(found) if self.guess is
                                              DiscardGuess.WORLD else ())
                    self.nodes += nodes
                    row.append(self.score(out))
                    found.append(out.ns)
            except SearchLimitError as stop:
                self.nodes += stop.nodes
                self.skipped += 1
                continue
            for pair, value in zip(self.candidates, row, strict=True):
                self.values[pair].append(value)
            self.solved.append(world)
            self.used += 1

    def means(self) -> dict[Pair, float]:
        """Each candidate's mean value over the worlds solved (none: empty)."""
        if not self.used:
            return {}
        return {p: sum(v) / self.used for p, v in self.values.items()}

    def choice(self) -> Pair:
        """The candidate of best mean, the rule's (the first) on a tie and when fewer
        than ``min_worlds`` worlds were solved."""
        rule = self.candidates[0]
        means = self.means()
        if self.used < self.min_worlds:
            return rule
        best = rule
        for pair in self.candidates[1:]:
            if means[pair] > means[best]:
                best = pair
        return best


def guesses_of(found: Sequence[int]) -> list[int]:
    """The values a pair's solve tests first, from the values ``found`` for the pairs
    solved before it in the same world: the last one, then the others by their
    distance from it (each once)."""
    if not found:
        return []
    last = found[-1]
    return sorted(set(found), key=lambda v: (abs(v - last), v))


def reference_values(view: PlayerView, worlds: Sequence[DiscardWorld],
                     pairs: Sequence[Pair], noise: int,
                     engine: SolverEngine | None = None) -> dict[Pair, list[float]]:
    """The slow reference: for each pair, its value for the taker in each world, every
    position built afresh from the hands (the pair taken out of the taker's twelve),
    solved without a budget and scored by :func:`belote.bots.small_bid.seat_value` with
    the outcome put together here (no outlook)."""
    from belote.cards import scan_forward
    from belote.play import PlayState, card_points
    from belote.solver import solve

    rules = view.rules
    table = Table.of(rules)
    trump = discard_trump(view)
    assert trump is not None
    taker = view.seat
    leader = table.next(view.dealer)
    pts = card_points(rules, trump)
    sides = table.sides(taker)
    out: dict[Pair, list[float]] = {}
    for pair in pairs:
        row: list[float] = []
        for world in worlds:
            hands = list(world.hands)
            assert hands[taker] >> pair[0] & 1 and hands[taker] >> pair[1] & 1
            hands[taker] &= ~(1 << pair[0]) & ~(1 << pair[1])
            state = PlayState(rules, trump, list(hands), leader, teams=sides, table=table)
            ns = solve(state, moves=False, engine=engine).value
            in_play = sum(pts[c] for h in hands for c in scan_forward(h))
            full = deal_for_play(rules, table, list(world.hands), trump, taker, leader,
                                 1 << pair[0] | 1 << pair[1])
            outcome = SmallOutcome(ns, in_play, pts[pair[0]] + pts[pair[1]], full.in_play,
                                   full.declarations, full.belote)
            row.append(seat_value(view, table, trump, taker, outcome, 0,
                                  noise_errors(noise), None)[0])
        out[pair] = row
    return out

