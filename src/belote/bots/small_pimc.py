"""PIMC for three and two players (RULES.md §12): knowledge, sampling, a solver, a player.

The four-player PIMC bot (:mod:`belote.bots.pimc`) samples four hands of eight.
At the small tables the hidden cards lie in other places, and this module knows
them, deal by deal (profiles ``classic-3p`` and ``classic-2p``):

- ``24_cards`` (§12.1): 24 cards, all in the three hands (the 7s and 8s are out of
  the game); the taker holds the turned card (§3.4);
- ``kitty``: 32 cards, ten a hand; the taker's two discards lie out of play (the
  taker knows them: ``PlayerView.discards``);
- ``six_each`` (three players) and ``stock`` (two): nine a hand; the turned card
  and the bergère stay face up on the table; the rest (3 or 12 cards) lies out;
- ``decouverte`` (§12.2): each seat's face-up cards are seen by both; the
  face-down cards are unknown to both players, one under each face-up card
  that still covers one (``PlayerView.covering``).

:func:`small_knowledge` reads a :class:`~belote.round.PlayerView` into a
:class:`SmallKnowledge`: the cards each seat holds now, those known in a hand
(the turned card, belote said, declarations shown at trick 2, §7.6–§7.7), the
cards each seat cannot hold (voids revealed by the play, found with the engine's
own legal-move rule as in :mod:`belote.bots.sampling`: a card ``x`` is ruled out
for the player of ``c`` when ``c`` is not legal from the hand ``{c, x}``), and
how many unknown cards lie out of play.  :class:`SmallSampler` deals the
unknown cards uniformly among all deals consistent with it, without rejection
(cards grouped by the places that may hold them, a dynamic program counting the
deals per split).

:func:`solve_small` is a double-dummy solver for 2 or 3 seats: fail-soft
alpha-beta on side 0's card points (the taker's side; seat N with two players),
a transposition table at trick boundaries, belote découverte's face-down cards
turned up as the cards above them are played, and a node budget that raises
:class:`belote.solver.SearchLimitError`.  :func:`minimax_small` is the plain
search that checks it.

:class:`SmallPimc` plays a card by averaging, over sampled worlds, the hand's
score difference for its side (§8 and §12: made, failed, litige, capot, the
trick total of a deal that leaves cards out) given each world's solved value.
It bids, and lays the kitty aside, as the heuristic bot does (sampling a bid
would need a full-deal solve per world and per trump).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from typing import Any, Final

from belote.bots.base import (
    BaseBot,
    Bot,
    BotSetting,
    legal_cards,
    played_by,
)
from belote.bots.knowledge import InconsistentViewError, World, infer, relax
from belote.bots.sampling import DealSampler
from belote.cards import (
    ALL_TRUMP,
    KING,
    NO_TRUMP,
    QUEEN,
    Card,
    scan_forward,
)
from belote.declarations import CARRE, best_announcement
from belote.errors import BeloteError
from belote.hand import DECOUVERTE
from belote.play import PlayState, card_points
from belote.round import PlayerView
from belote.scoring import HandEntry, score_hand
from belote.table import Table

__all__ = [
    "SmallPimc",
    "SmallScorer",
    "world_state",
]

def _teams(players: int, taker: int) -> tuple[int, ...]:
    if players == 3:
        return tuple(0 if s == taker else 1 for s in range(3))
    if players == 2:
        return (0, 1)
    return (0, 1, 0, 1)


def world_state(view: PlayerView, world: World) -> PlayState:
    """The position of ``view`` in ``world`` (every hand now), ready to solve: the
    cards of the current trick given back to their players and played again."""
    assert view.contract is not None
    n = view.rules.players
    full = list(world.hands)
    for i, c in enumerate(view.trick):
        full[(view.trick_leader + i) % n] |= 1 << c
    teams = _teams(n, view.contract.taker)
    won = [0, 0]
    for t in view.tricks:
        won[teams[t.winner]] += 1
    if view.contract.value == DECOUVERTE:
        total = 16
    else:
        total = view.hand.bit_count() + played_by(view)[view.seat].bit_count()
    state = PlayState(
        view.rules, view.contract.trump, full, view.trick_leader,
        tricks_left=total - len(view.tricks), tricks_won=(won[0], won[1]), teams=teams,
    )
    for c in view.trick:
        state.push(c)
    return state


# --- the player -------------------------------------------------------------------------


def _declarations(view: PlayerView, teams: Sequence[int]) -> tuple[int, int]:
    """Declaration points per side: the comparison once trick 2 has started (§7.4);
    before, the seat's own combinations against what the others announced (their kind
    and height only, §7.4), a tie going to nobody.  None in découverte (§12.2)."""
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
        keyed[teams[seat]].append(((d.points, d.kind == CARRE, d.rank), d.points))
    for other, said in enumerate(view.announced):
        if other == seat or said is None:
            continue
        for a in said:
            keyed[teams[other]].append(((a.points, a.kind == CARRE, a.rank), a.points))
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


class SmallScorer:
    """The hand's score difference for the seat's side in a world, from side 0's value
    of the remaining tricks (RULES.md §8 with §12's trick totals)."""

    def __init__(self, view: PlayerView) -> None:
        assert view.contract is not None
        self.view = view
        self.rules = view.rules
        self.contract = view.contract
        self.players = n = view.rules.players
        self.teams = _teams(n, view.contract.taker)
        self.side = self.teams[view.seat]
        self.trump = view.contract.trump
        self.points = card_points(view.rules, self.trump)
        self.mode = Table.of(view.rules).mode
        self.past = [0, 0]
        self.past_tricks = [0, 0]
        for t in view.tricks:
            self.past[self.teams[t.winner]] += t.points
            self.past_tricks[self.teams[t.winner]] += 1
        self.by_seat = played_by(view)
        self.played = 0
        for m in self.by_seat:
            self.played |= m
        self.declarations = _declarations(view, self.teams)
        self.my_discards = view.discards if view.discards else None

    def belote(self, world: World) -> tuple[int, int]:
        """Belote points per side in this world: said already, or trump K+Q held."""
        if self.trump == NO_TRUMP:
            return (0, 0)
        said = {(s, c >> 3) for s, c in self.view.belote_cards}
        points = [0, 0]
        suits = range(4) if self.trump == ALL_TRUMP else (self.trump,)
        under = [0] * self.players
        for c, u in world.beneath.items():
            for s in range(self.players):
                if world.covering and world.covering[s] >> c & 1:
                    under[s] |= 1 << u
        for suit in suits:
            k, q = suit * 8 + KING, suit * 8 + QUEEN
            for seat in range(self.players):
                start = world.hands[seat] | self.by_seat[seat] | under[seat]
                if start >> k & 1 and start >> q & 1 and (
                    (seat, suit) in said or not self.by_seat[seat] & (1 << k | 1 << q)
                ):
                    points[self.teams[seat]] += 20
        return (points[0], points[1])

    def utility(self, value: int, world: World) -> float:
        """The seat's side's score minus the other side's, for side 0's ``value`` of the
        remaining tricks in ``world`` (with its own trick points / 1000 as a tie-break)."""
        pts = self.points
        in_hands = self.played
        for h in world.hands:
            in_hands |= h
        for u in world.beneath.values():
            in_hands |= 1 << u
        cards = sum(pts[c] for c in scan_forward(in_hands))
        final0 = self.past[0] + value
        capot: int | None = None
        if self.past_tricks[1] == 0 and final0 > cards + 10:
            capot, tp = 0, [final0, 0]
        elif self.past_tricks[0] == 0 and final0 == 0:
            capot, tp = 1, [0, cards + 100]
        else:
            tp = [final0, cards + 10 - final0]
        belote = self.belote(world)
        me, other = self.side, 1 - self.side
        if self.contract.value == DECOUVERTE:
            return float(tp[me] + belote[me] - tp[other] - belote[other])
        in_play: int | None = None
        if self.mode in ("six_each", "stock"):
            in_play = cards + 10
        elif self.mode == "kitty":
            aside = self.my_discards if self.my_discards is not None else world.out
            extra = sum(pts[c] for c in scan_forward(aside))
            if capot == 1:
                tp = [0, 252]
            else:
                tp[0] += extra  # §12.1: the discards count in the taker's tricks
        entry = HandEntry(
            taker=self.contract.team, trick_points=(tp[0], tp[1]), capot=capot,
            declarations=self.declarations, belote=belote, trump=self.trump,
            reserve=self.view.reserve, in_play=in_play,
        )
        own = tp[me]
        try:
            score = score_hand(self.rules, entry).score
        except BeloteError:
            return float(own)
        return score[me] - score[other] + own / 1000


class SmallPimc:
    """Perfect-information Monte Carlo card play at a table of two or three (§12).

    For a card decision it samples ``worlds`` deals of the hidden cards
    (:class:`SmallSampler`), solves each double-dummy (:func:`solve_small`) and plays
    the card with the best average :class:`SmallScorer` utility (``objective`` =
    ``score``) or card points (``points``).  Earlier than ``tricks`` tricks from the
    end it plays as the heuristic bot; it stops adding worlds past ``nodes``
    positions once ``min_worlds`` are solved, and never searches past twice
    ``nodes`` for one card.  Calls and the kitty discard are the heuristic bot's.
    """

    SETTINGS: Final = {
        "worlds": BotSetting(int, 16, "worlds solved per card at most", 1),
        "tricks": BotSetting(int, 7, "search from this many tricks left (earlier: heuristic)", 1),
        "nodes": BotSetting(int, 100_000, "stop adding worlds past this many solver nodes", 1),
        "min_worlds": BotSetting(int, 2, "worlds solved unless past twice the node budget", 1),
        "objective": BotSetting(str, "score", "score or points", choices=("score", "points")),
    }

    def __init__(
        self,
        seed: int | None = None,
        fallback: Bot | None = None,
        **settings: Any,
    ) -> None:
        values = {k: s.default for k, s in self.SETTINGS.items()}
        for key, value in settings.items():
            if key not in self.SETTINGS:
                raise BeloteError(f"SmallPimc: unknown setting {key!r}")
            values[key] = value
        self.settings: dict[str, Any] = values
        self.rng = random.Random(seed)
        if fallback is None:
            from belote.bots.heuristic import HeuristicBot

            fallback = HeuristicBot(seed)
        self.fallback: Bot = fallback
        self.last_worlds = 0
        self.last_nodes = 0
        self.last_values: dict[Card, float] = {}

    @classmethod
    def for_bot(cls, bot: BaseBot) -> SmallPimc:
        """The small-table player of a PIMC bot: same seed, the settings the bot was
        given (those that apply; the others at this class's defaults); made once per bot."""
        got = _FOR_BOT.get(bot)
        if got is None:
            settings = {k: v for k, v in bot.settings.items()
                        if k in cls.SETTINGS and k in bot.given}
            heuristic = getattr(bot, "heuristic", None)
            got = cls(bot.seed, heuristic, **settings)
            _FOR_BOT[bot] = got
        return got

    def call(self, view: PlayerView) -> str:
        return self.fallback.call(view)

    def play(self, view: PlayerView) -> Card:
        legal = legal_cards(view)
        self.last_worlds = self.last_nodes = 0
        self.last_values = {}
        if len(legal) == 1:
            return legal[0]
        assert view.contract is not None
        if view.contract.value == DECOUVERTE:
            total = 16
        else:
            total = view.hand.bit_count() + played_by(view)[view.seat].bit_count()
        if total - len(view.tricks) > self.settings["tricks"]:
            return self.fallback.play(view)
        values = self.evaluate(view)
        if not values:
            return self.fallback.play(view)
        return max(legal, key=lambda c: (values.get(c, float("-inf")), -c))

    def sampler(self, view: PlayerView) -> DealSampler | None:
        """The exact sampler of the worlds the view allows (voids dropped if none fits)."""
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
        from belote.solver import SearchLimitError, solve

        sampler = self.sampler(view)
        if sampler is None:
            return {}
        settings = self.settings
        scorer = SmallScorer(view) if settings["objective"] == "score" else None
        assert view.contract is not None
        sign = 1 if _teams(view.rules.players, view.contract.taker)[view.seat] == 0 else -1
        totals: dict[Card, float] = {}
        nodes = worlds = 0
        budget = settings["nodes"]
        while worlds < settings["worlds"]:
            if nodes >= 2 * budget or (worlds >= settings["min_worlds"] and nodes >= budget):
                break
            world = sampler.sample(self.rng)
            try:
                result = solve(
                    world_state(view, world), max_nodes=2 * budget - nodes, beneath=world.beneath
                )
            except SearchLimitError:
                break
            nodes += result.nodes
            worlds += 1
            for c, v in result.moves.items():
                u = scorer.utility(v, world) if scorer is not None else float(sign * v)
                totals[c] = totals.get(c, 0.0) + u
        self.last_worlds, self.last_nodes = worlds, nodes
        self.last_values = {c: v / worlds for c, v in totals.items()} if worlds else {}
        return self.last_values


_FOR_BOT: weakref.WeakKeyDictionary[BaseBot, SmallPimc] = weakref.WeakKeyDictionary()
