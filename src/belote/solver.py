"""Double-dummy solver: the value of a card-play position with every hand known
(docs/rules.md §5, §6, §12).

:func:`solve` answers the points side 0 (NS at four players, the taker at three,
N at two) take from the remaining tricks of a :class:`~belote.play.PlayState`
when both sides play perfectly: side 0 maximises, side 1 minimises.  The cards
already on the current trick count for whoever wins it, and the last trick
carries its bonus, 10 ("dix de der"), or 100 when the side taking it then holds
every trick (capot, §5.1, §5.2).  It also gives the exact value after each legal
card of the seat to play.

:func:`minimax` is the plain, obviously correct full search that checks it, at
every table; :mod:`belote._table_search` holds a plain alpha-beta over
:class:`PlayState` for any table, the slow reference for longer positions.

One search runs at every table, :class:`belote._dds.Engine`: a table of ``n``
seats (2, 3 or 4), sides and partners from the position, tricks of ``n`` cards,
and belote découverte's face-down cards (``beneath``, §12.2), turned up into their
players' hands as the cards above them are played.  It comes in the build the
caller holds (:class:`SolverEngine`): the reference run by the interpreter, or
its C port.  How it searches (every step keeps the value exact):

- fail-soft alpha-beta on the points, driven by zero-window tests that bisect
  the range of values left (MTD-style);
- a transposition table at trick boundaries keyed on the hands, the leader
  and which sides have already won a trick (the capot bonus depends on it); the
  value stored is that of the remaining tricks, whatever was taken before;
- equivalent cards merged: two cards of one hand and suit with equal points and
  no live card of another hand between them in rank order (the 7 8 9 of a plain
  suit, the 7 8 of a trump suit) are searched once (never a card covering a
  face-down one: they turn up different cards);
- move ordering: the table's best lead first; then, with 5 tricks or more left,
  leads by a quick guess at the trick each brings (the others playing by rule of
  thumb), with fewer, master cards and points; when following, points to one's
  own side when it holds the trick, else winning cards, else the cheapest cards;
- quick bounds: the points left bound the value, and a leader who holds the top
  of every suit he holds, with no trump in the other hands and none face down,
  takes every trick;
- the search is one typed class, :class:`belote._dds.Engine`, the reference, run
  by the interpreter, and its line-for-line port to C (``belote/_dds_c.c``,
  compiled by ``bash scripts/build_solver.sh``; setup does it), which keys its
  table on the live cards, the leader and the flags (36 bits: within a solve the
  live cards give the hands) and packs each entry in one 64-bit word: the same
  values and node counts, some 20 to 60 times faster on full deals
  (``solve(..., engine=solver_engine("pure"))``, or ``BELOTE_SOLVER=pure`` for
  the default, picks the build);
- interpreted, the search runs at the start of a large chunk of CPython's frame
  stack (see :func:`_with_stack_room`), which halves its time.

>>> from belote.options import make_rules
>>> from belote.cards import parse_card, HEARTS
>>> hands = [sum(1 << parse_card(c) for c in h.split()) for h in
...     ("JH AS", "7H 7S", "9H TS", "8H KS")]
>>> state = PlayState(make_rules(), HEARTS, hands, leader=0, tricks_won=(3, 3))
>>> result = solve(state)
>>> result.value, result.to_json()["moves"]
(69, {'AS': 69, 'JH': 69})
>>> minimax(state)
69
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, TypeVar

from belote.cards import (
    ALL_TRUMP,
    CAPOT_LAST_TRICK_BONUS,
    LAST_TRICK_BONUS,
    SUIT_MASKS,
    TRUMP_SUIT_MASKS,
    Card,
    CardMask,
    TrumpMode,
    card_name,
    parse_card,
    parse_trump,
    scan_forward,
    suit_of,
)
from belote.errors import BeloteError, InvalidRecordError, OptionError
from belote.options import Rules, make_rules
from belote.play import (
    ABOVE,
    SEAT_NAMES,
    TEAM_NAMES,
    TRICKS_PER_HAND,
    PlayState,
    card_points,
    illegal_card,
)

if TYPE_CHECKING:
    from belote._dds import Engine

__all__ = ["SolveResult", "SolverEngine", "minimax", "parse_position", "reaches", "solve",
           "solve_json", "solve_value", "solver_engine"]


# Undertrump codes (docs/rules.md §6.3a `undertrump_partner`), as in belote.play.
_UNDER_CODES: Final = {
    "allowed": 0,
    "only_if_only_trumps": 1,
    "must_overtrump_if_only_trumps": 2,
}


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The double-dummy value of a position.

    ``value``: the points NS take from the remaining tricks (the cards on the
    current trick included) plus the last-trick bonus, with perfect play.
    ``moves``: that value after each legal card of the seat to play (empty when
    :func:`solve` was asked for the value only).
    ``nodes``: the positions searched.
    """

    value: int
    moves: dict[Card, int]
    nodes: int

    def ranked(self, maximize: bool) -> list[Card]:
        """The legal cards in ``moves``, best first for the seat to play (``maximize``:
        its side is NS, side 0, whose points ``moves`` counts), equal values in deck
        order (so the first is the lowest of the best)."""
        moves = self.moves
        return sorted(moves, key=lambda c: (-moves[c] if maximize else moves[c], c))

    def to_json(self) -> dict[str, object]:
        """The JSON form (docs/json.md): moves keyed by canonical card names, in deck order."""
        return {
            "value": self.value,
            "moves": {card_name(c): self.moves[c] for c in sorted(self.moves)},
            "nodes": self.nodes,
        }


