"""The random bot: a uniform choice among the legal calls and cards (seeded)."""

from __future__ import annotations

from belote.bots.base import BaseBot, legal_calls, legal_cards
from belote.round import PlayerView


class RandomBot(BaseBot):
    """Uniform among ``view.legal``: a baseline and a fuzzer of the engine."""

    kind = "random"

    def call(self, view: PlayerView) -> str:
        return self.rng.choice(legal_calls(view))

    def play(self, view: PlayerView) -> int:
        return self.rng.choice(legal_cards(view))
