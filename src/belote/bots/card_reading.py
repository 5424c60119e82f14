"""Soft reading of the cards the other seats played (docs/rules.md §5, §6), for the
card play's worlds.

The voids of :mod:`belote.bots.knowledge` are certain: a card was illegal from the
hands they rule out.  This module reads what a sensible player's choice among its
legal cards suggests, as a *clue* that a world may break at a cost
(:class:`CardReading`):

- a seat that played a card into a trick its side lost (a completed trick won by
  the other side, the card not the first of the trick) gave away as few points
  as it could in that suit: it held no card of that suit worth fewer points
  (§5: the card points of the contract's trump mode), unless it played a
  trump (or a card of the led suit at tout-atout, §6.2) that went over the
  master of the trick at the time (it may have been made to go over, and a
  cheaper card might not have).

Every cheaper card of that suit was as legal as the card played: a plain suit
followed is free (§6.1), a discard of a plain suit was legal with any card of
that suit (§6.3), and a trump that did not go over the master was played by a
seat that could not go over, so any lower trump was legal too (§6.2, §6.3);
the card points rise with the rank in every suit and mode, so a cheaper card is a
lower one.  A clue counts only the cards still unseen (those played since, by
anybody, are no longer in a hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from belote.bots.knowledge import World
from belote.cards import ALL_TRUMP, SUIT_MASKS, CardMask, scan_forward, suit_of
from belote.play import card_points, trick_winner
from belote.round import PlayerView
from belote.table import Table

__all__ = ["CardReading"]


@dataclass(frozen=True)
class CardReading:
    """The clues of a view: ``(seat, cards)`` pairs, each broken by a world that gives
    that seat one of those cards (see the module docstring)."""

    clues: tuple[tuple[int, CardMask], ...]

    @classmethod
    def of(cls, view: PlayerView, table: Table | None = None) -> CardReading:
        """The clues of the completed tricks of ``view`` (the others' cards only)."""
        assert view.contract is not None
        table = table if table is not None else Table.of(view.rules)
        n = table.players
        trump = view.contract.trump
        sides = table.sides(view.contract.taker)
        points = card_points(view.rules, trump)
        seen = view.hand
        for t in view.tricks:
            for c in t.cards:
                seen |= 1 << c
        for c in view.trick:
            seen |= 1 << c
        clues: list[tuple[int, CardMask]] = []
        for t in view.tricks:
            cards = t.cards
            led = suit_of(cards[0])
            for i in range(1, len(cards)):
                p = (t.leader + i) % n
                c = cards[i]
                if p == view.seat or sides[p] == sides[t.winner]:
                    continue
                suit = suit_of(c)
                trumpish = suit == trump or (trump == ALL_TRUMP and suit == led)
                if trumpish and trick_winner(cards[:i + 1], trump) == i:
                    continue  # it went over the master: maybe it had to
                cheaper = _cheaper(c, points, SUIT_MASKS[suit] & ~seen)
                if cheaper:
                    clues.append((p, cheaper))
        return cls(tuple(clues))

    def broken(self, world: World) -> int:
        """How many clues ``world`` breaks."""
        hands = world.hands
        return sum(1 for seat, cards in self.clues if hands[seat] & cards)


def _cheaper(c: int, points: Sequence[int], candidates: CardMask) -> CardMask:
    """The cards among ``candidates`` worth fewer points than ``c``."""
    out = 0
    for x in scan_forward(candidates):
        if points[x] < points[c]:
            out |= 1 << x
    return out
