"""The others' cards read as a searching player's (docs/rules.md §5–§7, §12), for the card
play's worlds of the PIMC bot (setting ``search_reads``).

:class:`~belote.bots.card_model.PlayModel` reads a seat's past cards through the
heuristic's card play: sharp against players who follow its tips, blunt against a
player who searches (the PIMC bot of another version, or a strong human), whose cards
the heuristic rarely predicts.  :class:`SearchModel` reads them through a small search
of that seat's own: for each past card of a seat read that was a choice, played with at
most ``from_left`` tricks left (the later tricks, cheap to solve), it rebuilds the seat's
view then in a world (its hand: the world's hand now with the cards it has played since;
the rest as it saw it, :class:`~belote.bots.card_model.PlayModel`), draws ``worlds``
deals of the cards that seat could not see, as its view allows them
(:class:`~belote.bots.sampling.DealSampler`), solves each double dummy
(:func:`belote.solver.solve`) and averages each legal card's points for the seat's
side.  A card more than ``margin`` points below the best average is one *miss*: in
that world the seat, searching as a PIMC player does, would hardly have played it.  A
world is weighed by ``weight ** misses`` with the heuristic's misses
(:meth:`belote.bots.pimc.PimcBot.evaluate`), never ruled out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from belote.bots.card_model import PlayModel
from belote.bots.card_score import world_state
from belote.bots.knowledge import Unseen
from belote.bots.sampling import DealSampler
from belote.cards import Card
from belote.round import PlayerView
from belote.table import Table

if TYPE_CHECKING:
    from belote.solver import SolverEngine

__all__ = ["SearchModel"]


class SearchModel(PlayModel):
    """The past cards of ``seats`` in ``view``'s deal played with at most ``from_left``
    tricks left, read through a search of ``worlds`` deals of the seat's own (see the
    module)."""

    __slots__ = ("_engine", "_margin", "_max_nodes", "_rng", "_worlds", "nodes")

    def __init__(self, view: PlayerView, seats: Sequence[int], table: Table | None = None,
                 *, from_left: int, worlds: int, margin: float, max_nodes: int,
                 rng: random.Random, engine: SolverEngine | None = None) -> None:
        """``worlds``: the deals each past card is searched over; ``margin``: the points
        a card may lie below the best average before it counts as a miss;
        ``max_nodes``: the positions one card's search may take (past it, the card
        tells nothing); ``rng``: the draws'."""
        super().__init__(view, seats, table, from_left=from_left)
        self._worlds = worlds
        self._margin = margin
        self._max_nodes = max_nodes
        self._rng = rng
        self._engine = engine
        self.nodes = 0  # the positions searched so far, every world read together

    @property
    def reads(self) -> bool:
        """Whether any past card lies within the tricks read."""
        return bool(self._templates)

    def _fits(self, seen: PlayerView, card: Card, known: Unseen | None
              ) -> tuple[bool, Unseen]:
        """Whether ``card`` lies within the margin of the best average, for the seat of
        ``seen``, over deals drawn as ``seen`` allows them."""
        from belote.solver import SearchLimitError, solve  # loaded when a card is read

        if known is None:
            known = self._unseen_of(seen)
        sampler = DealSampler(known.knowledge(seen.hand, seen.discards))
        if sampler.count() == 0:  # (a view that contradicts itself: nothing read)
            return True, known
        assert seen.contract is not None
        maximize = self._table.sides(seen.contract.taker)[seen.seat] == 0
        totals: dict[Card, int] = {}
        spent = solved = 0
        for _ in range(self._worlds):
            state = world_state(seen, sampler.sample(self._rng), self._table)
            try:
                result = solve(state, max_nodes=self._max_nodes - spent,
                               engine=self._engine)
            except SearchLimitError as e:
                spent += e.nodes
                break
            spent += result.nodes
            solved += 1
            for c, v in result.moves.items():
                totals[c] = totals.get(c, 0) + v
        self.nodes += spent
        if card not in totals:  # (no deal solved within the limit: nothing read)
            return True, known
        best = max(totals.values()) if maximize else min(totals.values())
        loss = (best - totals[card]) if maximize else (totals[card] - best)
        return loss <= self._margin * solved, known