# --- the plain reference search ----------------------------------------------------


def minimax(state: PlayState, beneath: Mapping[Card, Card] | None = None) -> int:
    """The value of :func:`solve` by full minimax, no pruning (slow; for checks).

    Plays every legal card with :meth:`PlayState.push` to the end of the hand and
    reads side 0's trick points (NS at four; the taker at three, N at two), side 0
    maximising; ``beneath`` turns découverte's face-down cards up as the cards
    above them are played (§12.2).  ``state`` is left as it was.
    """
    s = state.copy()
    n = s.players
    under = dict(beneath or {})
    start = s.trick_points[0]

    def value() -> int:
        if s.is_over():
            return s.trick_points[0] - start
        results = []
        for c in s.legal_cards():
            done = len(s.tricks)
            s.push(c)
            shown: list[tuple[int, Card]] = []
            if len(s.tricks) > done:
                t = s.tricks[-1]
                for i, x in enumerate(t.cards):
                    if x in under:
                        shown.append(((t.leader + i) % n, under[x]))
                        s.hands[(t.leader + i) % n] |= 1 << under[x]
            results.append(value())
            for p, u in shown:
                s.hands[p] &= ~(1 << u)
            s.pop()
        return max(results) if s.team(s.turn) == 0 else min(results)

    return value()


# --- tables -------------------------------------------------------------------------


