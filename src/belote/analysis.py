"""Learning from a played deal: where each card and each call won or lost points
(docs/json.md, `belote analyze`; docs/rules.md §3–§9, §12).

:func:`analyze_deal` reads one deal from its record (:meth:`Round.from_record
<belote.round.Round.from_record>`, every action checked again, then played again
action by action through :meth:`~belote.round.Round.apply`) and answers a
:class:`DealAnalysis`; :func:`analyze_record` does it for a deal's record or for
each deal of a game's (:meth:`Match.from_record <belote.game.Match.from_record>`).

For every card played (:class:`CardAnalysis`):

- the **double-dummy** value of each legal card at that moment, every hand known
  (:func:`belote.solver.solve`): the card points the player's side takes from
  the rest of the deal, the cards already on the trick included, and the last
  trick's bonus as the solver counts it (10, dix de der; 100 when that side then
  holds every trick, capot).  Belote and declarations are not in it (the solver
  does not count them; they do not depend on the card played).  ``dd_best`` is
  the best of them for the player's side and ``dd_loss`` what the card played
  gave up against it (0 when it was best);
- the **information view** (for the seats asked, ``seats``): the searching bot's
  expected value of each legal card from that seat's own view at that moment
  (:meth:`belote.bots.pimc.PimcBot.evaluate`, default preset, in card points:
  ``objective=points``): worlds drawn from what the seat knows (its hand, the cards
  played, the bidding, what was announced and shown, the voids), each solved
  double-dummy, averaged, in the same units.  The bot is given the seat's
  :class:`~belote.round.PlayerView` and nothing else, so no hidden card reaches it.
  A defender's values (side 1 of the solver) are turned into his side's points
  from what he sees: the points not yet taken (at the tables that leave cards out
  of play, those he cannot see counted in) and the dix de der as 10 (a capot by
  his side counted as 10 too: the average does not tell the worlds apart); the
  same for every card, this shifts his numbers, never his losses;
- a **verdict**: ``forced`` (one legal card), ``best`` (no double-dummy loss, and
  none beyond ``tolerance`` in the information view), ``lucky`` (no double-dummy
  loss, but a loss beyond ``tolerance`` given what the seat knew), ``mistake``
  (a loss in both), ``unlucky`` (a double-dummy loss, but the card was best or
  within ``tolerance`` of the best given what the seat knew), ``loss`` (a
  double-dummy loss, the information view not asked), ``unsolved`` (a position
  past the ``max_nodes`` budget of the exact search, no information view).

For the bidding (:class:`CallAnalysis`), at four players: each call's score
difference for the caller's team, double dummy (the hands of the deal as it
would have been played, every hand announcing its best declarations and saying
its belote, scored by the real scoring), for the call made, the bot's, a pass,
and every take (take-or-pass) or the best bid in each trump (auction; coinche and
surcoinche too): a take or a bid as if it ended the bidding, undoubled; a pass as
the contract the record then reached (when the player did pass; ``None`` when he
did not: what the others would have said is not known).  At three and two players
(every §12 deal with a bidding) the same calls are weighed, each value the caller's
score less the others' mean as the bots' bidding search scores a contract
(:meth:`belote.bots.small_bid.SmallBidSearch.value`), the deal dealt by the engine for
each take (:meth:`belote.bots.small_bid.SmallBidSearch.dealt`).  At every table, for the
seats asked, the bot's call from the seat's view (:func:`belote.bots.base.next_action`,
the one driver, default preset).  The deal's double-dummy value under each trump
(and SA / TA where the rules have them) for the taker's side, from the opening lead
with the hands of the card play, is :attr:`DealAnalysis.trumps`.

A record cut short is analysed up to where it stops (``finished`` false); the
kitty discard (§12.1) is not analysed.  Everything is reproducible: the
information view's worlds come from ``seed`` (one seed per decision).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from belote.actions import Call as CallAction
from belote.actions import Play
from belote.auction import CAPOT, GENERALE, parse_bid
from belote.bots.base import next_action
from belote.bots.bid_search import BidScorer, Option, current_contract, world_outcome
from belote.bots.card_score import world_state
from belote.bots.knowledge import World
from belote.bots.pimc import PimcBot
from belote.bots.small_bid import FIRST_HAND, SmallBidSearch, SmallWorld
from belote.cards import (
    ALL_TRUMP,
    NO_TRUMP,
    SUIT_LETTERS,
    Card,
    CardMask,
    TrumpMode,
    card_name,
    scan_forward,
    suit_of,
    trump_name,
)
from belote.errors import InvalidRecordError
from belote.game import Match
from belote.play import SEAT_NAMES, PlayState, card_points
from belote.round import PlayerView, Round
from belote.scoring import Outcome
from belote.solver import SearchLimitError, solve, solver_engine
from belote.table import DealMode, Phase, Table

__all__ = [
    "DEFAULT_NODES",
    "DEFAULT_NODES_PURE",
    "DEFAULT_TOLERANCE",
    "CallAnalysis",
    "CardAnalysis",
    "DealAnalysis",
    "PlayerSummary",
    "Progress",
    "analyze_deal",
    "analyze_record",
    "game_summary",
    "information_values",
    "summarize",
]

# The positions one exact solve may search (then: unsolved), when ``max_nodes`` is None:
# with the compiled search, at every table (a full deal takes some 200,000, a few
# millions), and with the interpreted one (without the C build: some 300,000 a second).
DEFAULT_NODES: Final = 20_000_000
DEFAULT_NODES_PURE: Final = 200_000
DEFAULT_TOLERANCE: Final = 5.0  # information-view points within which a card is near-best
BIGGEST: Final = 3  # the biggest mistakes listed per player
LAST_TRICK: Final = 10  # dix de der (§5.2), as the solver counts it
CAPOT_BONUS: Final = 100

Progress = Callable[[int, int], None]
"""``progress(done, total)``: actions analysed so far out of the deal's."""


