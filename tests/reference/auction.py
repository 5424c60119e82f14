"""The reference engine for coinche and contrée, written plainly from docs/rules.md §4, §5.3-5.4,
§6 (SA/TA), §7 (SA/TA), §9 and §10, and docs/json.md ``belote replay``.

Like :mod:`tests.reference.engine` (whose card play, declarations and belote it reuses),
nothing here is fast or clever: calls are strings, the auction is a small state machine
that re-checks everything, and each rule names its docs/rules.md section.  The fast engine
is never imported.

Public names:

- :func:`deal_auction` (§4.1: 8 cards each in packets from the eldest)
- :class:`RefBid`, :func:`parse_bid`, :func:`bid_beats` (§4.3, §4.6, §4.8)
- :class:`RefAuction` (§4.2-4.9): ``legal_calls()``, ``check(call, seat)``,
  ``call(call, seat)``, ``out_of_turn_coinchers()``, ``contract()``
- :func:`round_points` (§10), :func:`scaled_points` (§5.4 ``scaled``)
- :func:`parse_auction_call`, :func:`run_auction` (a record's ``bids``)
- :func:`auction_hand_score` (§9, CONTRACT HandScore)
- :func:`ref_replay_auction` (CONTRACT ``belote replay`` for coinche and contrée)
- :data:`OTHER_READINGS`, :data:`DEFAULT_READINGS`: the points where the fast engine was
  seen to read docs/rules.md otherwise, which the reference can follow on demand (to name
  each disagreement in tests/test_crosscheck_auction.py)

Readings of docs/rules.md that the text leaves open are marked "READING:"; choices where
docs/rules.md and docs/json.md are silent (presentation, malformed input) "CHOICE:".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from belote.options import Rules, make_rules

from .engine import (
    SEATS,
    SUITS,
    TEAMS,
    RefPlay,
    _announcements,
    _belote_flags,
    _parse_hands,
    _parse_seat,
    belote_counts,
    belote_holders,
    check_record_keys,
    compare_declarations,
    next_seat,
    other_team,
    parse_plays,
    play_result,
    play_through,
    team_of,
)

# --- §4.1 the deal ---------------------------------------------------------------------


def deal_auction(deck: Sequence[str], dealer: str, pattern: str) -> dict[str, list[str]]:
    """§4.1: all 32 cards, 8 each, in packets (``deal_pattern`` 3-3-2, 3-2-3 or 2-3-3)
    given from the eldest round the table, the top of ``deck`` (index 0) first."""
    if sorted(deck) != sorted(set(deck)) or len(deck) != 32:
        raise ValueError(f"deck: {deck!r} is not 32 different cards")
    sizes = [int(x) for x in pattern.split("-")]
    if sorted(sizes) != [2, 3, 3]:
        raise ValueError(f"deal_pattern {pattern!r} is not a coinche pattern (docs/rules.md §4.1)")
    eldest = next_seat(dealer)
    hands: dict[str, list[str]] = {s: [] for s in SEATS}
    pos = 0
    for size in sizes:
        for i in range(4):
            seat = next_seat(eldest, i)
            hands[seat] += deck[pos: pos + size]
            pos += size
    return hands


# --- §4.3 bids ----------------------------------------------------------------------------

DENOMINATIONS: tuple[str, ...] = ("S", "H", "D", "C", "SA", "TA")  # listing order
# §4.3 suit_ranking: ♣ < ♦ < ♥ < ♠ < SA < TA.
RANKED: tuple[str, ...] = ("C", "D", "H", "S", "SA", "TA")
# §4.6, §4.8: a capot outranks every number; a générale outranks a capot.
KIND_RANK: dict[str, int] = {"number": 0, "capot": 1, "generale": 2}
CAPOT_VALUE = 250  # §4.3 "capot (contract value 250)"


@dataclass(frozen=True)
class RefBid:
    """A bid (§4.3): a number with a denomination, a capot, or a générale."""

    kind: str  # "number", "capot", "generale"
    value: int  # the number; 0 for capot and générale
    denom: str  # S H D C SA TA

    def text(self) -> str:
        """CONTRACT form: ``80H``, ``90SA``, ``capotS``, ``generaleTA``."""
        if self.kind == "number":
            return f"{self.value}{self.denom}"
        return f"{self.kind}{self.denom}"

    def contract_value(self) -> int | str:
        """CONTRACT ``contract.value``: the number, ``"capot"`` or ``"generale"``."""
        return self.value if self.kind == "number" else self.kind


_BID_RE = re.compile(r"^(?:(\d+)|(capot)|(generale))(SA|TA|S|H|D|C)$")


def parse_bid(text: str) -> RefBid | None:
    """The bid a call names, or None if the call is not shaped like a bid.

    CHOICE: only the canonical CONTRACT spellings are read (``80H``, ``capotS``,
    ``generaleTA``); the value's range is checked by :meth:`RefAuction.check`.
    """
    m = _BID_RE.match(text)
    if m is None:
        return None
    if m.group(1) is not None:
        return RefBid("number", int(m.group(1)), m.group(4))
    return RefBid("capot" if m.group(2) else "generale", 0, m.group(4))


def bid_beats(
    new: RefBid, old: RefBid | None, rules: Rules, readings: frozenset[str] = frozenset()
) -> bool:
    """§4.3, §4.6, §4.8: whether ``new`` overbids ``old``.

    A higher kind (number < capot < générale) or a higher number wins; an equal
    value (two capots, two générales, two equal numbers) wins only with
    ``suit_ranking`` and a higher denomination (♣<♦<♥<♠<SA<TA).  (Reading
    ``capot_unranked``: never between two capots or two générales.)
    """
    if old is None:
        return True
    key_new = (KIND_RANK[new.kind], new.value)
    key_old = (KIND_RANK[old.kind], old.value)
    if key_new != key_old:
        return key_new > key_old
    if "capot_unranked" in readings | DEFAULT_READINGS and new.kind != "number":
        return False
    return rules.suit_ranking and RANKED.index(new.denom) > RANKED.index(old.denom)


def bid_shape_error(bid: RefBid, rules: Rules) -> str | None:
    """§4.3, §4.8: why a bid can never be made under ``rules`` (None: it can)."""
    if bid.denom in ("SA", "TA") and not rules.sa_ta:
        return f"{bid.text()}: SA and TA need the option sa_ta (docs/rules.md §4.3)"
    if bid.kind == "generale" and not rules.generale:
        return f"{bid.text()}: the option generale is off (docs/rules.md §4.8)"
    if bid.kind == "number":
        if bid.value < 80 or bid.value % 10:
            return f"{bid.text()}: a bid is a multiple of 10 from 80 (docs/rules.md §4.3)"
        if rules.max_bid is not None and bid.value > rules.max_bid:
            return f"{bid.text()}: above max_bid {rules.max_bid} (docs/rules.md §4.3)"
    return None


def denominations(rules: Rules) -> list[str]:
    """§4.3: ♠♥♦♣, and SA, TA with ``sa_ta``."""
    return list(DENOMINATIONS) if rules.sa_ta else list(SUITS)


# --- other readings ----------------------------------------------------------------------

# Where the fast engine was seen to read docs/rules.md otherwise, the reference can follow that
# reading on demand, only so that the cross-check can name each disagreement
# (tests/test_crosscheck_auction.py); the reference's own reading is the default.
OTHER_READINGS: dict[str, str] = {
    "capot_unranked": "§4.3 suit_ranking does not order two capots or two générales",
    "reopen_survives_coinche": "§4.4 after a coinche in the reopening turn, every bid must "
                               "still change denomination until the next bid",
    "fail_base_rounded": "§9.2/§10 the failed contract's fail_base is rounded like trick points",
    "made_only_declarations": "§9.3 made_only: a failed or doubled hand's winner also scores "
                              "both teams' declarations (multiplied)",
    "bid_only_belote": "§9.4 bid_only: each team also scores its belote (§7.8)",
    "bid_only_capot_flat": "§9.4 bid_only: a capot bid scores by bid_capot_scoring "
                           "(flat 500×M / capot_fail_value×M)",
    "capot_base": "§9.2/§9.3 the base is unbid_capot_points whenever the winning "
                  "side took all 8 tricks (a capot by the defenders, a bid capot with "
                  "as_contract), not fail_base / 160",
    "base_is_fail_base": "§9.2/§9.3 the M>=2 base and made_only's 160 are fail_base",
    "forfeit_base": "§9.2 double_scope forfeit: base×M + C×M (500 + C×2 after an unbid "
                    "capot), not 320 / 640",
}
# The other readings the reference follows by default: empty, i.e. its own reading on
# every point.  Once the project rules for the fast engine's reading on one of the points
# above, add its name here (and the cross-check's named test for it is skipped).
DEFAULT_READINGS: frozenset[str] = frozenset()


# --- §4.2-4.9 the auction ---------------------------------------------------------------


@dataclass(frozen=True)
class RefContract:
    """The contract: the highest bid, its bidder (the taker) and M's level 1, 2, 4."""

    bidder: str
    bid: RefBid
    level: int  # 1, 2 (coinche), 4 (surcoinche; counts as surcoinche_factor, §4.7)


