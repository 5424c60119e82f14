"""Take-or-pass bidding of classic and Moroccan belote (docs/rules.md §3).

Round 1 from the eldest: ``take`` (trump = the turned suit) or ``pass``; the
first take ends the bidding.  After four passes, round 2 from the eldest: name
a suit other than the turned one (``S H D C``), or ``pass``.  Four more passes:
all-pass (§2.4).  With ``sa_ta_in_classic`` round 2 may also name ``SA`` or
``TA``.

Every action is a triad (pokerkit): :meth:`TakePassBidding.verify` raises
:class:`~belote.errors.IllegalBidError` naming the rule, :meth:`can` answers,
:meth:`call` acts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from belote.cards import ALL_TRUMP, NO_TRUMP, SUIT_LETTERS, Card, TrumpMode, suit_of, trump_name
from belote.errors import IllegalBidError, RuleCode
from belote.options import Rules
from belote.records import record_of

PASS: Final = "pass"
TAKE: Final = "take"
SEATS: Final = "NESW"
_WORDS: Final = (PASS, TAKE, "coinche", "surcoinche")  # the calls that are words


@dataclass(frozen=True)  # (no slots: made by records.record_of, a few every deal)
class Call:
    """One call of the bidding: who said what."""

    seat: int
    call: str
    named: bool = field(default=False, repr=False, compare=False)  # made naming its seat


# The Call of each seat and legal call made in turn (no seat named), made once: the
# record of every call of a take-or-pass bidding, a value its log may share.
_IN_TURN: Final = tuple(
    MappingProxyType({call: Call(seat, call) for call in (
        PASS, TAKE, *SUIT_LETTERS, trump_name(NO_TRUMP), trump_name(ALL_TRUMP))})
    for seat in range(len(SEATS)))


def normalise_call(text: object) -> str:
    """The canonical spelling of a call: ``"Pass"`` → ``"pass"``, ``"80h"`` → ``"80H"``,
    ``"Capoth"`` → ``"capotH"``, ``"e:coinche"`` → ``"E:coinche"``."""
    if not isinstance(text, str):
        raise IllegalBidError(f"not a call: {text!r}")
    if text in _WORDS:
        return text  # (spelt so already: the most calls)
    t = text.strip()
    low = t.lower()
    if low in _WORDS:
        return low
    for word in ("generale", "capot"):
        if low.startswith(word):
            return word + t[len(word):].upper()
    if ":" in t:
        seat, _, rest = t.partition(":")
        return f"{seat.strip().upper()}:{normalise_call(rest)}"
    return t.upper()


class TakePassBidding:
    """The state of a take-or-pass auction.

    With two or three players (§12) each round has as many calls as players.
    Without a turned card (``turned`` = -1: the three-player kitty deal) there is
    one round only, in which any suit may be named.
    """

    def __init__(self, rules: Rules, dealer: int, turned: Card, players: int = 4) -> None:
        self.rules = rules
        self.dealer = dealer
        self.turned = turned
        self.players = players
        self.turn = (dealer + 1) % players
        self.round = 1 if turned >= 0 else 2
        self.calls: list[Call] = []
        self.taker: int | None = None
        self.trump: TrumpMode | None = None
        self.all_pass = False

    @property
    def finished(self) -> bool:
        return self.taker is not None or self.all_pass

    def legal_calls(self) -> list[str]:
        if self.finished:
            return []
        if self.round == 1:
            return [PASS, TAKE]
        turned_suit = suit_of(self.turned) if self.turned >= 0 else -1
        named = [SUIT_LETTERS[s] for s in range(4) if s != turned_suit]
        if self.rules.sa_ta_in_classic:
            named += [trump_name(NO_TRUMP), trump_name(ALL_TRUMP)]
        return [PASS, *named]

    def verify(self, call: str, seat: int | None = None) -> None:
        """Raise :class:`IllegalBidError` naming the rule when ``call`` is refused.

        ``seat``, when given, must be the seat to call (§3.2: one call a turn)."""
        if (seat is None or seat == self.turn) and call in self.legal_calls():
            return  # (most calls: legal, in turn)
        who = self.turn if seat is None else seat
        if self.finished:
            raise IllegalBidError(RuleCode.BIDDING_OVER, seat=who, call=call)
        if seat is not None and seat != self.turn:
            raise IllegalBidError(RuleCode.NOT_YOUR_TURN, seat=who, call=call, turn=self.turn)
        if self.round == 1:
            raise IllegalBidError(RuleCode.FIRST_ROUND_TAKE_OR_PASS, seat=who, call=call)
        if call == TAKE:
            raise IllegalBidError(RuleCode.SECOND_ROUND_NO_TAKE, seat=who)
        if self.turned >= 0 and call == SUIT_LETTERS[suit_of(self.turned)]:
            raise IllegalBidError(RuleCode.TURNED_SUIT_AGAIN, seat=who, call=call)
        raise IllegalBidError(RuleCode.SECOND_ROUND_NAME_A_SUIT, seat=who, call=call,
                              calls=self.legal_calls()[1:])

    def can(self, call: str, seat: int | None = None) -> bool:
        """Whether :meth:`call` would accept ``call`` (from ``seat``, when given)."""
        return (
            not self.finished and (seat is None or seat == self.turn)
            and call in self.legal_calls()
        )

    def call(self, call: str, seat: int | None = None) -> Call:
        """Make ``call`` for the seat to call, after :meth:`verify`."""
        self.verify(call, seat)
        if seat is None:
            record = _IN_TURN[self.turn][call]  # (made once: a call is a value)
        else:
            record = record_of(Call, seat=self.turn, call=call, named=True)
        self.calls.append(record)
        if call == TAKE:
            self.taker, self.trump = self.turn, suit_of(self.turned)
        elif call != PASS:
            self.taker = self.turn
            self.trump = {"SA": NO_TRUMP, "TA": ALL_TRUMP}.get(call, SUIT_LETTERS.find(call))
        elif len(self.calls) == (2 if self.turned >= 0 else 1) * self.players:
            self.all_pass = True
        else:
            if len(self.calls) == self.players:
                self.round = 2
            self.turn = (self.turn + 1) % self.players
        return record
