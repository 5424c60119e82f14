"""The last tricks searched without strategy fusion: αμ at full depth over the worlds
of a card decision (four players; docs/rules.md §5, §6).

PIMC solves each world double-dummy and averages: it credits the seat with
playing each world's best card later on, though it will not know which world it
is in (*strategy fusion*).  Here the seat's own later cards are one choice for
all the worlds it cannot tell apart (the worlds that agree with the cards seen
so far), while the three other seats play as in each world's double-dummy
search (the partner maximises, the opponents minimise, each seeing every hand),
which is the game that αμ (Cazenave & Ventos, 2019) solves at full depth.

:func:`fused_values` returns, for each legal card, the set of value vectors (one
value a world: the points the seat's side takes from the rest of the deal) that
some plan of the seat's later cards reaches, pruned to those no other vector
beats in every world (a Pareto front):

- at the seat's own turn, the fronts of its cards together (it picks one card
  for every world there);
- at another seat's turn, a card is played only in the worlds where that seat
  holds it legally, and the seat sees which card it was: the plan may differ
  after each card, so the front is every combination of a vector of each
  card's front, each world taking the best (partner) or the worst (opponent)
  of its cards;
- once the seat's later cards are forced (one left in its hand), each world's
  double-dummy value (:func:`belote.solver.solve`).

The caller picks the vector of each card's front with the best average score.
The fronts can grow as the product of the cards the others may play: past
:data:`FRONT_LIMIT` vectors at one node the search gives up
(:class:`FrontTooLargeError`) and the caller averages as PIMC does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from belote.cards import Card, scan_forward
from belote.play import PlayState
from belote.solver import SolverEngine, solve

__all__ = ["FRONT_LIMIT", "FrontTooLargeError", "fused_values"]

Vector = tuple[int, ...]
FRONT_LIMIT: Final = 256  # vectors combined at one node at most (else the search gives up)


class FrontTooLargeError(Exception):
    """The plans of the seat's later cards are too many to combine (:data:`FRONT_LIMIT`)."""


def fused_values(
    states: Sequence[PlayState], seat: int, engine: SolverEngine | None = None
) -> tuple[dict[Card, list[Vector]], int]:
    """Each legal card of ``seat`` (to play in every state: the same position in
    each world) mapped to its Pareto front of vectors of side-0 values of the rest
    of the deal (one a state), and the solver positions searched.  The states are
    left as they were.  Raises :class:`FrontTooLargeError` when one node would
    combine more than :data:`FRONT_LIMIT` vectors."""
    search = _Search([s.copy() for s in states], seat, engine)
    first = search.states[0]
    out: dict[Card, list[Vector]] = {}
    everyone = list(range(len(states)))
    for c in scan_forward(first.legal_mask()):
        for s in search.states:
            s.push(c)
        front = search.front(everyone)
        for s in search.states:
            s.pop()
        out[c] = [tuple(search.sign * v for v in vector) for vector in front]
    return out, search.nodes


class _Search:
    """The worlds' positions moved together, the seat's side and the positions searched."""

    def __init__(self, states: list[PlayState], seat: int, engine: SolverEngine | None) -> None:
        self.states = states
        self.seat = seat
        self.engine = engine
        self.team = states[0].team(seat)
        # values kept as the seat's side sees them (higher better): side 0's value, or
        # its negation for side 1 (the order is all that the fronts compare)
        self.sign = 1 if self.team == 0 else -1
        self.base = [s.trick_points[0] for s in states]
        self.nodes = 0

    def front(self, worlds: list[int]) -> list[Vector]:
        """The Pareto front of the position reached in ``worlds`` (indices of states)."""
        states = self.states
        first = states[worlds[0]]
        if first.is_over() or first.hands[self.seat].bit_count() <= 1:
            return [tuple(self._value(w) for w in worlds)]
        turn = first.turn
        if turn == self.seat:
            out: list[Vector] = []
            for c in scan_forward(first.legal_mask()):
                for w in worlds:
                    states[w].push(c)
                out += self.front(worlds)
                for w in worlds:
                    states[w].pop()
            return _pareto(out)
        by_card: dict[Card, list[int]] = {}
        for i, w in enumerate(worlds):
            for c in scan_forward(states[w].legal_mask()):
                by_card.setdefault(c, []).append(i)
        partner = states[worlds[0]].team(turn) == self.team
        acc: list[Vector] | None = None
        for c, where in by_card.items():
            sub = [worlds[i] for i in where]
            for w in sub:
                states[w].push(c)
            child = self.front(sub)
            for w in sub:
                states[w].pop()
            acc = _combine(acc, child, where, len(worlds), partner)
        assert acc is not None
        return acc

    def _value(self, w: int) -> int:
        """The seat's side's view of side 0's points from the root to the end of the
        deal in world ``w``: the tricks completed since the root and the rest solved."""
        state = self.states[w]
        done = state.trick_points[0] - self.base[w]
        if state.is_over():
            return self.sign * done
        result = solve(state, moves=False, engine=self.engine)
        self.nodes += result.nodes
        return self.sign * (done + result.value)


def _combine(
    acc: list[Vector] | None, child: list[Vector], where: list[int], size: int,
    partner: bool,
) -> list[Vector]:
    """Every vector of ``acc`` with every vector of ``child`` (whose entries are the
    worlds ``where``), each world keeping the larger (``partner``) or the smaller
    value; the worlds not in ``where`` keep the ``acc`` value.  Pruned to the front."""
    if acc is None:
        missing = -(1 << 30) if partner else 1 << 30
        acc = [(missing,) * size]
    if len(acc) * len(child) > FRONT_LIMIT:
        raise FrontTooLargeError(f"{len(acc)} × {len(child)} plans")
    out: list[Vector] = []
    for a in acc:
        for v in child:
            b = list(a)
            for i, x in zip(where, v, strict=True):
                if (x > b[i]) if partner else (x < b[i]):
                    b[i] = x
            out.append(tuple(b))
    return _pareto(out)


def _pareto(vectors: list[Vector]) -> list[Vector]:
    """The vectors that no other vector matches or beats in every world (one of equal
    vectors kept)."""
    if len(vectors) <= 1:
        return vectors
    ranked = sorted(vectors, key=sum, reverse=True)
    kept: list[Vector] = []
    for v in ranked:
        if not any(all(x >= y for x, y in zip(k, v, strict=True)) for k in kept):
            kept.append(v)
    return kept