# --- the answers ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardAnalysis:
    """One card played: its double-dummy and information-view values (see the module
    docstring), each a mapping of every legal card to the points the player's side
    takes from the rest of the deal."""

    action: int  # its place in the record's actions, from 1
    trick: int  # from 1
    seat: int
    card: Card
    legal: tuple[Card, ...]
    dd: dict[Card, int] | None
    dd_best: int | None
    dd_loss: int | None
    info: dict[Card, float] | None
    info_best: float | None
    info_loss: float | None
    worlds: int
    verdict: str

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "trick": self.trick,
            "seat": SEAT_NAMES[self.seat],
            "card": card_name(self.card),
            "legal": [card_name(c) for c in self.legal],
            "dd": None if self.dd is None else {card_name(c): self.dd[c] for c in self.legal},
            "dd_best": self.dd_best,
            "dd_loss": self.dd_loss,
            "info": None if self.info is None else {
                card_name(c): round(self.info[c], 1) for c in self.legal if c in self.info},
            "info_best": _rounded(self.info_best),
            "info_loss": _rounded(self.info_loss),
            "worlds": self.worlds,
            "verdict": self.verdict,
        }


@dataclass(frozen=True, slots=True)
class CallAnalysis:
    """One call of the bidding: the call made, the bot's call from the same view
    (None for a seat not asked), and the double-dummy score difference for the
    caller (his team's at four players, his own less the others' mean at three and
    two) of the calls weighed (see the module docstring)."""

    action: int
    seat: int
    call: str
    legal: tuple[str, ...]
    bot_call: str | None
    values: dict[str, int | None]

    @property
    def loss(self) -> int | None:
        """What the call made gave up against the best call weighed (None when the
        call made, or every other, has no value)."""
        made = self.values.get(self.call)
        known = [v for v in self.values.values() if v is not None]
        if made is None or not known:
            return None
        return max(known) - made

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "seat": SEAT_NAMES[self.seat],
            "call": self.call,
            "legal": list(self.legal),
            "bot_call": self.bot_call,
            "values": dict(self.values),
            "loss": self.loss,
        }


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One seat over the deals analysed: its cards, the points its cards lost
    double-dummy and given what it knew, its mistakes, its contracts."""

    seat: int
    cards: int = 0
    dd_lost: int = 0
    info_lost: float | None = None  # None: the information view not asked for this seat
    mistakes: int = 0
    unlucky: int = 0
    calls_lost: int = 0
    taken: int = 0
    made: int = 0
    biggest: tuple[tuple[int, CardAnalysis], ...] = ()  # (deal from 1, card), worst first

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": SEAT_NAMES[self.seat],
            "cards": self.cards,
            "dd_lost": self.dd_lost,
            "info_lost": _rounded(self.info_lost),
            "mistakes": self.mistakes,
            "unlucky": self.unlucky,
            "calls_lost": self.calls_lost,
            "taken": self.taken,
            "made": self.made,
            "biggest": [{"deal": deal, "action": c.action, "trick": c.trick,
                         "card": card_name(c.card), "best": _best_name(c),
                         "dd_loss": c.dd_loss, "info_loss": _rounded(c.info_loss),
                         "verdict": c.verdict} for deal, c in self.biggest],
        }


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """One deal analysed (see the module docstring); :meth:`to_json` is its JSON face
    (docs/json.md, `belote analyze`)."""

    profile: str
    players: int
    dealer: int
    finished: bool
    contract: dict[str, Any] | None
    outcome: str | None
    score: tuple[int, ...] | None
    trumps: dict[str, int | None]
    calls: tuple[CallAnalysis, ...]
    cards: tuple[CardAnalysis, ...]
    summary: tuple[PlayerSummary, ...]
    seats: tuple[int, ...]
    worlds: int | None
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "players": self.players,
            "dealer": SEAT_NAMES[self.dealer],
            "finished": self.finished,
            "contract": self.contract,
            "outcome": self.outcome,
            "score": None if self.score is None else list(self.score),
            "trumps": dict(self.trumps),
            "calls": [c.to_json() for c in self.calls],
            "cards": [c.to_json() for c in self.cards],
            "summary": [p.to_json() for p in self.summary],
            "seats": [SEAT_NAMES[s] for s in self.seats],
            "worlds": self.worlds,
            "seed": self.seed,
        }


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def _best_name(c: CardAnalysis) -> str | None:
    """The best card double dummy (the information view's where none): the card played
    when it is one of the best, else the lowest of them."""
    values: Mapping[Card, float] | None = c.dd if c.dd is not None else c.info
    if not values:
        return None
    top = max(values.values())
    if values.get(c.card) == top:
        return card_name(c.card)
    return card_name(min(k for k, v in values.items() if v == top))


# --- reading a record -------------------------------------------------------------------


def analyze_record(
    data: Any, *, worlds: int | None = None, seed: int = 0, seats: Iterable[int] | None = None,
    max_nodes: int | None = None, tolerance: float = DEFAULT_TOLERANCE,
    progress: Progress | None = None,
) -> list[DealAnalysis]:
    """Each deal of a record analysed (:func:`analyze_deal`): a deal's record
    (``{"profile", "options", "dealer", "deck", "actions"}``), a game's
    (``{"version": 1, ..., "deals"}``), or a `belote play` save file (the game under
    ``"match"``).  A record that is not one, or an action refused, raises
    :class:`~belote.errors.InvalidRecordError` saying where.  Deal *k* (from 0) draws
    its worlds from ``seed + k``; ``progress(done, total)`` counts the actions of
    every deal together."""
    if isinstance(data, dict) and isinstance(data.get("match"), dict) and "deck" not in data:
        data = data["match"]
    if isinstance(data, dict) and ("deals" in data or "version" in data):
        rounds = list(Match.from_record(data).rounds)
        if not rounds:
            raise InvalidRecordError("saved game: no deal to analyse")
    else:
        rounds = [Round.from_record(data)]
    sizes = [len(rnd.actions()) for rnd in rounds]
    total = sum(sizes)
    out = []
    for i, rnd in enumerate(rounds):
        step: Progress | None = None
        if progress is not None:
            step = _offset(progress, sum(sizes[:i]), total)
        out.append(analyze_deal(rnd, worlds=worlds, seed=seed + i, seats=seats,
                                max_nodes=max_nodes, tolerance=tolerance, progress=step))
    return out


def _offset(progress: Progress, before: int, total: int) -> Progress:
    """A deal's progress as the whole record's: its actions after ``before`` others."""
    def step(done: int, _of: int) -> None:
        progress(before + done, total)

    return step


def analyze_deal(
    record_or_round: Any, *, worlds: int | None = None, seed: int = 0,
    seats: Iterable[int] | None = None, max_nodes: int | None = None,
    tolerance: float = DEFAULT_TOLERANCE, progress: Progress | None = None,
) -> DealAnalysis:
    """One deal analysed, from its record (read by :meth:`Round.from_record`) or a
    :class:`~belote.round.Round` (its record read again).

    ``worlds``: the worlds the information view draws per decision (the bot's
    default, 64 at four players and 16 at three and two, when None); ``seed``: the
    seed of those draws (the same seed, the same numbers); ``seats``: the seats
    whose information view and bot calls are worked out (every seat when None; an
    empty list: double dummy only); ``max_nodes``: the positions one exact solve
    may search before the card is left ``unsolved`` (None: :data:`DEFAULT_NODES` at
    four players with the compiled search, else :data:`DEFAULT_NODES_PURE`);
    ``tolerance``: the information-view points within which a card counts as best;
    ``progress(done, total)`` is called after each action.
    """
    record = (record_or_round.record() if isinstance(record_or_round, Round)
              else record_or_round)
    full = Round.from_record(record)  # the whole record checked first: a refusal says where
    start = Round.from_record({**record, "actions": []})
    actions = full.actions()
    table = start.table
    asked = tuple(sorted(set(range(table.players) if seats is None else seats)))
    for s in asked:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < table.players:
            raise InvalidRecordError(f"seats: {s!r} is not a seat of this table")
    if max_nodes is None:
        max_nodes = DEFAULT_NODES if solver_engine().compiled else DEFAULT_NODES_PURE
    job = _Job(full, table, worlds, seed, asked, max_nodes, tolerance)
    job.prepare(record)
    rnd = start
    calls: list[CallAnalysis] = []
    cards: list[CardAnalysis] = []
    for i, action in enumerate(actions, start=1):
        if isinstance(action, Play):
            cards.append(job.card(rnd, action.card, i))
        elif isinstance(action, CallAction):
            calls.append(job.call(rnd, action, i))
        rnd.apply(action)
        if progress is not None:
            progress(i, len(actions))
    calls = [job.pass_filled(c) for c in calls]
    return job.result(calls, cards)


# --- the work ------------------------------------------------------------------------


class _Job:
    """One deal's analysis: the deal as played (``full``) and the settings."""

    def __init__(self, full: Round, table: Table, worlds: int | None, seed: int,
                 seats: tuple[int, ...], max_nodes: int, tolerance: float) -> None:
        self.full = full
        self.table = table
        self.rules = full.rules
        self.worlds = worlds
        self.seed = seed
        self.seats = seats
        self.max_nodes = max_nodes
        self.tolerance = tolerance
        self.play_hands: tuple[CardMask, ...] | None = None
        self.leader = -1
        self.beneath: dict[Card, Card] = {}
        self._solved: dict[tuple[Any, ...], int | None] = {}

    def prepare(self, record: dict[str, Any]) -> None:
        """The hands at the start of the card play (the deal's actions applied up to
        it), for the per-trump values and the pass of the bidding."""
        rnd = Round.from_record({**record, "actions": []})
        for action in self.full.actions():
            if rnd.phase is Phase.PLAY:
                break
            rnd.apply(action)
        if rnd.phase is Phase.PLAY:
            view = rnd.view(rnd.current_player())
            self.play_hands = tuple(rnd.hand(s) for s in range(self.table.players))
            self.leader = view.trick_leader
            self.beneath = _beneath(rnd, view)

    def _seed(self, action: int) -> int:
        return self.seed * 1009 + action

    # --- the cards ---

    def card(self, rnd: Round, played: Card, action: int) -> CardAnalysis:
        seat = rnd.current_player()
        view = rnd.view(seat)
        assert view.contract is not None
        legal = tuple(sorted(view.legal_cards))
        sides = self.table.sides(view.contract.taker)
        side = sides[seat]
        beneath = _beneath(rnd, view)
        hands = tuple(rnd.hand(s) for s in range(self.table.players))
        state = world_state(view, World(hands, 0, beneath), self.table)
        rest = _points_left(state, beneath)
        dd: dict[Card, int] | None = None
        if len(legal) > 1:  # (a forced card loses nothing: not searched)
            try:
                result = solve(state, max_nodes=self.max_nodes, beneath=beneath or None)
            except SearchLimitError:
                result = None
            if result is not None:
                dd = {c: _for_side(v, side, rest, state.tricks_won[0])
                      for c, v in result.moves.items()}
        info: dict[Card, float] | None = None
        worlds = 0
        if seat in self.seats and len(legal) > 1:
            info, worlds = information_values(view, worlds=self.worlds,
                                              seed=self._seed(action))
            if info:
                known = _points_left_seen(view, self.table)
                info = {c: v if side == 0 else known + LAST_TRICK + v for c, v in info.items()}
            else:
                info = None
        dd_best = max(dd.values()) if dd else None
        dd_loss = dd_best - dd[played] if dd is not None and dd_best is not None else None
        if len(legal) == 1:
            dd_loss = 0
        info_best = max(info.values()) if info else None
        info_loss = (info_best - info[played]
                     if info is not None and info_best is not None and played in info else None)
        return CardAnalysis(
            action, len(rnd.tricks) + 1, seat, played, legal, dd, dd_best, dd_loss, info,
            info_best, info_loss, worlds,
            _verdict(len(legal), dd_loss, info_loss, self.tolerance))

    # --- the bidding ---

    def call(self, rnd: Round, action: CallAction, index: int) -> CallAnalysis:
        seat = action.seat if action.seat is not None else rnd.current_player()
        view = rnd.view(seat)
        legal = tuple(view.legal_calls)
        bot_call: str | None = None
        if seat in self.seats and legal:
            bot = PimcBot(seed=self._seed(index))
            chosen = next_action(bot, view)
            assert isinstance(chosen, CallAction)
            bot_call = chosen.call
        values: dict[str, int | None] = {}
        if self.table.players == 4 and legal:
            for call in self._weighed(legal, action.call, bot_call):
                values[call] = self._call_value(rnd, view, call)
            values = _best_bids(values, {action.call, bot_call})
        elif self.table.mode in FIRST_HAND and legal:
            for call in self._weighed(legal, action.call, bot_call):
                values[call] = self._small_value(rnd, view, call, action.call)
        return CallAnalysis(index, seat, action.call, legal, bot_call, values)

    @staticmethod
    def _weighed(legal: tuple[str, ...], made: str, bot: str | None) -> list[str]:
        """The calls whose value is worked out: the call made, the bot's, a pass, every
        take of take-or-pass, or in an auction coinche, surcoinche and every bid but a
        capot or a générale (the best of each trump is kept, :func:`_best_bids`)."""
        out = ["pass"] if "pass" in legal else []
        for call in (made, bot):
            if call is not None and call not in out:
                out.append(call)
        for call in legal:
            if call in out:
                continue
            bid = parse_bid(call)
            if bid is None or bid.value not in (CAPOT, GENERALE):
                out.append(call)
        return out

    def _call_value(self, rnd: Round, view: PlayerView, call: str) -> int | None:
        """The double-dummy score difference for the caller's team of ``call`` as the
        end of the bidding (a pass: filled in later, :meth:`pass_filled`)."""
        if call == "pass":
            return None
        team = view.seat & 1
        if view.turned is not None and not self.rules.is_auction:
            twin = rnd.clone()
            twin.apply(CallAction(call))
            if twin.phase is not Phase.PLAY:  # pragma: no cover - four players: no kitty
                return None
            tview = twin.view(twin.current_player())
            assert tview.contract is not None
            hands = tuple(twin.hand(s) for s in range(4))
            option = Option(call, team, tview.contract.trump, None, 1)
            return self._scored(view, option, hands, tview.trick_leader)
        if self.play_hands is None:
            hands = tuple(rnd.hand(s) for s in range(4))
            leader = rnd.eldest
        else:
            hands, leader = self.play_hands, self.leader
        if call in ("coinche", "surcoinche"):
            current = current_contract(view)
            if current is None or current[0].bid is None:
                return None
            best, _ = current
            assert best.bid is not None
            option = Option(call, best.seat & 1, best.bid.trump, best.bid.value,
                            2 if call == "coinche" else 4)
        else:
            bid = parse_bid(call)
            if bid is None or bid.value == GENERALE:
                return None
            option = Option(call, team, bid.trump, bid.value, 1)
        return self._scored(view, option, hands, leader)

    def _small_value(self, rnd: Round, view: PlayerView, call: str,
                     made: str) -> int | None:
        """A table of three or two (§12): ``call``'s double-dummy value for the caller
        as the end of the bidding (a take: the caller's contract; a pass made: the
        contract the record reached, 0 when every seat passed, None when the record
        stops before the bidding's end; a pass not made: None, as at four players),
        scored as the bots' bidding search scores a contract
        (:meth:`belote.bots.small_bid.SmallBidSearch.value`: the caller's score less
        the others' mean)."""
        full = self.full
        if call == "pass":
            if made != "pass":
                return None
            if full.phase is Phase.ALL_PASS:
                return 0
            if full.contract is None or self.play_hands is None:
                return None
            return self._small_scored(rnd, view, full.contract.trump, full.contract.taker)
        if call == "take":
            assert view.turned is not None
            trump: TrumpMode = suit_of(view.turned)
        else:
            trump = SUIT_LETTERS.index(call)
        return self._small_scored(rnd, view, trump, view.seat)

    def _small_scored(self, rnd: Round, view: PlayerView, trump: TrumpMode,
                      taker: int) -> int | None:
        """The deal dealt as the engine deals it once ``taker`` took in ``trump`` (the
        kitty's discards: the record's when it reached that contract, else the
        heuristic's), solved exactly and scored for the seat (None past the budget)."""
        assert rnd.first is not None
        search = SmallBidSearch(view, worlds=1, nodes=self.max_nodes, min_worlds=1,
                                caution=0, hints=False, rollout=False)
        contract = self.full.contract
        laid = None
        if (self.table.mode is DealMode.KITTY and contract is not None
                and self.play_hands is not None
                and (contract.taker, contract.trump) == (taker, trump)):
            laid = self.full.discards
        world = SmallWorld(rnd.first.hands, rnd.first.stock)
        dealt = search.dealt(world, trump, taker, laid)
        state = dealt.state
        key = ("small", trump, taker, laid)
        if key not in self._solved:
            try:
                self._solved[key] = solve(state, moves=False, max_nodes=self.max_nodes).value
            except SearchLimitError:
                self._solved[key] = None
        v = self._solved[key]
        if v is None:
            return None
        return round(search.value(trump, taker, search.outcome(dealt, v))[0])

    def _scored(self, view: PlayerView, option: Option, hands: tuple[CardMask, ...],
                leader: int) -> int | None:
        """``option``'s score difference for the seat's team with these hands, double
        dummy from ``leader``'s lead (None past the search budget)."""
        key = (option.trump, hands, leader)
        if key not in self._solved:
            state = PlayState(self.rules, option.trump, list(hands), leader)
            try:
                self._solved[key] = solve(state, moves=False, max_nodes=self.max_nodes).value
            except SearchLimitError:
                self._solved[key] = None
        ns = self._solved[key]
        if ns is None:
            return None
        outcome = world_outcome(view, option.trump, list(hands), leader, ns)
        value, _ = BidScorer(view, 0, 0).value(option, outcome)
        return round(value)

    def pass_filled(self, c: CallAnalysis) -> CallAnalysis:
        """A pass made: the contract the record reached after it, double dummy (0 when
        every seat passed); a pass not made keeps None."""
        if c.call != "pass" or "pass" not in c.values or self.table.players != 4:
            return c
        contract = self.full.contract
        if self.full.phase is Phase.ALL_PASS:
            value: int | None = 0
        elif contract is None or self.play_hands is None:
            value = None
        else:
            view = self.full.view(c.seat)
            option = Option("pass", contract.taker & 1, contract.trump,
                            contract.value, contract.multiplier)
            if contract.value == GENERALE:
                value = None
            else:
                value = self._scored(view, option, self.play_hands, self.leader)
        return dataclasses.replace(c, values={**c.values, "pass": value})

    # --- the deal ---

    def trumps(self) -> dict[str, int | None]:
        """The deal's double-dummy value for the taker's side under each trump, from
        the opening lead with the hands of the card play."""
        contract = self.full.contract
        if contract is None or self.play_hands is None:
            return {}
        sides = self.table.sides(contract.taker)
        side = sides[contract.taker]
        modes: list[TrumpMode] = list(range(4))
        if self.rules.sa_ta or self.rules.sa_ta_in_classic:
            modes += [NO_TRUMP, ALL_TRUMP]
        if self.table.mode is DealMode.DECOUVERTE:
            modes = [contract.trump]  # §12.2: the trump is the last card dealt
        out: dict[str, int | None] = {}
        for trump in modes:
            state = PlayState(self.rules, trump, list(self.play_hands), self.leader,
                              teams=sides)
            try:
                v = solve(state, moves=False, max_nodes=self.max_nodes,
                          beneath=self.beneath or None).value
            except SearchLimitError:
                out[trump_name(trump)] = None
                continue
            out[trump_name(trump)] = _for_side(v, side, _points_left(state, self.beneath), 0)
        return out

    def result(self, calls: list[CallAnalysis], cards: list[CardAnalysis]) -> DealAnalysis:
        full = self.full
        contract = full.contract
        outcome: str | None = None
        score: tuple[int, ...] | None = None
        if full.phase is Phase.ALL_PASS:
            outcome = str(Outcome.VOID)
        elif full.phase is Phase.OVER:
            hand = full.result()
            outcome = str(hand.score.outcome)
            score = hand.seats if hand.seats is not None else hand.score.score
        described: dict[str, Any] | None = None
        if contract is not None:
            described = {"taker": SEAT_NAMES[contract.taker], "trump": trump_name(contract.trump),
                         "value": contract.value, "multiplier": contract.multiplier}
        made_by: int | None = None
        if contract is not None and outcome == str(Outcome.MADE):
            made_by = contract.taker
        taker = None if contract is None or self.table.mode is DealMode.DECOUVERTE \
            else contract.taker
        summary = summarize([(calls, cards, taker, made_by)], self.table.players, self.seats)
        return DealAnalysis(
            self.rules.profile, self.table.players, full.dealer,
            full.phase in (Phase.OVER, Phase.ALL_PASS), described, outcome, score,
            self.trumps(), tuple(calls), tuple(cards), tuple(summary), self.seats,
            self.worlds, self.seed,
        )


def information_values(
    view: PlayerView, *, worlds: int | None = None, seed: int = 0,
) -> tuple[dict[Card, float], int]:
    """The searching bot's expected card points for the seat's side of each legal card,
    from ``view`` alone (:meth:`belote.bots.pimc.PimcBot.evaluate`, default preset,
    ``objective=points``: side 0 of the solver's points, negated for side 1), and
    the worlds solved; ``{}`` when no world fits the view.  The same view and seed
    give the same numbers."""
    settings: dict[str, Any] = {"objective": "points"}
    if worlds is not None:
        settings["worlds"] = worlds
    bot = PimcBot(seed=seed, **settings)
    values = bot.evaluate(view)
    return dict(values), bot.last_worlds


# --- small pieces -----------------------------------------------------------------------


def _best_bids(values: dict[str, int | None], keep: set[str | None]) -> dict[str, int | None]:
    """Of the bids of an auction, the best-valued of each trump (the lowest on a tie),
    and those in ``keep``; every other call as it is."""
    best: dict[TrumpMode, tuple[int, int, str]] = {}
    for call, v in values.items():
        bid = parse_bid(call)
        if bid is None or v is None or not isinstance(bid.value, int):
            continue
        rank = (v, -bid.value, call)
        if bid.trump not in best or rank[:2] > best[bid.trump][:2]:
            best[bid.trump] = rank
    chosen = {call for _, _, call in best.values()}
    return {call: v for call, v in values.items()
            if parse_bid(call) is None or call in chosen or call in keep}


def _beneath(rnd: Round, view: PlayerView) -> dict[Card, Card]:
    """Belote découverte (§12.2): each face-up card still covering one (on the trick
    too) mapped to the face-down card under it; {} at any other table."""
    if rnd.piles is None:
        return {}
    return {up: down for pile in rnd.piles for down, up in pile if view.covering >> up & 1}


def _points_left(state: PlayState, beneath: Mapping[Card, Card]) -> int:
    """The card points still to be taken: in the hands, on the trick, face down."""
    pts = card_points(state.rules, state.trump)
    alive = 0
    for h in state.hands:
        alive |= h
    for c in state.trick:
        alive |= 1 << c
    for c in beneath.values():
        alive |= 1 << c
    return sum(pts[c] for c in scan_forward(alive))


def _points_left_seen(view: PlayerView, table: Table) -> int:
    """The card points still to be taken as the seat counts them: the pack's less the
    tricks completed and its own kitty discards (cards out of play that it does not
    see counted in: it cannot tell them apart)."""
    assert view.contract is not None
    pts = card_points(view.rules, view.contract.trump)
    gone = view.discards
    for t in view.tricks:
        for c in t.cards:
            gone |= 1 << c
    return sum(pts[c] for c in table.deck if not gone >> c & 1)


def _for_side(v: int, side: int, rest: int, won0: int) -> int:
    """Side 0's value of the rest (the solver's) as the points ``side`` takes: side 1
    takes the rest and the dix de der, nothing when side 0 makes the capot, or the
    rest and the capot's 100 when side 0, with no trick yet, takes nothing more."""
    if side == 0:
        return v
    if v > rest + LAST_TRICK:  # side 0 takes every trick: a capot
        return 0
    if v == 0 and won0 == 0:
        return rest + CAPOT_BONUS
    return rest + LAST_TRICK - v


def _verdict(legal: int, dd_loss: int | None, info_loss: float | None,
             tolerance: float) -> str:
    if legal == 1:
        return "forced"
    if dd_loss is None:
        if info_loss is None:
            return "unsolved"
        return "mistake" if info_loss > tolerance else "best"
    if info_loss is None:
        return "best" if dd_loss == 0 else "loss"
    if dd_loss == 0:
        return "lucky" if info_loss > tolerance else "best"
    return "mistake" if info_loss > tolerance else "unlucky"


def summarize(
    deals: Sequence[tuple[Sequence[CallAnalysis], Sequence[CardAnalysis], int | None, int | None]],
    players: int, seats: Iterable[int],
) -> list[PlayerSummary]:
    """Each seat over ``deals`` (each its calls, its cards, its taker and the taker when
    the contract was made): the points lost double dummy and given what the seat knew
    (for the ``seats`` asked), mistakes, unlucky cards, points lost in the bidding, the
    contracts taken and made, and the :data:`BIGGEST` mistakes (by the information
    view's loss where there is one, else the double-dummy loss), worst first."""
    asked = set(seats)
    out = []
    for seat in range(players):
        cards = [(d, c) for d, (_, cs, _, _) in enumerate(deals, start=1) for c in cs
                 if c.seat == seat]
        calls = [c for cs, _, _, _ in deals for c in cs if c.seat == seat]
        info = [c.info_loss for _, c in cards if c.info_loss is not None]
        worst = sorted(
            ((d, c) for d, c in cards if c.verdict in ("mistake", "loss", "lucky")),
            key=lambda dc: (-(dc[1].info_loss if dc[1].info_loss is not None
                              else dc[1].dd_loss or 0), -(dc[1].dd_loss or 0), dc[0],
                            dc[1].action))
        out.append(PlayerSummary(
            seat=seat,
            cards=len(cards),
            dd_lost=sum(c.dd_loss or 0 for _, c in cards),
            info_lost=sum(info) if seat in asked else None,
            mistakes=sum(1 for _, c in cards if c.verdict == "mistake"),
            unlucky=sum(1 for _, c in cards if c.verdict == "unlucky"),
            calls_lost=sum(c.loss or 0 for c in calls),
            taken=sum(1 for _, _, taker, _ in deals if taker == seat),
            made=sum(1 for _, _, _, made in deals if made == seat),
            biggest=tuple(worst[:BIGGEST]),
        ))
    return out


def game_summary(analyses: Sequence[DealAnalysis]) -> list[PlayerSummary]:
    """:func:`summarize` over the deals of a game."""
    if not analyses:
        return []
    deals = []
    for a in analyses:
        taker = made = None
        if a.contract is not None and a.outcome != str(Outcome.COUNTED):
            taker = SEAT_NAMES.index(a.contract["taker"])
            made = taker if a.outcome == str(Outcome.MADE) else None
        deals.append((a.calls, a.cards, taker, made))
    return summarize(deals, analyses[0].players, analyses[0].seats)

