"""The PIMC bot: perfect-information Monte Carlo over deals consistent with the view.

For a card decision the bot samples *worlds*: deals of the hidden cards that
agree with everything its seat knows (:mod:`belote.bots.sampling`: its own
cards, the cards played, the turned card in the taker's hand, the declarations
shown at trick 2, belote said, the voids revealed by the play under the table's
options), solves each world double-dummy with :func:`belote.solver.solve`, and
plays the card with the best average for its team.

The objective (setting ``objective``):

- ``score`` [default]: the hand's score difference for the bot's team (RULES.md
  §8: made, failed, litige, capot), from the trick points already won, the
  solver's value of the rest, the declarations compared at trick 2 and the
  belote said or held in the world; with the team's card points as a small
  tie-break;
- ``points``: the card points of the remaining tricks (NS maximise the solver's
  value, EW minimise it).

Effort: the solver needs about 0.2 s (median; seconds in the worst deals) for a
full 8-trick deal in pure Python, times two dozen worlds, so the bot plays
trick 1 by the heuristic and searches from ``tricks`` tricks left (default 7:
from the second trick on).  Each decision solves up to ``worlds`` worlds
(default 24), and stops adding worlds once the solver has searched ``nodes``
positions (default 200,000, about 0.2 s; deterministic and machine-independent)
with at least ``min_worlds``
solved (default 2) or twice as many with fewer, or once ``seconds`` of wall
time have passed (default 0: no clock, since a clock makes the choice depend
on the machine's load).
Bidding is the heuristic's (seed 000 §9): sampling the bid would need full-deal
solves for every world and every candidate trump.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, ClassVar

from belote.bots.base import BaseBot, BotSetting, legal_cards, played_by
from belote.bots.heuristic import HeuristicBot
from belote.bots.sampling import DealSampler, InconsistentViewError, Knowledge, infer, relax
from belote.cards import ALL_TRUMP, KING, NO_TRUMP, QUEEN, Card, CardMask
from belote.declarations import CARRE, best_announcement
from belote.errors import BeloteError
from belote.play import PlayState, card_points
from belote.round import PlayerView
from belote.scoring import HandEntry, score_hand

__all__ = ["PimcBot", "World", "world_state"]

World = list[CardMask]


def world_state(view: PlayerView, hands: World) -> PlayState:
    """The position of ``view`` in the world ``hands`` (the four hands now), ready to solve."""
    assert view.contract is not None
    full = list(hands)
    for i, c in enumerate(view.trick):
        full[(view.trick_leader + i) & 3] |= 1 << c
    won = [0, 0]
    for t in view.tricks:
        won[t.winner & 1] += 1
    state = PlayState(
        view.rules, view.contract.trump, full, view.trick_leader,
        tricks_left=8 - len(view.tricks), tricks_won=(won[0], won[1]),
    )
    for c in view.trick:
        state.push(c)
    return state


class _Scorer:
    """The hand score difference for one team, from NS's value of the rest (``score``)."""

    def __init__(self, view: PlayerView) -> None:
        assert view.contract is not None
        self.view = view
        self.rules = view.rules
        self.contract = view.contract
        self.team = view.seat & 1
        trump = view.contract.trump
        self.trump = trump
        pts = card_points(view.rules, trump)
        self.card_total = sum(pts)
        self.past = [0, 0]
        self.past_tricks = [0, 0]
        for t in view.tricks:
            self.past[t.winner & 1] += t.points
            self.past_tricks[t.winner & 1] += 1
        self.declarations = self._declarations()
        self.by_seat = played_by(view)
        self._cache: dict[tuple[int, tuple[int, int]], float] = {}

    def _declarations(self) -> tuple[int, int]:
        """Declaration points per team: the comparison once trick 2 has started (§7.4);
        before, our own combinations against what the others announced (their kind and
        height only, §7.4), a tie going to nobody."""
        view = self.view
        if view.declaration_result is not None:
            return view.declaration_result.points
        if not view.rules.declarations:
            return (0, 0)
        seat = view.seat
        mine = view.my_declarations
        if mine is None:
            # the bot announces everything it holds with its first card
            start = view.hand | played_by(view)[seat]
            mine = tuple(best_announcement(start, view.rules, self.trump))
        keyed: list[list[tuple[tuple[int, ...], int]]] = [[], []]
        for d in mine:
            keyed[seat & 1].append(((d.points, d.kind == CARRE, d.rank), d.points))
        for other, said in enumerate(view.announced):
            if other == seat or said is None:
                continue
            for a in said:
                keyed[other & 1].append(((a.points, a.kind == CARRE, a.rank), a.points))
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

    def belote(self, hands: World) -> tuple[int, int]:
        """Belote points per team in this world: said already, or K+Q of trumps held."""
        if self.trump == NO_TRUMP:
            return (0, 0)
        points = [0, 0]
        suits = range(4) if self.trump == ALL_TRUMP else (self.trump,)
        said = {(s, c >> 3) for s, c in self.view.belote_cards}
        for suit in suits:
            k, q = suit * 8 + KING, suit * 8 + QUEEN
            for seat in range(4):
                start = hands[seat] | self.by_seat[seat]
                if start >> k & 1 and start >> q & 1 and (
                    (seat, suit) in said or not self.by_seat[seat] & (1 << k | 1 << q)
                ):
                    points[seat & 1] += 20
        return (points[0], points[1])

    def utility(self, ns_value: int, belote: tuple[int, int]) -> float:
        key = (ns_value, belote)
        got = self._cache.get(key)
        if got is not None:
            return got
        ns = self.past[0] + ns_value
        capot: int | None = None
        if ns >= self.card_total + 100:
            capot, trick_points = 0, (ns, 0)
        elif ns == 0 and self.past_tricks[0] == 0:
            capot, trick_points = 1, (0, self.card_total + 100)
        else:
            trick_points = (ns, self.card_total + 10 - ns)
        entry = HandEntry(
            taker=self.contract.team, trick_points=trick_points, capot=capot,
            declarations=self.declarations, belote=belote, trump=self.trump,
            contract=self.contract.value, multiplier=self.contract.multiplier,
            reserve=self.view.reserve,
        )
        own = trick_points[self.team]
        try:
            score = score_hand(self.rules, entry).score
            value = score[self.team] - score[self.team ^ 1] + own / 1000
        except BeloteError:
            value = float(own)
        self._cache[key] = value
        return value


