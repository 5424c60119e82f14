"""The random bot: a uniform choice among the legal calls and cards (seeded).

At every table size (docs/rules.md §12 too): the taker of a kitty deal lays aside two
cards drawn uniformly from his twelve (§12.1; no card is forbidden there).
"""

from __future__ import annotations

import random
from typing import Final

from belote.bots.base import BaseBot
from belote.cards import Card, scan_forward
from belote.deal import draw_below
from belote.round import PlayerView

# The bots' generator's own draw (BaseBot.rng is a random.Random), read once: a card
# is drawn with it for every card played, and a bound method costs more to make.
_getrandbits: Final = random.Random.getrandbits
_BIT_LENGTHS: Final = tuple(n.bit_length() for n in range(33))  # of a number of cards


class RandomBot(BaseBot):
    """Uniform among the view's legal calls and cards: a baseline and a fuzzer of the
    engine."""

    kind = "random"

    def call(self, view: PlayerView) -> str:
        legal = view.legal_calls
        return legal[draw_below(self.rng, len(legal))]

    def play(self, view: PlayerView) -> int:
        legal = view.legal_cards
        n = len(legal)  # draw_below(self.rng, n), written out: asked for every card
        rng = self.rng
        k = _BIT_LENGTHS[n]
        r = _getrandbits(rng, k)
        while r >= n:
            r = _getrandbits(rng, k)
        return legal[r]

    def discard(self, view: PlayerView) -> list[Card]:
        return sorted(self.rng.sample(list(scan_forward(view.hand)), 2))