@functools.cache
def _tables(trump: TrumpMode) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``above[c]``: the cards of c's suit ranking above c; ``beat[c]``: the cards
    that take a trick from c, its master card (above it, or any trump if c is not
    one)."""
    above = ABOVE[trump]
    trumps = TRUMP_SUIT_MASKS[trump]
    beat = tuple(m if (trumps >> c) & 1 else m | trumps for c, m in enumerate(above))
    return above, beat


def _low_merge_table() -> tuple[int, ...]:
    """For the three lowest cards of a plain suit (7 8 9: bits 0..2, worth 0 and
    adjacent in rank order): index ``held | others << 3`` gives the held cards to
    search, one per run of held cards that no card of another hand separates."""
    table = []
    for index in range(64):
        held, others = index & 7, index >> 3
        keep = 0
        in_run = False
        for bit in range(3):
            if (held >> bit) & 1:
                if not in_run:
                    keep |= 1 << bit
                in_run = True
            elif (others >> bit) & 1:
                in_run = False
        table.append(keep)
    return tuple(table)


_LOW_MERGE: Final = _low_merge_table()


def _low_cards(trump: TrumpMode) -> tuple[tuple[bool, ...], CardMask]:
    """Which suits rank as trumps, and the mask of the zero-point bottom cards that
    can be equivalent: 7 8 9 of a plain suit, 7 8 of a trump suit (docs/rules.md §5)."""
    trump_like = tuple(trump == ALL_TRUMP or s == trump for s in range(4))
    low = 0
    for s in range(4):
        low |= (3 if trump_like[s] else 7) << (8 * s)
    return trump_like, low


def _groups(kept: CardMask, moves: CardMask) -> list[tuple[Card, list[Card]]]:
    """The cards of ``moves`` by equivalence class, ``kept`` being those searched
    (``Engine.merge``: the others share the value of the next lower kept card):
    pairs of the card searched and the cards that share its value."""
    groups: dict[Card, list[Card]] = {}
    rep = -1
    for c in range(32):
        if (moves >> c) & 1:
            if (kept >> c) & 1:
                rep = c
                groups[c] = [c]
            else:
                groups[rep].append(c)  # an equivalent card follows its lower twin
    return list(groups.items())


_ByteTable = tuple[tuple[int, ...], ...]  # per suit, per byte of the suit's 8 bits


@functools.cache
def _extreme_tables(pts: tuple[int, ...]) -> tuple[_ByteTable, _ByteTable]:
    """Per suit and byte of a card mask: the card with the fewest points (ties: the
    lowest) and the one with the most (ties: the highest); -1 for no card."""
    cheap = []
    dear = []
    for s in range(4):
        row_c = []
        row_d = []
        for byte in range(256):
            cards = [s * 8 + r for r in range(8) if (byte >> r) & 1]
            row_c.append(min(cards, key=lambda c: (pts[c], c)) if cards else -1)
            row_d.append(max(cards, key=lambda c: (pts[c], c)) if cards else -1)
        cheap.append(tuple(row_c))
        dear.append(tuple(row_d))
    return (tuple(cheap), tuple(dear))


# --- the search ---------------------------------------------------------------------
#
# The search itself is :class:`belote._dds.Engine`, one typed class run by the
# interpreter (the reference), and its line-for-line port to C,
# ``belote/_dds_c.c``, that ``bash scripts/build_solver.sh`` compiles into the
# extension module ``belote._dds_c`` (same values, same node counts).

SOLVER_ENGINES: Final = ("auto", "pure", "compiled")


@functools.cache
def _load_compiled() -> ModuleType | None:
    """``belote._dds_c``, the search in C, where it is built, else None (looked up
    once per process: the build does not come or go while it runs).  A build of
    another version of the search than the reference's (``VERSION``, absent from
    the builds made before it) counts as missing: it is out of date, and ``bash
    scripts/build_solver.sh`` makes it again."""
    try:
        module = importlib.import_module("belote._dds_c")
    except ImportError:
        return None
    return module if getattr(module, "VERSION", None) == _load_source().VERSION else None


@functools.cache
def _load_source() -> ModuleType:
    """``belote/_dds.py`` run by the interpreter (loaded from the source file if
    ``belote._dds`` is an old compiled build of it)."""
    from belote import _dds

    if (_dds.__file__ or "").endswith(".py"):
        return _dds
    path = Path(__file__).with_name("_dds.py")
    spec = importlib.util.spec_from_file_location("belote._dds_source", path)
    if spec is None or spec.loader is None:  # pragma: no cover - the source ships
        raise OptionError(f"solver engine 'pure': cannot load {str(path)!r}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True, slots=True)
class SolverEngine:
    """One build of the search: ``compiled`` (the C build, ``belote._dds_c``) or
    ``pure`` (``belote/_dds.py`` run by the interpreter), and the module that holds
    its ``Engine``.  Both give the same values and node counts; a caller holds the
    one it wants and hands it to :func:`solve` (see :func:`solver_engine`)."""

    name: str
    module: ModuleType

    @property
    def compiled(self) -> bool:
        return self.name == "compiled"


def solver_engine(choice: str | None = None) -> SolverEngine:
    """The build of the search named ``choice``: ``pure``, ``compiled`` or ``auto``
    (compiled where it is built, else pure).  ``None`` reads the environment
    variable ``BELOTE_SOLVER`` (``auto`` when unset), now.  Raises
    :class:`~belote.errors.OptionError` for an unknown name, or for ``compiled``
    where the C build is missing."""
    if choice is None:
        choice = os.environ.get("BELOTE_SOLVER", "auto").strip().lower() or "auto"
    if choice not in SOLVER_ENGINES:
        raise OptionError(f"solver engine {choice!r}: one of {', '.join(SOLVER_ENGINES)}")
    compiled = _load_compiled()
    if choice == "compiled" and compiled is None:
        raise OptionError(
            "solver engine 'compiled': belote._dds_c is not compiled here (or is out of "
            "date; build it with: bash scripts/build_solver.sh)"
        )
    if compiled is not None and choice != "pure":
        return SolverEngine("compiled", compiled)
    return SolverEngine("pure", _load_source())


class SearchLimitError(Exception):
    """A solve stopped because it searched more positions than ``max_nodes``."""

    def __init__(self, nodes: int) -> None:
        super().__init__(f"the search passed its limit after {nodes} positions")
        self.nodes = nodes


_EngineTables = tuple[list[int], list[int], list[int], list[int], list[bool], int, int, int, bool,
                      bool, int, bool, int, int, list[int] | bytes, list[int] | bytes, list[int]]
def _engine_tables(rules: Rules, trump: TrumpMode, compact: bool = False) -> _EngineTables:
    """The arguments of :class:`belote._dds.Engine` from ``pts`` to ``low_merge``
    under these rules and trump (made once per combination; never mutated).
    ``compact``: ``cheap`` and ``dear`` as bytes (each card a signed byte), which
    the C build reads at once."""
    pts = card_points(rules, trump)
    # Following the led suit: must rise over the master card (§6.1 TA, §6.2), and
    # also over the partner's when he leads trumps (§6.2 option).
    rise_on_partner = trump == ALL_TRUMP or rules.overtrump_partner_on_trump_lead
    return _tables_of(trump, pts, rise_on_partner, rules.partner_master_exemption,
                      rules.undertrump_partner, rules.must_undertrump, compact)


@functools.cache
def _tables_of(trump: TrumpMode, pts: tuple[int, ...], rise_on_partner: bool, exempt: bool,
               undertrump_partner: str, must_undertrump: bool, compact: bool) -> _EngineTables:
    """:func:`_engine_tables` for what they depend on (made once per combination)."""
    above, beat = _tables(trump)
    trump_like, low_cards = _low_cards(trump)
    cheap, dear = _extreme_tables(pts)
    flat_cheap = [c for row in cheap for c in row]
    flat_dear = [c for row in dear for c in row]
    tables: _EngineTables = (
        list(pts), list(above), list(beat), list(SUIT_MASKS), list(trump_like),
        low_cards, int(trump), TRUMP_SUIT_MASKS[trump],
        rise_on_partner, exempt, _UNDER_CODES[undertrump_partner], must_undertrump,
        LAST_TRICK_BONUS, CAPOT_LAST_TRICK_BONUS,
        bytes(c & 0xFF for c in flat_cheap) if compact else flat_cheap,
        bytes(c & 0xFF for c in flat_dear) if compact else flat_dear,
        list(_LOW_MERGE),
    )
    return tables


# --- room for the recursion ----------------------------------------------------------

_T = TypeVar("_T")
_RESERVE_SLOTS: Final = 8192


def _with_stack_room(fn: Callable[[], _T]) -> _T:
    """Call ``fn`` at the start of a large chunk of CPython's frame stack.

    CPython (3.11 and later) keeps Python frames in chunks of 16 KiB: a call that
    does not fit in the current chunk maps a new one, which is unmapped as soon
    as that call returns.  A search whose depth goes back and forth across a
    chunk's end pays an ``mmap`` and a ``munmap`` at each crossing: measured, tens
    of thousands per full deal and up to half the run time.  A frame with 8192
    local variables cannot fit in a 16 KiB chunk, so it opens a 128 KiB one, and
    the search called from it (about 35 frames of some 600 bytes) stays inside.
    """
    return _reserve()(fn)  # type: ignore[return-value]


@functools.cache
def _reserve() -> Callable[[Callable[[], object]], object]:
    """The function with the 8192-slot frame of :func:`_with_stack_room` (made once)."""
    names = " = ".join(f"_{i}" for i in range(_RESERVE_SLOTS))
    source = (
        "def reserve(fn, unused=None):\n"
        "    if unused is not None:  # never: the names only size the frame\n"
        f"        {names} = unused\n"
        "    return fn()\n"
    )
    namespace: dict[str, Callable[[Callable[[], object]], object]] = {}
    exec(compile(source, "<belote.solver reserve>", "exec"), namespace)
    return namespace["reserve"]


# --- driving the search -------------------------------------------------------------


def _value(search: Callable[[int, int], int], guess: int, hints: Sequence[int], lo: int,
           hi: int) -> int:
    """The exact value in ``[lo, hi]`` by zero-window tests of the fail-soft
    ``search(alpha, beta)`` (``search(t - 1, t) >= t`` iff the value is at least
    ``t``).  The tests go first to each hinted value ``w`` and ``w + 1`` (a value
    is pinned by those two), or else to ``guess``, then halve what is left."""
    tested: set[int] = set()
    pending = [t for w in hints for t in (w, w + 1)] or [guess]
    while lo < hi:
        g = -1
        while pending:
            t = pending.pop(0)
            if lo < t <= hi and t not in tested:
                g = t
                break
        if g < 0:
            g = (lo + hi + 1) // 2
        tested.add(g)
        v = search(g - 1, g)
        if v < g:
            hi = v
        else:
            lo = v
    return lo


def solve(
    state: PlayState, moves: bool = True, max_nodes: int | None = None,
    engine: SolverEngine | None = None, beneath: Mapping[Card, Card] | None = None,
    guesses: Sequence[int] = (),
) -> SolveResult:
    """The double-dummy value of ``state`` and, with ``moves``, of each legal card.

    ``state`` is left as it was; its ``tricks_won`` decide the capot bonus.  Cards
    of one hand that cannot lead to different results (same suit, equal points,
    no live card of another hand between them) share one search.  With
    ``moves=False`` only the value is searched (faster) and ``moves`` is empty.
    ``max_nodes`` bounds the work: past that many positions the search stops with
    :class:`SearchLimitError` (and ``state`` is still as it was); it is checked
    where a trick starts at four players, at every position at a table of two or
    three or with ``beneath``.  ``engine``: the build of the search to run
    (default: :func:`solver_engine`'s, from the environment).  ``beneath``: belote
    découverte's face-down cards, each face-up card still covering one (on the
    trick too) mapped to that card (§12.2).  At a table of two or three the value
    is side 0's (the taker at three, N at two).  The search is driven by
    zero-window tests, each card's value found from the values found so far.
    ``guesses`` (with ``moves=False``): values the position's is likely near (another
    position's, much alike), where the tests go first (see :func:`_value`); the value
    is the same whatever they are, only the positions searched differ.
    """
    if state.is_over():
        return SolveResult(0, {}, 0)
    build = engine if engine is not None else solver_engine()
    pts = card_points(state.rules, state.trump)
    search, alive = _engine(build, state, _hands(state), beneath or {}, max_nodes)
    seat = state.turn
    trick = list(state.trick)
    k = len(trick)
    flags = (1 if state.tricks_won[0] else 0) | (2 if state.tricks_won[1] else 0)
    tmask = 0
    for c in trick:
        tmask |= 1 << c
    rem = sum(pts[c] for c in scan_forward(alive))
    tpts = sum(pts[c] for c in trick)
    top = rem + (LAST_TRICK_BONUS if flags & 2 else CAPOT_LAST_TRICK_BONUS)
    mcard, mseat = state.master()
    led = suit_of(trick[0]) if trick else 0
    maximize = state.team(seat) == 0

    def root(alpha: int, beta: int) -> int:
        if k == 0:
            return search.boundary(seat, flags, rem, alpha, beta)
        return search.follow(seat, k, led, mcard, mseat, tpts, tmask, flags, rem, alpha, beta)

    def after(c: Card) -> Callable[[int, int], int]:
        """The search of the position after the seat to play plays ``c``."""
        return lambda alpha, beta: search.play(seat, k, led, mcard, mseat, tpts, tmask, flags,
                                               rem, c, alpha, beta)

    def run_all() -> tuple[int, dict[Card, int]]:
        return _values_of(state, moves, search.merge, alive ^ state.hands[seat], root, after,
                          rem // 2, top, maximize, guesses)

    # The C build recurses on the C stack: room in Python's frame stack is for the
    # reference only.
    value, values = run_all() if build.compiled else _with_stack_room(run_all)
    return SolveResult(value, values, search.node_count())


def _values_of(
    state: PlayState, moves: bool, merge: Callable[[CardMask, CardMask], CardMask],
    kept: CardMask, root: Callable[[int, int], int],
    after: Callable[[Card], Callable[[int, int], int]], guess: int, top: int, maximize: bool,
    guesses: Sequence[int] = (),
) -> tuple[int, dict[Card, int]]:
    """The value of the position (``root``'s search) and, with ``moves``, each legal
    card's (``after(card)``'s), cards that cannot differ (``merge`` over the live cards
    of the others, ``kept``) searched once.  The values found so far are the first
    guesses for the next card (cards often share a value); without ``moves``, the
    caller's ``guesses`` are the position's."""
    if not moves:
        return _value(root, guess, guesses, 0, top), {}
    values: dict[Card, int] = {}
    seen: list[int] = []
    legal = state.legal_mask()
    for rep, group in _groups(merge(legal, kept), legal):
        v = _value(after(rep), guess, seen, 0, top)
        if v not in seen:
            seen.append(v)
            seen.sort(reverse=maximize)
        for c in group:
            values[c] = v
    best = max(values.values()) if maximize else min(values.values())
    return best, values


def _hands(state: PlayState) -> list[CardMask]:
    """The hands an engine searches: a copy of the state's, four (the seats past the
    table's empty)."""
    return list(state.hands) + [0] * (4 - state.players)