class RefAuction:
    """A coinche / contrée auction (§4.2-4.9), plainly.

    Our reading of the rules:

    - §4.2: from the eldest, in turn; a pass does not bar later bids.
    - §4.3: each bid overbids the current one (:func:`bid_beats`); partners may overbid.
    - §4.4: three consecutive passes after a bid end the auction; four passes with no
      bid are an all-pass.  ``reopen_by_suit_change``: when three passes follow a bid
      (no coinche since), its bidder has one more turn, in which he passes (ending the
      auction) or bids higher in another denomination (the auction goes on); once per bid.
    - §4.5: a coinche only by an opponent of the highest bidder, once per contract;
      ``coinche_in_turn`` false: also out of turn (record ``"E:coinche"``).
      ``coinche_freezes`` true: no more bids; the coincher's partner is silent; the two
      bidding-side players answer in turn from the player after the coincher, pass or
      surcoinche; a surcoinche ends at once, two passes end it.  False: the auction
      goes on from the player after the coincher; a higher bid cancels the coinche;
      three passes after the last bid or coinche end it; a surcoinche (by the bidding
      side, in turn) ends it at once.
    - §4.6: no numbers after a capot; ``capot_doublable`` false: no coinche on a capot.
    - §4.8: a générale (option ``generale``) outranks a capot.
    """

    def __init__(self, rules: Rules, dealer: str,
                 readings: frozenset[str] = frozenset()) -> None:
        self.rules = rules
        self.readings = readings | DEFAULT_READINGS
        self.dealer = dealer
        self.turn: str = next_seat(dealer)
        self.calls: list[tuple[str, str]] = []  # (seat, call) in order
        self.best: RefBid | None = None
        self.bidder: str | None = None
        self.coincher: str | None = None
        self.surcoinched = False
        self.passes = 0  # consecutive passes since the last bid or coinche
        self.reopen_done = False  # the current bid has had its reopening turn
        self.reopening = False  # the turn is the bidder's reopening turn (§4.4)
        self.change_denomination = False  # a bid now must change denomination (§4.4)
        self.answerers: list[str] | None = None  # frozen coinche (§4.5): who answers next
        self.finished = False
        self.all_pass = False

    # -- what may be called --

    def check(self, call: str, seat: str | None = None) -> str | None:
        """Why ``seat`` (default: the seat in turn) may not make ``call`` now; None if it may."""
        seat = self.turn if seat is None else seat
        if self.finished:
            return f"{call!r}: the auction is over (docs/rules.md §4.4/§4.5)"
        if call == "coinche":
            return self._check_coinche(seat)
        if seat != self.turn:
            return f"{seat} may not call {call!r}: it is {self.turn}'s turn (docs/rules.md §4.2)"
        if call == "pass":
            return None
        if call == "surcoinche":
            if self.coincher is None or self.bidder is None:
                return "surcoinche: there is no coinche to answer (docs/rules.md §4.5)"
            if team_of(seat) != team_of(self.bidder):
                return f"surcoinche: {seat} is not on the bidding side (docs/rules.md §4.5)"
            return None
        bid = parse_bid(call)
        if bid is None:
            return f"{call!r} is not a call (pass, a bid, coinche, surcoinche)"
        why = bid_shape_error(bid, self.rules)
        if why:
            return why
        if self.answerers is not None:
            return (f"{call!r}: after a coinche only pass or surcoinche "
                    "(docs/rules.md §4.5, freezes)")
        if not bid_beats(bid, self.best, self.rules, self.readings):
            assert self.best is not None
            return f"{call!r} does not overbid {self.best.text()} (docs/rules.md §4.3, §4.6)"
        if (self.change_denomination and self.best is not None
                and bid.denom == self.best.denom):
            return (f"{call!r}: the reopening turn needs another denomination than "
                    f"{self.best.text()} (docs/rules.md §4.4, reopen_by_suit_change)")
        return None

    def _check_coinche(self, seat: str) -> str | None:
        if seat != self.turn and self.rules.coinche_in_turn:
            return f"{seat} may not coinche out of turn (docs/rules.md §4.5, coinche_in_turn)"
        if self.best is None or self.bidder is None:
            return "coinche: there is no bid to coinche (docs/rules.md §4.5)"
        if self.coincher is not None:
            return "coinche: the contract is already coinched (docs/rules.md §4.5)"
        if team_of(seat) == team_of(self.bidder):
            return (f"coinche: only an opponent of the highest bidder {self.bidder} "
                    f"may coinche (docs/rules.md §4.5)")
        if self.best.kind == "capot" and not self.rules.capot_doublable:
            return "coinche: a capot bid may not be coinched (docs/rules.md §4.6, capot_doublable)"
        return None

    def bids_listed(self, cap: int) -> list[RefBid]:
        """Every bid shape under the rules, numbers up to ``cap`` (or ``max_bid``), in
        listing order: numbers by value then denomination S H D C SA TA, capots, générales."""
        top = self.rules.max_bid if self.rules.max_bid is not None else cap
        denoms = denominations(self.rules)
        out = [RefBid("number", v, d) for v in range(80, top + 1, 10) for d in denoms]
        out += [RefBid("capot", 0, d) for d in denoms]
        if self.rules.generale:
            out += [RefBid("generale", 0, d) for d in denoms]
        return out

    def listing_cap(self) -> int:
        """CHOICE (a listing convention; docs/rules.md sets no cap): with ``max_bid`` null,
        calls are listed up to 250 or 100 above the current number, whichever is higher."""
        current = self.best.value if self.best is not None and self.best.kind == "number" else 0
        return max(250, current + 100)

    def legal_calls(self, cap: int | None = None) -> list[str]:
        """The calls the seat in turn may make (out-of-turn coinches not included): pass,
        bids, coinche, surcoinche, in that order (CHOICE for the order)."""
        if self.finished:
            return []
        cap = self.listing_cap() if cap is None else cap
        calls = ["pass"]
        calls += [b.text() for b in self.bids_listed(cap) if self.check(b.text()) is None]
        calls += [c for c in ("coinche", "surcoinche") if self.check(c) is None]
        return calls

    def out_of_turn_coinchers(self) -> list[str]:
        """The seats other than the seat in turn that may coinche now (§4.5)."""
        if self.finished:
            return []
        return [s for s in SEATS if s != self.turn and self._check_coinche(s) is None]

    # -- making a call --

    def call(self, call: str, seat: str | None = None) -> None:
        """Make a call (raise ValueError if it is not allowed)."""
        seat = self.turn if seat is None else seat
        why = self.check(call, seat)
        if why is not None:
            raise ValueError(why)
        self.calls.append((seat, call))
        if call == "pass":
            self._pass(seat)
        elif call == "coinche":
            self.coincher = seat
            self.passes = 0
            self.reopening = False  # the auction goes on from the coincher (or freezes)
            if "reopen_survives_coinche" not in self.readings:
                self.change_denomination = False
            if self.rules.coinche_freezes:
                # §4.5: the two bidding-side players answer from the player after the coincher.
                self.answerers = [next_seat(seat, 1), next_seat(seat, 3)]
                self.turn = self.answerers[0]
            else:
                self.turn = next_seat(seat)
        elif call == "surcoinche":
            self.surcoinched = True
            self.finished = True
        else:
            bid = parse_bid(call)
            assert bid is not None
            self.best, self.bidder = bid, seat
            self.coincher = None  # §4.5 (coinche_freezes false): a higher bid cancels it
            self.passes = 0
            self.reopen_done = False
            self.reopening = self.change_denomination = False
            self.turn = next_seat(seat)

    def _pass(self, seat: str) -> None:
        if self.answerers is not None:
            self.answerers.pop(0)
            if not self.answerers:
                self.finished = True  # §4.5: two passes end a frozen coinche
            else:
                self.turn = self.answerers[0]
            return
        self.passes += 1
        if self.reopening:
            self.finished = True  # the bidder passes his reopening turn (§4.4)
        elif self.best is None and self.passes == 4:
            self.finished = self.all_pass = True  # §4.4 -> §2.4
        elif self.best is not None and self.passes == 3:
            if (self.rules.reopen_by_suit_change and self.coincher is None
                    and not self.reopen_done):
                self.reopen_done = self.reopening = self.change_denomination = True
                self.turn = next_seat(seat)
                assert self.turn == self.bidder
            else:
                self.finished = True  # §4.4 (or §4.5 freezes false: after a coinche)
        else:
            self.turn = next_seat(seat)

    def contract(self) -> RefContract | None:
        """The contract once the auction is over (None: unfinished or all-pass)."""
        if not self.finished or self.best is None or self.bidder is None:
            return None
        level = 4 if self.surcoinched else 2 if self.coincher is not None else 1
        return RefContract(self.bidder, self.best, level)


