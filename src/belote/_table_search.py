"""The slow reference search of the solver for any table: :class:`TableSearch`, a
plain alpha-beta over :class:`~belote.play.PlayState` (2, 3 or 4 seats, découverte's
face-down cards), and :func:`solve_table`, :func:`belote.solver.solve`'s answer by it.

The solver runs :class:`belote._dds.Engine`; this search, written for any table
from the rules' own :class:`PlayState` and nothing of the engine's (no merged
cards, no bounds, no tables of its own), is kept as the obviously correct, slow
reference the engine is tested against (with :func:`belote.solver.minimax`, which
it beats on longer positions): ``tests/test_small_solver.py`` and
``tests/test_solver.py``, and ``benchmarks/bench_small_solver.py``'s baseline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from belote.cards import SUIT_OF, Card, CardMask, order_table, scan_forward
from belote.play import PlayState, card_points
from belote.solver import SearchLimitError, SolveResult

__all__ = ["TableSearch", "solve_table"]

_INF: Final = 1 << 20


class TableSearch:
    """The slow reference search for any table (2, 3 or 4 seats, sides from the state),
    which :class:`belote._dds.Engine` is tested against (``solve`` runs that one):
    fail-soft alpha-beta on side 0's points over a :class:`PlayState` pushed and
    popped in place (left as it was), a transposition table at trick boundaries
    keyed on the hands, the leader and which sides have won a trick, moves ordered
    by a rule of thumb, and découverte's face-down cards (``beneath``) turned up at
    each trick's end (§12.2)."""

    def __init__(
        self, state: PlayState, beneath: Mapping[Card, Card] | None, max_nodes: int | None
    ) -> None:
        self.s = state
        self.n = state.players
        self.beneath = dict(beneath or {})
        self.max_nodes = max_nodes
        self.nodes = 0
        self.tt: dict[tuple[int, ...], tuple[int, int]] = {}
        self.sides = tuple(state.team(p) for p in range(self.n))
        self.order = order_table(state.trump)
        self.points = card_points(state.rules, state.trump)
        self.revealed: list[tuple[tuple[int, Card], ...]] = []
        # Playing a card and taking it back: the state's own, unless face-down cards
        # are to be turned up (a bound method called direct: a hot path).
        self.push: Callable[[Card], None] = self._reveal if self.beneath else state.push
        self.pop: Callable[[], object] = self._hide if self.beneath else state.pop

    def _reveal(self, c: Card) -> None:
        """Play ``c``; at a trick's end turn up the cards under those just played."""
        s = self.s
        before = len(s.tricks)
        s.push(c)
        out: tuple[tuple[int, Card], ...] = ()
        if len(s.tricks) > before:
            t = s.tricks[-1]
            shown = []
            for i, x in enumerate(t.cards):
                u = self.beneath.get(x)
                if u is not None:
                    p = (t.leader + i) % self.n
                    s.hands[p] |= 1 << u
                    shown.append((p, u))
            out = tuple(shown)
        self.revealed.append(out)

    def _hide(self) -> None:
        """Take back the last card and the cards it turned up."""
        for p, u in self.revealed.pop():
            self.s.hands[p] &= ~(1 << u)
        self.s.pop()

    def ordered(self, moves: CardMask) -> list[Card]:
        """Cards to try, best first by a rule of thumb (only the speed depends on it)."""
        s = self.s
        order, points = self.order, self.points
        suit = SUIT_OF  # a table, not suit_of(): asked some ten times a position
        cards = list(scan_forward(moves))
        trump = s.trump
        if not s.trick:
            return sorted(cards, key=lambda c: (-order[c] - 8 * (suit[c] == trump), -points[c]))
        master, mseat = s.master()
        led, top = suit[master], order[master]
        friend = self.sides[mseat] == self.sides[s.turn]

        def key(c: Card) -> tuple[int, int]:
            wins = order[c] > top if suit[c] == led else suit[c] == trump
            if friend:
                return (0, -points[c]) if not wins else (1, order[c])
            return (0, order[c]) if wins else (1, points[c])

        return sorted(cards, key=key)

    def search(self, alpha: int, beta: int) -> int:
        s = self.s
        if s.tricks_left == 0:
            return 0
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimitError(self.nodes)
        key: tuple[int, ...] | None = None
        if not s.trick:
            flags = (s.tricks_won[0] > 0) | (s.tricks_won[1] > 0) << 1
            key = (*s.hands, s.leader, flags)
            entry = self.tt.get(key)
            if entry is not None:
                lo, hi = entry
                if lo >= beta:
                    return lo
                if hi <= alpha or lo == hi:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
        maximise = self.sides[s.turn] == 0
        best = -_INF if maximise else _INF
        a, b = alpha, beta
        push, pop, points = self.push, self.pop, s.trick_points
        for c in self.ordered(s.legal_mask()):
            before = points[0]
            push(c)
            gained = points[0] - before
            v = gained + self.search(a - gained, b - gained)
            pop()
            if maximise:
                if v > best:
                    best = v
                    if v > a:
                        a = v
            elif v < best:
                best = v
                if v < b:
                    b = v
            if a >= b:
                break
        if key is not None:
            lo, hi = self.tt.get(key, (-_INF, _INF))
            if best <= alpha:
                hi = min(hi, best)
            elif best >= beta:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi)
        return best


def solve_table(
    state: PlayState, beneath: Mapping[Card, Card] | None, moves: bool, max_nodes: int | None
) -> SolveResult:
    """:func:`solve` by :class:`TableSearch` (every table; découverte's ``beneath``)."""
    search = TableSearch(state, beneath, max_nodes)
    values: dict[Card, int] = {}
    if not moves:
        value = search.search(-_INF, _INF)
        return SolveResult(value, values, search.nodes)
    maximise = search.sides[state.turn] == 0
    for c in search.ordered(state.legal_mask()):
        before = state.trick_points[0]
        search.push(c)
        gained = state.trick_points[0] - before
        values[c] = gained + search.search(-_INF, _INF)
        search.pop()
    value = max(values.values()) if maximise else min(values.values())
    return SolveResult(value, values, search.nodes)