def _engine(
    build: SolverEngine, state: PlayState, h: list[CardMask], beneath: Mapping[Card, Card],
    max_nodes: int | None,
) -> tuple[Engine, CardMask]:
    """A :class:`belote._dds.Engine` of ``build`` searching ``state`` (its hands ``h``,
    from :func:`_hands`: the search mutates them) with découverte's face-down cards
    ``beneath``, with a fresh transposition table, and the mask of every card still
    to be played (in the hands, on the trick, face down)."""
    n = state.players
    own = list(state.hands)
    alive = 0
    for i, c in enumerate(state.trick):
        own[(state.leader + i) % n] |= 1 << c
    for m in own:
        alive |= m
    under = [0] * 32
    hidden = 0
    for up, down in beneath.items():
        if (alive >> up) & 1:
            under[up] = 1 << down
            hidden |= 1 << down
            for seat in range(n):
                if (own[seat] >> up) & 1:
                    own[seat] |= 1 << down
    module = build.module
    search: Engine = module.Engine(
        h, {},
        *_engine_tables(state.rules, state.trump, bool(getattr(module, "COMPACT_TABLES", False))),
        max_nodes if max_nodes is not None else 1 << 62, SearchLimitError,
        [state.team(p) for p in range(n)], [state.partner(p) for p in range(n)], own, under,
        hidden, n != 4 or bool(beneath),
    )
    return search, alive | hidden