_CALL_RE = re.compile(r"^(\d+|capot|generale)(sa|ta|s|h|d|c)$")


def parse_auction_call(raw: object) -> tuple[str | None, str]:
    """A record's call: ``(seat or None, call)`` with the call in its canonical form.

    ``"E:coinche"`` names the seat making a coinche out of turn (§4.5).  CHOICE (input
    forms CONTRACT does not list, read as the fast engine reads them): any call may name
    its seat (``"N:pass"``; only a coinche may then be out of turn); case and spaces are
    free (``"PASS"``, ``"80 h"``, ``"Capoth"``).
    """
    if not isinstance(raw, str):
        raise ValueError(f"not a call: {raw!r}")
    text = raw.replace(" ", "")
    seat: str | None = None
    if ":" in text:
        head, _, text = text.partition(":")
        if head.upper() not in SEATS:
            raise ValueError(f"not a call: {raw!r} ({head!r} is not a seat)")
        seat = head.upper()
    low = text.lower()
    if low in ("pass", "coinche", "surcoinche"):
        return seat, low
    m = _CALL_RE.match(low)
    if m is None:
        raise ValueError(f"not a call: {raw!r} (pass, a bid such as 80H or capotS, "
                         f"coinche, surcoinche)")
    return seat, m.group(1) + m.group(2).upper()


