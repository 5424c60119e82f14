"""The numeric auction of coinche and contrée (docs/rules.md §4).

Calls, in turn from the eldest: ``pass``; a bid such as ``80H``, ``120S``,
``90SA``, ``100TA`` (value 80..``max_bid`` by tens, then the denomination),
``capotH`` (outranks every number), ``generaleS`` (when ``generale`` is on:
the bidder alone must win every trick; outranks capot); ``coinche`` (an
opponent of the highest bidder doubles) and ``surcoinche`` (a bidder's side
redoubles).  With ``coinche_in_turn`` false an opponent may coinche out of
turn: the call is written with its seat, ``E:coinche``.

The auction ends after three consecutive passes following a bid (§4.4), at
once after a surcoinche, or, when ``coinche_freezes``, after the bidding
side's two answers to a coinche (§4.5).  Four passes with no bid: all-pass.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from belote.cards import ALL_TRUMP, NO_TRUMP, SUIT_LETTERS, TrumpMode, trump_name
from belote.errors import IllegalBidError, RuleCode, allowed
from belote.options import Rules

PASS: Final = "pass"
COINCHE: Final = "coinche"
SURCOINCHE: Final = "surcoinche"
CAPOT: Final = "capot"
GENERALE: Final = "generale"
CAPOT_VALUE: Final = 250



class _Why(NamedTuple):
    """Why a call is refused: the rule, and the fields its message names."""

    code: RuleCode
    trump: str | None = None
    limit: int | None = None
    bid: str | None = None


# The refusals that name no field, made once (legal_calls asks of every bid).
_BECAUSE: Final = {code: _Why(code) for code in RuleCode}


# §4.3 suit_ranking (PC variant): ♣ < ♦ < ♥ < ♠ < SA < TA.
_DENOMINATION_RANK: Final = {3: 0, 2: 1, 1: 2, 0: 3, NO_TRUMP: 4, ALL_TRUMP: 5}


@dataclass(frozen=True, slots=True)
class Bid:
    """A contract offered: a value (80.., or capot, or générale) in a denomination."""

    value: int | str  # a number, CAPOT or GENERALE
    trump: TrumpMode

    @property
    def level(self) -> int:
        """Order of strength: numbers, then capot, then générale."""
        if self.value == GENERALE:
            return 10_000_000
        if self.value == CAPOT:
            return 1_000_000
        assert isinstance(self.value, int)
        return self.value

    def name(self) -> str:
        return f"{self.value}{trump_name(self.trump)}"


@dataclass(frozen=True, slots=True)
class AuctionCall:
    """One call: who, and what (``pass``, a bid's name, ``coinche``, ``surcoinche``)."""

    seat: int
    call: str
    bid: Bid | None = None
    in_turn: bool = True  # False for an out-of-turn coinche (coinche_in_turn false)
    named: bool = field(default=False, repr=False, compare=False)  # made naming its seat


def parse_bid(text: str) -> Bid | None:
    """``"80H"`` → Bid(80, ♥); ``"capotSA"``; ``"generaleS"``; None when not a bid."""
    t = text.strip()
    low = t.lower()
    for word in (GENERALE, CAPOT):
        if low.startswith(word):
            denom = _parse_denomination(t[len(word):])
            return Bid(word, denom) if denom is not None else None
    digits = 0
    while digits < len(t) and t[digits].isdigit():
        digits += 1
    if digits == 0:
        return None
    denom = _parse_denomination(t[digits:])
    if denom is None:
        return None
    return Bid(int(t[:digits]), denom)


def _parse_denomination(text: str) -> TrumpMode | None:
    t = text.strip().upper()
    if t == "SA":
        return NO_TRUMP
    if t == "TA":
        return ALL_TRUMP
    if len(t) == 1 and t in SUIT_LETTERS:
        return SUIT_LETTERS.index(t)
    return None


class NumericAuction:
    """The state of a coinche / contrée auction, with the checked triad."""

    def __init__(self, rules: Rules, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.turn = (dealer + 1) & 3
        self.calls: list[AuctionCall] = []
        self.best: Bid | None = None
        self.bidder: int | None = None
        self.multiplier = 1
        self.coincher: int | None = None
        self.passes = 0  # consecutive passes since the last bid (or coinche, unfrozen)
        self.finished = False
        self.all_pass = False
        self._frozen_answers: list[int] = []  # takers yet to answer a freezing coinche
        self._reopen_offered = False

    # --- queries ------------------------------------------------------------

    @property
    def taker(self) -> int | None:
        return self.bidder if self.finished and not self.all_pass else None

    def _denominations(self) -> list[TrumpMode]:
        out: list[TrumpMode] = [0, 1, 2, 3]
        if self.rules.sa_ta:
            out += [NO_TRUMP, ALL_TRUMP]
        return out

    def _is_opponent_of_bidder(self, seat: int) -> bool:
        return self.bidder is not None and (seat & 1) != (self.bidder & 1)

    def _bid_refusal(self, seat: int, bid: Bid) -> _Why | None:
        """Why ``seat`` may not make ``bid`` now (None when it may)."""
        rules = self.rules
        if bid.trump not in self._denominations():
            return _Why(RuleCode.DENOMINATION_OFF, trump=trump_name(bid.trump))
        if bid.value == GENERALE and not rules.generale:
            return _BECAUSE[RuleCode.GENERALE_OFF]
        if isinstance(bid.value, int):
            if bid.value < 80 or bid.value % 10:
                return _BECAUSE[RuleCode.BID_NOT_A_MULTIPLE]
            if rules.max_bid is not None and bid.value > rules.max_bid:
                return _Why(RuleCode.BID_ABOVE_MAX, limit=rules.max_bid)
        if self.coincher is not None and rules.coinche_freezes:
            return _BECAUSE[RuleCode.AUCTION_FROZEN]
        best = self.best
        if best is not None:
            if best.value == CAPOT and isinstance(bid.value, int):
                return _BECAUSE[RuleCode.NUMBER_AFTER_CAPOT]
            if bid.level < best.level or (
                bid.level == best.level
                and not (
                    rules.suit_ranking
                    and _DENOMINATION_RANK[bid.trump] > _DENOMINATION_RANK[best.trump]
                )
            ):
                return _Why(RuleCode.BID_TOO_LOW, bid=best.name())
            if self._reopen_offered and seat == self.bidder and bid.trump == best.trump:
                return _BECAUSE[RuleCode.REOPEN_SAME_SUIT]
        return None

    def legal_calls(self) -> list[str]:
        """Every call the seat to play may make (bids listed as names)."""
        if self.finished:
            return []
        seat = self.turn
        calls = [PASS]
        if self._frozen_answers:
            return [PASS, SURCOINCHE]
        for value in self._values():
            for denom in self._denominations():
                bid = Bid(value, denom)
                if self._bid_refusal(seat, bid) is None:
                    calls.append(bid.name())
        if self._coinche_refusal(seat) is None:
            calls.append(COINCHE)
        if self._surcoinche_refusal(seat) is None:
            calls.append(SURCOINCHE)
        return calls

    def _values(self) -> list[int | str]:
        top = self.rules.max_bid
        best = self.best
        low = 80
        if best is not None and isinstance(best.value, int):
            low = best.value
        if top is None:
            top = max(low + 100, 250)
        values: list[int | str] = list(range(low, top + 1, 10))
        values.append(CAPOT)
        if self.rules.generale:
            values.append(GENERALE)
        return values

    def _coinche_refusal(self, seat: int) -> _Why | None:
        if self.best is None:
            return _BECAUSE[RuleCode.NO_BID_TO_COINCHE]
        if not self._is_opponent_of_bidder(seat):
            return _BECAUSE[RuleCode.COINCHE_BY_OPPONENTS]
        if self.coincher is not None:
            return _BECAUSE[RuleCode.ALREADY_COINCHED]
        if self.best.value == CAPOT and not self.rules.capot_doublable:
            return _BECAUSE[RuleCode.CAPOT_NOT_COINCHED]
        if self.rules.coinche_in_turn and seat != self.turn:
            return _BECAUSE[RuleCode.COINCHE_IN_TURN]
        return None

    def _surcoinche_refusal(self, seat: int) -> _Why | None:
        if self.coincher is None:
            return _BECAUSE[RuleCode.NO_COINCHE_TO_ANSWER]
        if self.multiplier > 2:
            return _BECAUSE[RuleCode.ALREADY_SURCOINCHED]
        if self._is_opponent_of_bidder(seat):
            return _BECAUSE[RuleCode.SURCOINCHE_BY_BIDDERS]
        return None

    # --- the checked triad ----------------------------------------------------

    def verify(self, call: str, seat: int | None = None) -> None:
        """Raise :class:`IllegalBidError` naming the rule when ``call`` is refused."""
        who = self.turn if seat is None else seat
        if self.finished:
            raise IllegalBidError(RuleCode.AUCTION_OVER, seat=who, call=call)
        if seat is not None and seat != self.turn and call != COINCHE:
            raise IllegalBidError(RuleCode.NOT_YOUR_TURN, seat=who, call=call, turn=self.turn)
        if call == PASS:
            return
        why: _Why | None
        if call == COINCHE:
            why = self._coinche_refusal(who)
        elif call == SURCOINCHE:
            why = self._surcoinche_refusal(who)
        elif self._frozen_answers:
            why = _BECAUSE[RuleCode.PASS_OR_SURCOINCHE]
        else:
            bid = parse_bid(call)
            if bid is None:
                raise IllegalBidError(RuleCode.NOT_A_CALL, seat=who, call=call)
            why = self._bid_refusal(who, bid)
        if why is not None:
            raise IllegalBidError(why.code, seat=who, call=call, trump=why.trump,
                                  limit=why.limit, bid=why.bid)

    def can(self, call: str, seat: int | None = None) -> bool:
        """Whether :meth:`call` would accept ``call`` (from ``seat``, when given)."""
        return allowed(lambda: self.verify(call, seat))

    def call(self, call: str, seat: int | None = None) -> AuctionCall:
        """Make a call for the seat to play (or, for an out-of-turn coinche, ``seat``)."""
        self.verify(call, seat)
        who = self.turn if seat is None else seat
        record: AuctionCall
        if call == PASS:
            record = AuctionCall(who, PASS)
            self._after_pass()
        elif call == COINCHE:
            record = AuctionCall(who, COINCHE, in_turn=who == self.turn)
            self.coincher = who
            self.multiplier = 2
            self.passes = 0
            self._reopen_offered = False  # a coinche ends the last bidder's extra turn
            if self.rules.coinche_freezes:
                # §4.5: the coincher's partner stays silent; each taker in turn answers.
                first = (who + 1) & 3
                self._frozen_answers = [first, (first + 2) & 3]
                self.turn = first
            else:
                self.turn = (who + 1) & 3
        elif call == SURCOINCHE:
            record = AuctionCall(who, SURCOINCHE)
            self.multiplier = 4
            self.finished = True  # §4.5: a surcoinche ends the auction at once
            self._frozen_answers = []
        else:
            bid = parse_bid(call)
            assert bid is not None
            record = AuctionCall(who, bid.name(), bid)
            self.best, self.bidder = bid, who
            self.coincher, self.multiplier = None, 1  # a higher bid cancels a coinche
            self.passes = 0
            self._reopen_offered = False
            self.turn = (who + 1) & 3
        if seat is not None:
            record = dataclasses.replace(record, named=True)
        self.calls.append(record)
        return record

    def _after_pass(self) -> None:
        if self._frozen_answers:
            self._frozen_answers.pop(0)
            if not self._frozen_answers:
                self.finished = True
            else:
                self.turn = self._frozen_answers[0]
            return
        self.passes += 1
        if self.best is None:
            if self.passes == 4:
                self.finished = self.all_pass = True
                return
        elif self.passes >= 3:
            if (
                self.rules.reopen_by_suit_change
                and not self._reopen_offered
                and self.coincher is None
            ):
                # The last bidder may go on in another suit (§4.4 option), once.
                self._reopen_offered = True
                self.turn = (self.turn + 1) & 3
                return
            self.finished = True
            return
        self.turn = (self.turn + 1) & 3