class PimcBot(BaseBot):
    """Perfect-information Monte Carlo card play over exact samples of the hidden hands."""

    kind = "pimc"
    SETTINGS: ClassVar[Mapping[str, BotSetting]] = {
        "worlds": BotSetting(int, 24, "worlds solved per card at most", 1),
        "tricks": BotSetting(int, 7, "search from this many tricks left (earlier: heuristic)", 1),
        "nodes": BotSetting(int, 200_000, "stop adding worlds past this many solver nodes", 1),
        "min_worlds": BotSetting(int, 2, "worlds solved unless past twice the node budget", 1),
        "seconds": BotSetting(float, 0.0, "stop adding worlds after this time (0: no clock)", 0),
        "objective": BotSetting(str, "score", "score or points", choices=("score", "points")),
    }

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.heuristic = HeuristicBot(seed)
        self.last_worlds = 0  # worlds solved for the last decision
        self.last_nodes = 0
        self.last_values: dict[Card, float] = {}

    def call(self, view: PlayerView) -> str:
        return self.heuristic.call(view)

    def play(self, view: PlayerView) -> int:
        legal = legal_cards(view)
        self.last_worlds = self.last_nodes = 0
        self.last_values = {}
        if len(legal) == 1:
            return legal[0]
        if 8 - len(view.tricks) > self.settings["tricks"]:
            return self.heuristic.play(view)
        values = self.evaluate(view)
        if not values:
            return self.heuristic.play(view)
        return max(legal, key=lambda c: (values.get(c, float("-inf")), -c))

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
        settings = self.settings
        scorer = _Scorer(view) if settings["objective"] == "score" else None
        sign = 1 if view.seat & 1 == 0 else -1
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
            hands = sampler.sample(self.rng)
            try:
                # No decision searches more than twice the ``nodes`` setting.
                result = solve(world_state(view, hands), max_nodes=2 * settings["nodes"] - nodes)
            except SearchLimitError:
                break
            nodes += result.nodes
            worlds += 1
            if scorer is not None:
                belote = scorer.belote(hands)
                for c, v in result.moves.items():
                    totals[c] = totals.get(c, 0.0) + scorer.utility(v, belote)
            else:
                for c, v in result.moves.items():
                    totals[c] = totals.get(c, 0.0) + sign * v
        self.last_worlds, self.last_nodes = worlds, nodes
        self.last_values = {c: v / worlds for c, v in totals.items()} if worlds else {}
        return self.last_values