def run_auction(
    rules: Rules, dealer: str, calls: object, readings: frozenset[str] = frozenset()
) -> RefAuction:
    """Every call of a record, checked; raise ValueError at the first refused one."""
    if not isinstance(calls, list):
        raise ValueError(f"bids: {calls!r} is not a list of calls")
    auction = RefAuction(rules, dealer, readings)
    for i, raw in enumerate(calls):
        if auction.finished:
            raise ValueError(f"bid {i + 1}: {raw!r} after the auction ended")
        seat, call = parse_auction_call(raw)
        who = seat or auction.turn
        try:
            auction.call(call, seat)
        except ValueError as exc:
            raise ValueError(f"bid {i + 1}: {who} may not call {raw!r}: {exc}") from None
    return auction


# --- §10 rounding, §5.4 scaled -------------------------------------------------------------


def round_points(points: int, rounding: str) -> int:
    """§10: ``none``; nearest 10 with 5 up (117 -> 120, 115 -> 120, 114 -> 110); with 6 up
    (115 -> 110, 116 -> 120)."""
    if rounding == "none":
        return points
    up = 5 if rounding == "nearest10_5up" else 6
    return (points + 10 - up) // 10 * 10


def scaled_points(points: int) -> int:
    """§5.4 ``scaled``: hand points on the 258 scale ×162/258, rounded to the nearest
    (never a half: 81·x/129 with 129 odd), so the two teams' add up to 162."""
    return (points * 162 * 2 + 258) // (2 * 258)