def reaches(
    state: PlayState, points: int, max_nodes: int | None = None,
    engine: SolverEngine | None = None, beneath: Mapping[Card, Card] | None = None,
) -> tuple[bool, int, int]:
    """Whether side 0 takes at least ``points`` from the remaining tricks of ``state``
    (the last trick's bonus included) with perfect play, by one zero-window search
    (every table; far fewer positions than :func:`solve`'s value needs; the tests
    check the small tables' bidding values against it).

    Returns the answer, a bound of side 0's value on the answer's side (at least
    ``points`` when yes, below it when no: the fail-soft search's) and the positions
    searched.  ``max_nodes``, ``engine`` and ``beneath`` as in :func:`solve`;
    ``state`` is left as it was.
    """
    if state.is_over():
        return points <= 0, 0, 0
    build = engine if engine is not None else solver_engine()
    search, alive = _engine(build, state, _hands(state), beneath or {}, max_nodes)
    pts = card_points(state.rules, state.trump)
    trick = state.trick
    flags = (1 if state.tricks_won[0] else 0) | (2 if state.tricks_won[1] else 0)
    rem = sum(pts[c] for c in scan_forward(alive))

    def run() -> int:
        if not trick:
            return search.boundary(state.turn, flags, rem, points - 1, points)
        mcard, mseat = state.master()
        tmask = 0
        for c in trick:
            tmask |= 1 << c
        return search.follow(state.turn, len(trick), suit_of(trick[0]), mcard, mseat,
                             sum(pts[c] for c in trick), tmask, flags, rem, points - 1, points)

    value = run() if build.compiled else _with_stack_room(run)
    return value >= points, value, search.node_count()


