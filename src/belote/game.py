"""A game to its target: deal after deal, the dealer moving on (RULES.md §2, §11).

:class:`Match` deals each :class:`~belote.round.Round` (shuffled, or only cut
when ``shuffle_each_deal`` is false), moves the deal to the eldest (or keeps it
after an all-pass when ``allpass_dealer`` is ``same``), and scores the game
through :func:`belote.scoring.score_game`, the one scoring module.
"""

from __future__ import annotations

import dataclasses

from belote.cards import Card
from belote.deal import Rng, cut, make_rng, new_deck, shuffle
from belote.errors import IllegalActionError
from belote.options import Rules
from belote.round import ALL_PASS, OVER, Round
from belote.scoring import GameScore, HandEntry, score_game


class Match:
    """A game of belote between NS and EW, to the rules' target."""

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        first_dealer: int | None = None,
        rng: Rng | None = None,
    ) -> None:
        self.rules = rules
        self.rng = rng if rng is not None else make_rng(seed)
        # §2.1: the first dealer is drawn at random.
        self.dealer = first_dealer if first_dealer is not None else self.rng.randrange(4)
        self.entries: list[HandEntry] = []
        self.deals = 0  # deals dealt, all-passes included
        self._pack: list[Card] = new_deck()
        shuffle(self._pack, self.rng)
        self._score = score_game(rules, [])
        self.current: Round | None = None

    @property
    def score(self) -> GameScore:
        return self._score

    @property
    def finished(self) -> bool:
        return self._score.finished

    @property
    def winner(self) -> int | None:
        return self._score.winner

    def new_round(self) -> Round:
        """Deal the next deal (§2.2 shuffle, §2.3 cut)."""
        if self.finished:
            raise IllegalActionError("the game is over: no further deal")
        if self.current is not None and self.current.phase not in (OVER, ALL_PASS):
            raise IllegalActionError("the current deal is not finished")
        deck = list(self._pack)
        if self.rules.shuffle_each_deal:
            shuffle(deck, self.rng)
        deck = cut(deck, self.rng, self.rules.min_cut)
        self.current = Round(self.rules, self.dealer, deck, reserve=self._score.reserve)
        self.deals += 1
        return self.current

    def finish_round(self) -> None:
        """Score the current deal and pass the deal on (§2.1, §2.4)."""
        rnd = self.current
        if rnd is None or rnd.phase not in (OVER, ALL_PASS):
            raise IllegalActionError("no finished deal to score")
        if rnd.phase == ALL_PASS:
            # §2.4: cards collected, no score; the next dealer (or the same) deals.
            self._pack = [c for h in rnd.hands for c in range(32) if h >> c & 1]
            if rnd.first is not None:
                self._pack += [*rnd.first.stock, rnd.first.turned]
            if self.rules.allpass_dealer == "next":
                self.dealer = (self.dealer + 1) & 3
        else:
            result = rnd.result()
            self.entries.append(dataclasses.replace(result.entry, reserve=0))
            self._score = score_game(self.rules, self.entries)
            self._pack = [c for t in result.tricks for c in t.cards]
            self.dealer = (self.dealer + 1) & 3
        self.current = None
