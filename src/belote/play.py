"""The card play of one hand: legal cards, tricks and their points (docs/rules.md §5, §6).

:class:`PlayState` is the fast, mutable state that search and bots use:
``push(card)`` is unchecked, ``pop()`` undoes it, ``legal_mask()`` is a few
table look-ups and bit operations.  The checked path (errors that name the
rule broken) is :func:`illegal_card`, used by :mod:`belote.hand`.

Seats are numbered in play order 0..3 (N E S W); teams are seats 0+2 (NS) and
1+3 (EW); the partner of seat ``p`` is ``p ^ 2``.  With two or three players
(docs/rules.md §12) the seats are 0..n-1, nobody has a partner, and ``teams`` says
which side each seat counts for (the taker's side 0, the others 1, for three).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from belote.cards import (
    ALL_TRUMP,
    CAPOT_LAST_TRICK_BONUS,
    LAST_TRICK_BONUS,
    NO_TRUMP,
    SUIT_MASKS,
    SUIT_OF,
    Card,
    CardMask,
    TrumpMode,
    card_name,
    order_table,
    points_table,
    scan_forward,
    suit_of,
)
from belote.errors import WHY, IllegalPlayError, RuleCode
from belote.options import Rules, TaValues
from belote.table import NO_SEAT, Table

SEAT_NAMES: Final = "NESW"
TEAM_NAMES: Final = ("NS", "EW")
TRICKS_PER_HAND: Final = 8

# Undertrump codes (docs/rules.md §6.3a `undertrump_partner`).
_UNDER_ALLOWED, _UNDER_ONLY_TRUMPS, _UNDER_MUST_OVER = 0, 1, 2
_UNDER_CODES: Final = {
    "allowed": _UNDER_ALLOWED,
    "only_if_only_trumps": _UNDER_ONLY_TRUMPS,
    "must_overtrump_if_only_trumps": _UNDER_MUST_OVER,
}


def _above_table(mode: TrumpMode) -> tuple[int, ...]:
    """For each card, the mask of the cards of its suit that rank above it."""
    order = order_table(mode)
    table = []
    for c in range(32):
        suit = suit_of(c)
        m = 0
        for d in range(suit * 8, suit * 8 + 8):
            if order[d] > order[c]:
                m |= 1 << d
        table.append(m)
    return tuple(table)


ABOVE: Final = tuple(_above_table(mode) for mode in range(6))  # per trump mode, per card


def _beating_table(mode: TrumpMode) -> tuple[CardMask, ...]:
    """For each card, the mask of the cards that take a trick over from it (§5.5): those
    of its suit that rank above it and, when it is a plain card, every trump."""
    above = ABOVE[mode]
    trumps = SUIT_MASKS[mode] if mode < NO_TRUMP else 0  # no suit cuts in SA nor in TA
    return tuple(above[c] | (trumps if SUIT_OF[c] != mode else 0) for c in range(32))


BEATING: Final = tuple(_beating_table(mode) for mode in range(6))  # per trump mode, per card
_ORDER: Final = tuple(order_table(mode) for mode in range(6))
_POINTS: Final = {
    (mode, ta): points_table(mode, ta)
    for mode in range(6)
    for ta in TaValues
}


def card_points(rules: Rules, trump: TrumpMode) -> tuple[int, ...]:
    """Points of each card under ``trump`` (tout-atout by ``rules.ta_values``)."""
    return _POINTS[(trump, rules.ta_values)]


def trick_winner(cards: Sequence[Card], trump: TrumpMode) -> int:
    """Index in ``cards`` (play order) of the card that wins the trick (§5.5)."""
    beating = BEATING[trump]
    best = 0
    master = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if beating[master] >> c & 1:
            best, master = i, c
    return best


class Trick(NamedTuple):
    """A completed trick: who led, the cards in play order, who won, its points.

    ``points`` include the last-trick bonus (10, or 100 when the trick
    completes a capot, docs/rules.md §5.2).  A named tuple: one is made for every
    trick of every hand the bots and the search play.
    """

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def to_json(self) -> dict[str, object]:
        return {
            "leader": SEAT_NAMES[self.leader],
            "cards": [card_name(c) for c in self.cards],
            "winner": SEAT_NAMES[self.winner],
            "points": self.points,
        }


# Each card's mask taken out of all the cards, ``~(1 << c)`` made once (push takes the
# card out of its hand with it: a measured hot path).
_ALL_BUT: Final = tuple(~(1 << c) for c in range(32))

# A Trick from its four fields, without the named tuple's own __new__ (one is made for
# every trick played: a measured hot path).
_new_trick: Final = tuple.__new__


class PlayState:
    """Card play of one hand; mutable, with unchecked ``push`` and ``pop``.

    ``tricks_left`` defaults to the size of the largest hand; ``tricks_won``
    counts the tricks each team already holds (for the capot bonus of a
    position taken in mid-hand).

    >>> from belote.options import make_rules
    >>> from belote.cards import parse_card, mask_of, HEARTS
    >>> hands = [mask_of(parse_card(c) for c in h.split()) for h in
    ...     ("JH 9H", "7H 8H", "AS TS", "KS QS")]
    >>> s = PlayState(make_rules(), HEARTS, hands, leader=0, tricks_left=2)
    >>> s.push(parse_card("9H")); [card_name(c) for c in s.legal_cards()]
    ['7H', '8H']
    """

    __slots__ = (
        "_above", "_beating", "_exempt", "_history", "_master_card", "_master_seat", "_next",
        "_order",
        "_overtrump_on_lead", "_partner", "_points", "_seat_at", "_team", "_under",
        "_undertrump_any",
        "hands", "leader", "players", "rules", "trick", "trick_points", "tricks", "tricks_left",
        "tricks_won", "trump", "turn",
    )

    def __init__(
        self,
        rules: Rules,
        trump: TrumpMode,
        hands: Sequence[CardMask],
        leader: int,
        tricks_left: int | None = None,
        tricks_won: Sequence[int] = (0, 0),
        teams: Sequence[int] | None = None,
        table: Table | None = None,
    ) -> None:
        """``table`` gives the seats' order and partners (by default the table of as
        many seats as ``hands``); ``teams`` each seat's side (by default the table's:
        needed with three players, whose sides depend on the taker)."""
        n = len(hands)
        if n not in (2, 3, 4):
            raise ValueError(f"PlayState needs 2, 3 or 4 hands, got {n}")
        if table is None:
            table = Table.seated(n)
        elif table.players != n:
            raise ValueError(f"PlayState: {n} hands at a table of {table.players}")
        if teams is None and table.players != 3:
            teams = table.sides(NO_SEAT)
        if teams is None or len(teams) != n:
            raise ValueError("PlayState for three players needs the side of each seat (teams)")
        self.players = n
        self._next = table.next_seats
        self._partner = table.partners
        self._seat_at = table.orders
        self._team = tuple(teams)
        self.rules = rules
        self.trump = trump
        self.hands = list(hands)
        self.leader = leader
        self.turn = leader
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.trick_points = [0, 0]
        self.tricks_won = [tricks_won[0], tricks_won[1]]
        self.tricks_left = (
            tricks_left if tricks_left is not None else max(h.bit_count() for h in hands)
        )
        self._master_card = -1
        self._master_seat = -1
        # The master each card that took a trick over had beaten (card, seat), for pop.
        self._history: list[tuple[int, int]] = []
        self._above = ABOVE[trump]
        self._beating = BEATING[trump]
        self._order = _ORDER[trump]
        self._points = card_points(rules, trump)
        self._overtrump_on_lead = rules.overtrump_partner_on_trump_lead
        self._exempt = rules.partner_master_exemption
        self._under = _UNDER_CODES[rules.undertrump_partner]
        self._undertrump_any = rules.must_undertrump

    # --- queries ----------------------------------------------------------

    def is_over(self) -> bool:
        return self.tricks_left == 0

    def legal_mask(self) -> CardMask:
        """The cards the seat to play may play (docs/rules.md §6)."""
        hand = self.hands[self.turn]
        trick = self.trick
        if not trick:
            return hand
        led = SUIT_OF[trick[0]]
        follow = hand & SUIT_MASKS[led]
        trump = self.trump
        if trump >= NO_TRUMP:
            if trump == ALL_TRUMP and follow:
                # §6.1 tout-atout: must beat the master card of the led suit if able.
                return (follow & self._above[self._master_card]) or follow
            return follow or hand  # §6.1 SA, §6.4
        master = self._master_card
        if led == trump:
            if not follow:
                return hand  # §6.4
            if not self._overtrump_on_lead and self._master_seat == self._partner[self.turn]:
                return follow
            return (follow & self._above[master]) or follow  # §6.2
        if follow:
            return follow  # §6.1
        trumps = hand & SUIT_MASKS[trump]
        if not trumps:
            return hand  # §6.3 d
        master_is_trump = SUIT_OF[master] == trump
        if self._exempt and self._master_seat == self._partner[self.turn]:  # §6.3 a
            under = self._under
            if under == _UNDER_ALLOWED or not master_is_trump:
                return hand
            higher = trumps & self._above[master]
            if hand == trumps:
                if under == _UNDER_MUST_OVER:
                    return higher or trumps
                return hand
            return (hand & ~trumps) | higher
        if not master_is_trump:
            return trumps  # §6.3 b
        higher = trumps & self._above[master]
        if higher:
            return higher  # §6.3 c
        return trumps if self._undertrump_any else hand

    def legal_cards(self) -> list[Card]:
        return list(scan_forward(self.legal_mask()))

    def partner(self, seat: int) -> int:
        """The partner of ``seat`` (-1 with two or three players)."""
        return self._partner[seat]

    def team(self, seat: int) -> int:
        """The side ``seat`` counts for (an index into ``trick_points``)."""
        return self._team[seat]

    def points_by_seat(self) -> list[int]:
        """Trick points each seat has won so far (last-trick bonus included)."""
        out = [0] * self.players
        for t in self.tricks:
            out[t.winner] += t.points
        return out

    def master(self) -> tuple[Card, int]:
        """The card currently winning the trick and its seat, or ``(-1, -1)``."""
        return self._master_card, self._master_seat

    def key(self) -> tuple[int, ...]:
        """A hashable key of the position (hands, leader, trick so far)."""
        return (*self.hands, self.leader, *self.trick)

    # --- moves ------------------------------------------------------------

    def push(self, c: Card) -> None:
        """Play card ``c`` for the seat to play; unchecked (see :func:`explain_illegal`)."""
        seat = self.turn
        self.hands[seat] &= _ALL_BUT[c]
        trick = self.trick
        if not trick:
            self._master_card, self._master_seat = c, seat
        else:
            m = self._master_card
            if self._beating[m] >> c & 1:  # (pop brings back the master c beat: kept only then)
                self._history.append((m, self._master_seat))
                self._master_card, self._master_seat = c, seat
        trick.append(c)
        if len(trick) < self.players:
            self.turn = self._next[seat]
            return
        winner = self._master_seat
        pts = self._points
        points = 0
        for x in trick:
            points += pts[x]
        team = self._team[winner]
        self.tricks_left -= 1
        self.tricks_won[team] += 1
        if self.tricks_left == 0:
            # §5.1 dix de der; §5.2 capot: 100 when the winners hold every trick.
            points += CAPOT_LAST_TRICK_BONUS if self.tricks_won[team ^ 1] == 0 else LAST_TRICK_BONUS
        self.trick_points[team] += points
        self.tricks.append(_new_trick(Trick, (self.leader, tuple(trick), winner, points)))
        self.trick = []
        self.leader = self.turn = winner
        self._master_card = self._master_seat = -1

    def pop(self) -> Card:
        """Undo the last ``push``; returns the card taken back."""
        if not self.trick:
            last = self.tricks.pop()
            team = self._team[last.winner]
            self.trick_points[team] -= last.points
            self.tricks_won[team] -= 1
            self.tricks_left += 1
            self.trick = list(last.cards)
            self.leader = last.leader
            # the master of the whole trick: the winner's card
            self._master_seat = last.winner
            self._master_card = last.cards[self._seat_at[last.leader].index(last.winner)]
        c = self.trick.pop()
        seat = self._seat_at[self.leader][len(self.trick)]
        self.hands[seat] |= 1 << c
        self.turn = seat
        if not self.trick:
            self._master_card = self._master_seat = -1
        elif c == self._master_card:  # c took the trick over when played: the master it beat
            self._master_card, self._master_seat = self._history.pop()
        return c

    def copy(self) -> PlayState:
        other = PlayState.__new__(PlayState)
        for name in PlayState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other.trick_points = list(self.trick_points)
        other.tricks_won = list(self.tricks_won)
        other._history = list(self._history)
        return other

    def played_mask(self) -> CardMask:
        return played_cards(self.tricks, self.trick)

    def capot(self) -> int | None:
        """The team that won every trick of a finished hand, or None."""
        if not self.is_over():
            return None
        for team in (0, 1):
            if self.tricks_won[team ^ 1] == 0:
                return team
        return None


def played_cards(tricks: Sequence[Trick], trick: Sequence[Card]) -> CardMask:
    """The cards of completed ``tricks`` and of the ``trick`` in progress."""
    m = 0
    for t in tricks:
        for c in t.cards:
            m |= 1 << c
    for c in trick:
        m |= 1 << c
    return m


def illegal_code(state: PlayState, c: Card) -> RuleCode | None:
    """The rule the seat to play breaks by playing ``c`` now, or None if legal."""
    seat = state.turn
    hand = state.hands[seat]
    if not hand >> c & 1:
        return RuleCode.CARD_NOT_HELD
    legal = state.legal_mask()
    if legal >> c & 1:
        return None
    trick = state.trick
    led = suit_of(trick[0])
    trump = state.trump
    if hand & SUIT_MASKS[led]:
        if trump == ALL_TRUMP or led == trump:
            return RuleCode.BEAT_THE_MASTER  # §6.1 (TA), §6.2
        return RuleCode.FOLLOW_SUIT
    master_card, master_seat = state.master()
    trumps = hand & SUIT_MASKS[trump] if trump < NO_TRUMP else 0
    if master_seat == state.partner(seat) and state.rules.partner_master_exemption:
        if hand == trumps:
            return RuleCode.OVERTRUMP_PARTNER  # §6.3a
        return RuleCode.UNDERTRUMP_PARTNER
    if suit_of(master_card) == trump and trumps & state._above[master_card]:
        return RuleCode.OVERTRUMP  # §6.3c
    if suit_of(master_card) == trump:
        return RuleCode.UNDERTRUMP  # §6.3c must_undertrump
    return RuleCode.MUST_TRUMP  # §6.3b


def illegal_card(state: PlayState, c: Card, where: Sequence[str] = ()) -> IllegalPlayError | None:
    """The refusal of ``c`` by the seat to play now (:func:`illegal_code`), its message
    opening with ``where`` (``("trick 3",)``); None if legal."""
    code = illegal_code(state, c)
    if code is None:
        return None
    return IllegalPlayError(code, where=where, seat=state.turn, card=card_name(c))


def explain_illegal(state: PlayState, c: Card) -> str | None:
    """Why the seat to play may not play ``c`` now (the rule broken, in English), or
    None if legal."""
    err = illegal_card(state, c)
    if err is None:
        return None
    assert err.code is not None
    return err.english() if err.code is RuleCode.CARD_NOT_HELD else WHY[err.code]