def solve_value(state: PlayState) -> int:
    """The value of :func:`solve` alone (faster: no exact value for each card)."""
    return solve(state, moves=False).value


# --- the JSON face (docs/json.md, `belote solve`) -------------------------------------

SOLVE_KEYS: Final = ("profile", "options", "trump", "hands", "leader", "trick", "tricks_won")


def _card_at(value: Any, where: str) -> Card:
    try:
        return parse_card(value)
    except BeloteError as exc:
        raise InvalidRecordError(f"{where}: {exc}") from None


def _seat_at(value: Any, where: str) -> int:
    if isinstance(value, str) and value.strip().upper() in SEAT_NAMES:
        return SEAT_NAMES.index(value.strip().upper())
    raise InvalidRecordError(f"{where}: {value!r} is not a seat (N, E, S, W)")


def _cards_at(value: Any, where: str, seen: dict[Card, str]) -> list[Card]:
    if not isinstance(value, list):
        raise InvalidRecordError(f"{where}: expected a list of cards, got {value!r}")
    cards = []
    for i, text in enumerate(value):
        c = _card_at(text, f"{where}[{i}]")
        if c in seen:
            raise InvalidRecordError(f"{where}[{i}]: {card_name(c)} is also in {seen[c]}")
        seen[c] = where
        cards.append(c)
    return cards


