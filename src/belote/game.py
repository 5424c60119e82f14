"""A game to its target: deal after deal, the dealer moving on (docs/rules.md §2, §11).

:class:`Match` deals each :class:`~belote.round.Round` (shuffled, or only cut
when ``shuffle_each_deal`` is false), moves the deal to the eldest (or keeps it
after an all-pass when ``allpass_dealer`` is ``same``), and scores the game
through :class:`belote.scoring.GameTally`, the one scoring module, at every table.

With three or two players (§12) each player keeps his own total
(:attr:`Match.seat_totals`): the tally is told each deal as a per-seat entry
(:func:`~belote.round.seat_entry`), as a table would write it on a score sheet; the first to
reach the target wins, the higher total when several reach it on one deal
(§11.2, §11.3 applied per player).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from belote.cards import Card, card_name, parse_card
from belote.deal import Rng, cut, make_rng, new_deck, shuffle
from belote.errors import BeloteError, IllegalActionError, InvalidRecordError, RuleCode
from belote.options import AllpassDealer, Rules, make_rules
from belote.play import SEAT_NAMES
from belote.round import Round, seat_entry
from belote.scoring import Entry, GameScore, GameTally
from belote.table import DealMode, Phase, parse_seat


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
        self.players = rules.players
        self.rng = rng if rng is not None else make_rng(seed)
        # §2.1: the first dealer is drawn at random.
        self.dealer = (
            first_dealer if first_dealer is not None else self.rng.randrange(self.players)
        )
        self.entries: list[Entry] = []  # every scored deal, as the tally was told it
        self.deals = 0  # deals dealt, all-passes included
        self._pack: list[Card] = new_deck(self.players, rules.three_deal)
        shuffle(self._pack, self.rng)
        self._tally = GameTally(rules)
        self.current: Round | None = None
        self._first_dealer = self.dealer
        self._log: list[Round] = []

    @property
    def score(self) -> GameScore:
        """The game's score sheet: per team, or with two or three players per seat."""
        return self._tally.result()

    @property
    def finished(self) -> bool:
        return self._tally.finished

    @property
    def winner(self) -> int | None:
        """The winning team (0 NS, 1 EW), or with two or three players the winning seat."""
        return self._tally.winner

    @property
    def reserve(self) -> int:
        return self._tally.reserve

    @property
    def seat_totals(self) -> list[int]:
        """Each seat's total with two or three players (§12)."""
        return list(self._tally.totals)

    @property
    def seat_hands(self) -> list[tuple[int, ...]]:
        """Each scored deal's score per seat with two or three players (§12)."""
        return [h.score for h in self._tally.hands]

    @property
    def rounds(self) -> tuple[Round, ...]:
        """Every deal dealt so far, in order (the last may be in progress)."""
        return tuple(self._log)

    def new_round(self, deck: Sequence[Card] | None = None) -> Round:
        """Deal the next deal (§2.2 shuffle, §2.3 cut), or deal ``deck`` as given."""
        if self.finished:
            raise IllegalActionError(RuleCode.GAME_OVER)
        if self.current is not None:
            raise IllegalActionError(RuleCode.DEAL_IN_PROGRESS)
        if deck is None:
            deck = list(self._pack)
            if self.rules.shuffle_each_deal:
                shuffle(deck, self.rng)
            deck = cut(deck, self.rng, self.rules.min_cut)
        self.current = Round(self.rules, self.dealer, deck, reserve=self.reserve,
                             game_score=self._tally.totals, target=self._tally.target)
        self._log.append(self.current)
        self.deals += 1
        return self.current

    def to_json(self) -> dict[str, Any]:
        """Everything needed to resume the game: rules, and each deal's deck and actions."""
        return {
            "version": 1,
            "profile": self.rules.profile,
            "options": self.rules.overrides(),
            "first_dealer": SEAT_NAMES[self._first_dealer],
            "deals": [
                {"dealer": SEAT_NAMES[r.dealer], "deck": [card_name(c) for c in r.deck],
                 "actions": r.actions_json()}
                for r in self._log
            ],
        }

    def to_record(self) -> dict[str, Any]:
        """The game's record (docs/json.md): the rules once, then each deal's record
        (``Round.record``: its dealer, deck and actions); :meth:`from_record` reads it
        back.  The terminal game's save file is this record."""
        return self.to_json()

    @classmethod
    def from_record(cls, data: Any, seed: int | None = None) -> Match:
        """The game of a record written by :meth:`to_record`, every action applied
        again (``Round.apply``); see :meth:`from_json`."""
        return cls.from_json(data, seed)

    @classmethod
    def from_json(cls, data: Any, seed: int | None = None) -> Match:
        """Rebuild a game saved by :meth:`to_json`; every action is checked again.

        Deals after the saved ones are shuffled by a new generator (``seed``).
        """
        if not isinstance(data, dict) or data.get("version") != 1:
            raise InvalidRecordError("saved game: not a belote saved game (version 1)")
        rules = make_rules(data.get("profile", "classic"), data.get("options") or {})
        first = parse_seat(data.get("first_dealer"), "saved game: first_dealer", rules.players)
        match = cls(rules, seed=seed, first_dealer=first)
        deals = data.get("deals")
        if not isinstance(deals, list):
            raise InvalidRecordError("saved game: 'deals' is not a list")
        for i, deal in enumerate(deals):
            where = f"saved game: deal {i + 1}"
            if not isinstance(deal, dict):
                raise InvalidRecordError(f"{where}: expected an object")
            if parse_seat(deal.get("dealer"), f"{where}.dealer", rules.players) != match.dealer:
                raise InvalidRecordError(f"{where}: dealer is not {SEAT_NAMES[match.dealer]}")
            deck_text = deal.get("deck")
            if not isinstance(deck_text, list) or len(deck_text) != len(match._pack):
                raise InvalidRecordError(
                    f"{where}: 'deck' must list the {len(match._pack)} cards of the game"
                )
            try:
                deck = [parse_card(t) for t in deck_text]
                rnd = match.new_round(deck)
                rnd.apply_actions(deal.get("actions") or [])
            except (BeloteError, ValueError) as exc:
                raise InvalidRecordError(f"{where}: {exc}") from None
            if rnd.phase in (Phase.OVER, Phase.ALL_PASS):
                match.finish_round()
        return match

    def finish_round(self) -> None:
        """Score the current deal and pass the deal on (§2.1, §2.4)."""
        rnd = self.current
        if rnd is None or rnd.phase not in (Phase.OVER, Phase.ALL_PASS):
            raise IllegalActionError(RuleCode.NO_DEAL_TO_SCORE)
        if rnd.phase == Phase.ALL_PASS:
            # §2.4: cards collected, no score; the next dealer (or the same) deals.
            self._pack = list(rnd.deck)
            if self.rules.allpass_dealer is AllpassDealer.NEXT:
                self.dealer = rnd.table.next(self.dealer)
        else:
            result = rnd.result()
            entry: Entry = result.entry
            if rnd.table.scores_per_seat:
                entry = rnd.seat_entry()
            entry = dataclasses.replace(entry, reserve=0)
            self.entries.append(entry)
            hand = self._tally.add(entry)
            played = [c for t in result.tricks for c in t.cards]
            self._pack = played + [c for c in rnd.deck if c not in set(played)]
            if rnd.mode is DealMode.DECOUVERTE and hand.score[0] != hand.score[1]:
                # §12.2: the winner of the hand deals the next one (equal: it passes on).
                self.dealer = 0 if hand.score[0] > hand.score[1] else 1
            else:
                self.dealer = rnd.table.next(self.dealer)
        self.current = None


__all__ = ["Match", "seat_entry"]
