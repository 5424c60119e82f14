"""The table: how many seats, who plays with whom, what is dealt and how a hand scores
(docs/rules.md §0, §2, §3.1, §4.1, §12).

A :class:`Table` is one immutable value made from the rules.  Everything that
used to be asked as "how many players?" — the next seat, partners, the sides of
a contract and of the score, the cards in play, the size of a hand, what lies
face up or aside — is asked of it, so one code path serves two, three and four
players.

The phases of a deal and the ways of dealing are enums.  They are
:class:`~enum.StrEnum` so that they compare equal to, print as and serialise as
the words used in JSON (``"bidding"``, ``"kitty"``...).

>>> from belote.options import make_rules
>>> t = Table.of(make_rules("classic-3p", {"three_deal": "kitty"}))
>>> t.players, t.mode, t.hand_size, t.cards_in_play
(3, <DealMode.KITTY: 'kitty'>, 10, 30)
>>> t.sides(taker=1)
(1, 0, 1)
>>> Table.of(make_rules("coinche")).sides(taker=1), Table.of(make_rules("coinche")).partner(3)
((0, 1, 0, 1), 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from belote.cards import EIGHT, SEVEN, Card, CardMask, rank_of
from belote.errors import InvalidRecordError

if TYPE_CHECKING:
    from belote.options import Rules

__all__ = ["NO_SEAT", "SEAT_LETTERS", "DealMode", "Phase", "Table", "parse_seat", "seat_named"]

NO_SEAT = -1  # a seat number that names nobody (no partner, no turn)
SEAT_LETTERS: Final = "NESW"  # seats 0..3 (§0); a table of three has N, E, S, of two N, E


def seat_named(value: object, players: int = 4) -> int | None:
    """The seat a letter names (``"N"``, ``" s "``...: any case, spaces around), among
    the first ``players`` seats; ``None`` for anything else.

    >>> seat_named("w"), seat_named("W", 3), seat_named("NE"), seat_named(0)
    (3, None, None, None)
    """
    if isinstance(value, str):
        letter = value.strip().upper()
        if len(letter) == 1 and letter in SEAT_LETTERS[:players]:
            return SEAT_LETTERS.index(letter)
    return None


def parse_seat(value: object, where: str, players: int = 4) -> int:
    """:func:`seat_named`, or :class:`~belote.errors.InvalidRecordError` saying where
    and which seats there are."""
    seat = seat_named(value, players)
    if seat is None:
        names = ", ".join(SEAT_LETTERS[:players])
        raise InvalidRecordError(f"{where}: {value!r} is not a seat ({names})")
    return seat


class Phase(StrEnum):
    """Where a deal stands (docs/rules.md §2–§4, §12.1)."""

    BIDDING = "bidding"
    DISCARD = "discard"  # three players, kitty: the taker lays two cards aside (§12.1)
    PLAY = "play"
    OVER = "over"
    ALL_PASS = "all_pass"  # nobody took: the deal is thrown in (§2.5, §4.3)


class DealMode(StrEnum):
    """How a deal goes: the two four-player biddings and the §12 deals."""

    CLASSIC = "classic"  # take or pass, five cards and a turned card (§3)
    AUCTION = "auction"  # coinche / contrée: eight cards each, numeric auction (§4)
    CARDS_24 = "24_cards"  # three players, 7s and 8s out, as classic (§12.1)
    KITTY = "kitty"  # three players, ten each and a kitty of two (§12.1)
    SIX_EACH = "six_each"  # three players, six and three each, the rest out (§12.1)
    STOCK = "stock"  # two players, six and three each, the rest out (§12.2)
    DECOUVERTE = "decouverte"  # two players, piles of a face-down and a face-up card (§12.2)

    @property
    def takes_turned(self) -> bool:
        """The taker takes the turned card (§3.4)."""
        return self in _TAKES_TURNED

    @property
    def leaves_cards_out(self) -> bool:
        """Part of the pack is never played; the bergère lies face up (§12)."""
        return self in _LEAVES_CARDS_OUT

    @property
    def bids(self) -> bool:
        """Someone takes or bids; in découverte the last card dealt fixes trump."""
        return self is not DealMode.DECOUVERTE


# (Members and sets of members, read once: a member read from the class is slow.)
_TAKES_TURNED: Final = frozenset({DealMode.CLASSIC, DealMode.CARDS_24})
_LEAVES_CARDS_OUT: Final = frozenset({DealMode.SIX_EACH, DealMode.STOCK})
_CLASSIC: Final = DealMode.CLASSIC
_AUCTION: Final = DealMode.AUCTION


def deal_mode_of(players: int, three_deal: str, two_deal: str, auction: bool) -> DealMode:
    """The deal mode of a table; the option words are checked by :mod:`belote.options`."""
    if players == 3:
        return DealMode(three_deal)
    if players == 2:
        return DealMode(two_deal)
    return _AUCTION if auction else _CLASSIC


# Cards in play and each hand at the first trick, per deal mode (§3.4, §4.1, §12).
_CARDS: dict[DealMode, tuple[int, int]] = {
    DealMode.CLASSIC: (32, 8),
    DealMode.AUCTION: (32, 8),
    DealMode.CARDS_24: (24, 8),
    DealMode.KITTY: (30, 10),  # 32 dealt; the taker lays two aside, counted in his tricks
    DealMode.SIX_EACH: (27, 9),
    DealMode.STOCK: (18, 9),
    DealMode.DECOUVERTE: (32, 16),
}


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits where and what a deal is made of, for 2, 3 or 4 players."""

    players: int
    mode: DealMode
    # Worked out from the two above (fields, not properties: read in hot loops).
    # Each seat's :meth:`next`, by seat.
    next_seats: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # Each seat's :meth:`partner`, by seat.
    partners: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # Each leader's :meth:`order`, by seat.
    orders: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    # The cards of the pack used, in order (§1; the 24-card pack of §12.1).
    deck: tuple[Card, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"a table has 2, 3 or 4 players, not {self.players!r}")
        n = self.players
        object.__setattr__(self, "next_seats", tuple((s + 1) % n for s in range(n)))
        partner = (2, 3, 0, 1) if n == 4 else (NO_SEAT,) * n
        object.__setattr__(self, "partners", partner)
        orders = tuple(tuple((lead + i) % n for i in range(n)) for lead in range(n))
        object.__setattr__(self, "orders", orders)
        short = self.mode is DealMode.CARDS_24  # §12.1: the 7s and 8s are out
        deck = tuple(c for c in range(32) if not short or rank_of(c) not in (SEVEN, EIGHT))
        object.__setattr__(self, "deck", deck)

    @classmethod
    def of(cls, rules: Rules) -> Table:
        """The table the rules describe (one shared value per number of seats and deal
        mode: a table is made for every deal)."""
        mode = deal_mode_of(rules.players, rules.three_deal, rules.two_deal, rules.is_auction)
        table = _TABLES.get((rules.players, mode))
        return table if table is not None and cls is Table else cls(rules.players, mode)

    @staticmethod
    def seated(players: int) -> Table:
        """A table of ``players`` seats, for questions of seats and sides only (its deal
        mode is the default of that many players)."""
        if players not in (2, 3, 4):
            raise ValueError(f"a table has 2, 3 or 4 players, not {players!r}")
        return _SEATED[players]

    # --- seats ---------------------------------------------------------------

    @property
    def seats(self) -> range:
        return range(self.players)

    def next(self, seat: int) -> int:
        """The seat on ``seat``'s left, who plays after it."""
        return self.next_seats[seat]

    def partner(self, seat: int) -> int:
        """``seat``'s partner, or :data:`NO_SEAT` at a table of two or three."""
        return self.partners[seat]

    def order(self, leader: int) -> tuple[int, ...]:
        """The seats in play order from ``leader`` (who plays the i-th card of a trick)."""
        return self.orders[leader]

    @property
    def partnerships(self) -> bool:
        """Two teams of two (four players); otherwise each plays for himself."""
        return self.players == 4

    def sides(self, taker: int) -> tuple[int, ...]:
        """Each seat's side in a hand: side of the trick points and of the contract.

        Four players: North–South 0, East–West 1 whatever the contract.  Three: the
        taker 0, the two defenders 1 (§12.1).  Two: each seat its own side.
        """
        if self.players == 4:
            return (0, 1, 0, 1)
        if self.players == 3:
            return tuple(0 if s == taker else 1 for s in range(3))
        return (0, 1)

    def side_of(self, seat: int, taker: int) -> int:
        return self.sides(taker)[seat]

    @property
    def scores_per_seat(self) -> bool:
        """The game score is kept per seat (two and three players, §12) rather than
        per team."""
        return self.players != 4

    def score_column(self, seat: int) -> int:
        """The column of the game's score ``seat`` adds to: its team (0 NS, 1 EW) with
        four players, its own seat with two or three (§11, §12)."""
        if self.scores_per_seat:
            return seat
        return self.sides(NO_SEAT)[seat]  # four players: the teams, whoever takes

    # --- cards ---------------------------------------------------------------

    @property
    def deck_mask(self) -> CardMask:
        m = 0
        for c in self.deck:
            m |= 1 << c
        return m

    @property
    def cards_in_play(self) -> int:
        """How many cards the tricks of a deal are made of (the kitty discards aside)."""
        return _CARDS[self.mode][0]

    @property
    def hand_size(self) -> int:
        """Cards each seat holds when the first card is led (découverte: its piles)."""
        return _CARDS[self.mode][1]

    @property
    def tricks(self) -> int:
        """Tricks in a deal."""
        return self.cards_in_play // self.players


# Every table the rules can describe, made once (read-only): for :meth:`Table.of`, and
# one a number of players for :meth:`Table.seated`.
_TABLES: Final = MappingProxyType({
    (players, mode): Table(players, mode)
    for players, modes in (
        (4, (DealMode.CLASSIC, DealMode.AUCTION)),
        (3, (DealMode.CARDS_24, DealMode.KITTY, DealMode.SIX_EACH)),
        (2, (DealMode.STOCK, DealMode.DECOUVERTE)),
    )
    for mode in modes
})
_SEATED: Final = MappingProxyType({
    2: _TABLES[2, DealMode.STOCK],
    3: _TABLES[3, DealMode.CARDS_24],
    4: _TABLES[4, DealMode.CLASSIC],
})