def parse_position(obj: Any) -> PlayState:
    """The position of a `belote solve` input (docs/json.md), checked.

    ``hands`` hold the cards each seat still has; ``trick`` the cards already
    played to the current trick from ``leader`` on (their players hold one card
    fewer); ``tricks_won`` the tricks each team holds, which with the tricks left
    make 8.  Every card must be held once; the trick's cards must have been legal
    (docs/rules.md §6).  Errors name the field.
    """
    if not isinstance(obj, dict):
        raise InvalidRecordError(f"input: expected a JSON object, got {type(obj).__name__}")
    unknown = [key for key in obj if key not in SOLVE_KEYS]
    if unknown:
        raise InvalidRecordError(
            f"input: unknown key {unknown[0]!r} (keys: {', '.join(SOLVE_KEYS)})"
        )
    rules = make_rules(obj.get("profile", "classic"), obj.get("options") or {})
    if rules.players != 4:
        raise InvalidRecordError(
            f"profile: {rules.profile!r} is for {rules.players} players; the solver plays four"
        )
    for key in ("trump", "hands", "leader"):
        if key not in obj:
            raise InvalidRecordError(f"input: {key!r} is missing")
    try:
        trump = parse_trump(obj["trump"])
    except BeloteError as exc:
        raise InvalidRecordError(f"trump: {exc}") from None
    leader = _seat_at(obj["leader"], "leader")
    raw_hands = obj["hands"]
    if not isinstance(raw_hands, dict):
        raise InvalidRecordError(f"hands: expected an object of seats, got {raw_hands!r}")
    for key in raw_hands:
        _seat_at(key, "hands: key")
    seen: dict[Card, str] = {}
    trick = _cards_at(obj.get("trick", []), "trick", seen)
    if len(trick) > 3:
        raise InvalidRecordError(
            f"trick: {len(trick)} cards; a trick in progress has at most 3 (the fourth ends it)"
        )
    hands: list[CardMask] = [0, 0, 0, 0]
    for seat, name in enumerate(SEAT_NAMES):
        if name not in raw_hands:
            raise InvalidRecordError(f"hands: seat {name} is missing")
        for c in _cards_at(raw_hands[name], f"hands.{name}", seen):
            hands[seat] |= 1 << c
    # Hand sizes: the seats that played to the trick hold one card fewer.
    to_play = (leader + len(trick)) & 3
    left = hands[to_play].bit_count()
    if left == 0 and trick:
        raise InvalidRecordError(
            f"hands.{SEAT_NAMES[to_play]}: no card left to play to the trick in progress"
        )
    for i in range(4):
        seat = (leader + i) & 3
        want = left - (1 if i < len(trick) else 0)
        have = hands[seat].bit_count()
        if have != want:
            played = " (it played to the trick)" if i < len(trick) else ""
            raise InvalidRecordError(
                f"hands.{SEAT_NAMES[seat]}: {have} cards, expected {want}{played}: "
                f"{SEAT_NAMES[to_play]}, to play, holds {left}"
            )
    if left > TRICKS_PER_HAND:
        raise InvalidRecordError(f"hands: {left} cards each, at most {TRICKS_PER_HAND}")
    won = _tricks_won(obj.get("tricks_won", {}), TRICKS_PER_HAND - left)
    # The trick so far, played from the hands it came from, card by card (§6).
    for c, seat in zip(trick, range(leader, leader + len(trick)), strict=False):
        hands[seat & 3] |= 1 << c
    state = PlayState(rules, trump, hands, leader, tricks_left=left, tricks_won=won)
    for i, c in enumerate(trick):
        err = illegal_card(state, c, (f"trick[{i}]",))
        if err is not None:
            raise err
        state.push(c)
    return state


def _tricks_won(value: Any, done: int) -> tuple[int, int]:
    """``{"NS": n, "EW": m}`` with ``n + m == done`` (the tricks already played)."""
    if not isinstance(value, dict):
        raise InvalidRecordError(f"tricks_won: expected an object such as "
                                 f'{{"NS": 0, "EW": 0}}, got {value!r}')
    counts = [0, 0]
    for key, count in value.items():
        if key not in TEAM_NAMES:
            raise InvalidRecordError(f"tricks_won: {key!r} is not a team (NS, EW)")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InvalidRecordError(f"tricks_won.{key}: {count!r} is not a number of tricks")
        counts[TEAM_NAMES.index(key)] = count
    if counts[0] + counts[1] != done:
        raise InvalidRecordError(
            f"tricks_won: NS {counts[0]} + EW {counts[1]} = {counts[0] + counts[1]} tricks, "
            f"but {TRICKS_PER_HAND - done} are left to play, so {done} were played"
        )
    return counts[0], counts[1]


def solve_json(obj: Any) -> dict[str, Any]:
    """The answer of `belote solve` (docs/json.md) to one input object:
    ``{"value", "moves", "nodes"}``, moves keyed by canonical card names."""
    return solve(parse_position(obj)).to_json()