# --- §9 the hand score ---------------------------------------------------------------------


def auction_hand_score(
    rules: Rules,
    contract: RefContract,
    trump: str,
    trick_points: Mapping[str, int],
    capot: str | None,
    bidder_won_all: bool,
    declarations: Mapping[str, int],
    belote: Mapping[str, int],
    readings: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """§9 (with §7.8, §10): CONTRACT HandScore of a coinche / contrée hand.

    ``trick_points`` as played (with 252/0 on a capot; TA ``scaled``: on the 258 scale),
    ``declarations`` the validated points per team (§7.5-7.6), ``belote`` the belote
    points per team.  READINGS where docs/rules.md is open are marked in the body.
    """
    readings = readings | DEFAULT_READINGS
    takers = team_of(contract.bidder)
    defenders = other_team(takers)
    bid = contract.bid
    # §4.7: M = 1, 2, or surcoinche_factor.
    m = {1: 1, 2: 2, 4: rules.surcoinche_factor}[contract.level]
    # P: trick points; §5.4 scaled: the hand points ×162/258 rounded.
    # READING: a capot counts 252 / 0 on any scale (§5.2 "trick total 252").
    if trump == "TA" and rules.ta_values == "scaled":
        p = {t: scaled_points(trick_points[t]) for t in TEAMS}
        if capot is not None:
            p = {capot: 252, other_team(capot): 0}
    else:
        p = {t: trick_points[t] for t in TEAMS}
    a = {t: declarations.get(t, 0) for t in TEAMS}
    # §8.5 capot_loser_declarations, kept in the coinche and contrée columns of the
    # profile table (which decides over §9.2's "defenders' declarations pass to takers",
    # the value to_capot_team).  READING: applied before anything else, as in §8.
    if capot is not None:
        loser_of_capot = other_team(capot)
        if rules.capot_loser_declarations == "to_capot_team":
            a[capot] += a[loser_of_capot]
            a[loser_of_capot] = 0
        elif rules.capot_loser_declarations == "void":
            a[loser_of_capot] = 0
    b = {t: belote.get(t, 0) for t in TEAMS}
    # CONTRACT totals: trick points + validated declarations + belote, unrounded (§10).
    totals = {t: p[t] + a[t] + b[t] for t in TEAMS}

    # §9.1 made or failed.
    unbid_capot = bid.kind == "number" and capot == takers
    if bid.kind == "capot":
        made = capot == takers
    elif bid.kind == "generale":
        made = bidder_won_all  # §4.8: the bidder personally wins all 8 tricks
    else:
        need = rules.min_80 if bid.value == 80 else bid.value
        counted = p[takers] + (a[takers] if rules.decl_count_for_contract else 0) + b[takers]
        made = counted >= need
        if rules.beat_defence and not totals[takers] > totals[defenders]:
            made = False
    winner, loser = (takers, defenders) if made else (defenders, takers)

    # §7.8: belote is never multiplied; a failed taker's belote stays with him (kept) or
    # goes to the defenders (defenders).
    own_belote = dict(b)
    if not made and rules.belote_on_failure == "defenders":
        own_belote[defenders] += own_belote[takers]
        own_belote[takers] = 0

    score = {"NS": 0, "EW": 0}

    def r(x: int) -> int:
        return round_points(x, rules.rounding)

    if rules.count_mode == "bid_only":
        # §9.4: the winner scores C×M only.  READING: "only" = no belote either;
        # C = 250 for a capot (§9: "C contract value, capot 250"), generale_value for a
        # générale.
        c = (bid.value if bid.kind == "number" else
             CAPOT_VALUE if bid.kind == "capot" else rules.generale_value)
        if ("bid_only_capot_flat" in readings and bid.kind == "capot"
                and rules.bid_capot_scoring == "flat"):
            c = 500 if made else rules.capot_fail_value
        score[winner] = c * m
        if "bid_only_belote" in readings:
            score[winner] += own_belote[winner]
            score[loser] += own_belote[loser]
        return _hand(made, totals, score)

    if bid.kind == "generale" or (bid.kind == "capot" and (
            rules.bid_capot_scoring == "flat" or rules.count_mode == "made_only")):
        # §9.2 capot bid, flat: the winner 500×M (capot_fail_value×M when the takers
        # fail) + belote; générale: generale_value×M.  READING: the same in made_only
        # (§9.3 "capot 500/1000/2000"), and the loser keeps its own belote (§7.8).
        if bid.kind == "generale":
            value = rules.generale_value
        else:
            value = 500 if made else rules.capot_fail_value
        score[winner] = value * m + own_belote[winner]
        score[loser] = own_belote[loser]
        return _hand(made, totals, score)

    c = bid.value if bid.kind == "number" else CAPOT_VALUE  # as_contract: C = 250
    # The fixed bases.  READINGS: §9.2 writes R on trick points only, so fail_base is not
    # rounded; it writes 160 (not fail_base) for the M >= 2 base, as §9.3 does.
    fail_base = r(rules.fail_base) if "fail_base_rounded" in readings else rules.fail_base
    base160 = fail_base if "base_is_fail_base" in readings else 160
    winner_capot = "capot_base" in readings and capot == winner
    capot_base = rules.unbid_capot_points  # §9.2: a fixed value, never rounded

    if rules.count_mode == "made_only":
        # §9.3: made -> each team R(P)+A+B; failed -> defenders 160 + belote; contré 320,
        # surcontré 640.  READING: with M >= 2 the winner scores 160×M + its belote,
        # made or failed; the loser its own belote.
        if m == 1 and made:
            for t in TEAMS:
                score[t] = r(p[t]) + a[t] + b[t]
        else:
            extra = a[takers] + a[defenders] if "made_only_declarations" in readings else 0
            base = capot_base if winner_capot else base160
            score[winner] = (base + extra) * m + own_belote[winner]
            score[loser] = own_belote[loser]
        return _hand(made, totals, score)

    # §9.2 count_mode = made_plus_bid (numbers; capot bids with as_contract, C = 250).
    if m == 1:
        if made and unbid_capot:
            # Unbid capot by takers: P = unbid_capot_points (the defenders' declarations
            # follow capot_loser_declarations, above), a fixed value that §10 never rounds
            # (§9.2: FFB contrée 252 + 120 = 372).
            score[takers] = rules.unbid_capot_points + a[takers] + b[takers] + c
            score[defenders] = a[defenders] + b[defenders]
        elif made:
            score[takers] = r(p[takers]) + a[takers] + b[takers] + c
            score[defenders] = r(p[defenders]) + a[defenders] + b[defenders]
        else:
            base = capot_base if winner_capot else fail_base
            score[takers] = own_belote[takers]
            score[defenders] = base + c + a[defenders] + a[takers] + own_belote[defenders]
        return _hand(made, totals, score)

    # M >= 2: the winner scores by double_scope, the loser its own belote only.
    # READING: base 160, 250 after an unbid capot made by the takers (as written; not
    # unbid_capot_points); forfeit is 160×M + C×M (320 at M=2, 640 at M=4).
    base = 250 if (made and unbid_capot) else base160
    if winner_capot:
        base = capot_base
    if rules.double_scope == "whole":
        value = (base + c + a[takers] + a[defenders]) * m
    elif rules.double_scope == "contract_only":
        value = base + a[takers] + a[defenders] + c * m
    else:
        value = (base if "forfeit_base" in readings else base160) * m + c * m
    score[winner] = value + own_belote[winner]
    score[loser] = own_belote[loser]
    return _hand(made, totals, score)


def _hand(made: bool, totals: dict[str, int], score: dict[str, int]) -> dict[str, Any]:
    """CONTRACT HandScore: no litige in §9, so the reserve is always 0."""
    return {"outcome": "made" if made else "failed", "totals": totals, "score": score,
            "reserve": 0}


# --- CONTRACT `belote replay` for coinche and contrée ---------------------------------------


def ref_replay_auction(
    record: Mapping[str, Any], readings: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """CONTRACT ``belote replay --json`` for profiles coinche and contree.

    ``readings``: names of :data:`OTHER_READINGS` to follow instead of the reference's own
    (only to name the disagreements with the fast engine).

    The same conventions as :func:`tests.reference.engine.ref_replay` (void answer,
    unfinished answers, the ``trick`` key while a trick is in progress), and:

    - ``turned`` must be absent (CHOICE: or null) — no card is turned up (§4.1);
    - ``bids`` as CONTRACT: an out-of-turn coinche is ``"E:coinche"`` (§4.5);
    - unfinished auction: ``next`` = the seat in turn and its calls
      (:meth:`RefAuction.legal_calls`);
    - ``contract.value`` is the number, ``"capot"`` or ``"generale"``;
      ``contract.multiplier`` the level 1, 2 or 4 (CONTRACT: a surcoinche is 4 whatever
      ``surcoinche_factor``);
    - trick 1 is led by the eldest, after a générale by its bidder (§4.9).
    """
    check_record_keys(record)
    profile = record.get("profile", "classic")
    if profile not in ("coinche", "contree"):
        raise ValueError(f"profile: {profile!r} is not coinche or contree")
    options = record.get("options") or {}
    rules = make_rules(profile, options)
    dealer = _parse_seat(record.get("dealer"), "dealer")
    hands = _parse_hands(record.get("hands"))
    if record.get("turned") is not None:
        raise ValueError(f"turned: {record['turned']!r}: no card is turned up in "
                         f"{profile} (docs/rules.md §4.1)")
    plays_raw = parse_plays(record)
    auction = run_auction(rules, dealer, record.get("bids", []), readings)
    contract = auction.contract()
    if contract is None:
        if plays_raw:
            raise ValueError(f"plays: {plays_raw[0]!r} played "
                             + ("after an all-pass deal" if auction.finished
                                else "before the auction ended"))
        if auction.finished:
            zero = {"NS": 0, "EW": 0}
            return {"complete": True, "contract": None,
                    "score": {"outcome": "void", "totals": dict(zero), "score": dict(zero),
                              "reserve": 0}}
        return {"complete": False, "contract": None, "tricks": [], "score": None,
                "next": {"seat": auction.turn, "legal": auction.legal_calls()}}

    trump = contract.bid.denom
    taker = contract.bidder
    leader = taker if contract.bid.kind == "generale" else next_seat(dealer)  # §4.9
    announced = _announcements(record, hands, trump, rules)
    decl = compare_declarations(announced, trump, rules, leader)
    holders = belote_holders(hands, trump)
    flags = _belote_flags(record, holders)

    state = RefPlay(rules, trump, hands, leader)
    played = play_through(state, plays_raw)

    belote_points = {"NS": 0, "EW": 0}
    belote_team: str | None = None
    first_said = 33
    for seat, s in holders:
        if flags[seat] and belote_counts(seat, s, played, rules):
            belote_points[team_of(seat)] += 20
            # CHOICE (CONTRACT is silent when both teams announce one in TA): the team
            # that said "belote" first, i.e. played the first of its K and Q first.
            said = min(i for i, (w, c) in enumerate(played)
                       if w == seat and c in ("K" + s, "Q" + s))
            if said < first_said:
                first_said, belote_team = said, team_of(seat)

    result = play_result(state, played,
                         {"taker": taker, "team": team_of(taker), "trump": trump,
                          "value": contract.bid.contract_value(),
                          "multiplier": contract.level},
                         decl, belote_team, belote_points)
    if result["complete"]:
        bidder_won_all = all(t.winner == taker for t in state.tricks)
        result["score"] = auction_hand_score(
            rules, contract, trump, state.trick_points, result["capot"], bidder_won_all,
            decl["points"], belote_points, readings,
        )
    return result
