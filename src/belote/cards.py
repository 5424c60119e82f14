"""Cards and sets of cards as plain ints.

A card is an ``int`` from 0 to 31: ``suit * 8 + rank`` where suits are ordered
S H D C (0..3) and ranks in sequence order 7 8 9 T J Q K A (0..7).  A set of cards
(a hand, the cards played, the legal cards) is an ``int`` bit mask, bit ``card``
set when the card is in the set.  The eight cards of a suit are therefore eight
contiguous bits, and runs of a suit (declarations) are shifts and masks.

Hot code works on raw ints; :class:`CardSet` helpers and the parse/print pairs
(:func:`parse_card` / :func:`card_name`) serve users.

Trump *modes* extend the four suits: ``NO_TRUMP`` (sans-atout, SA) and
``ALL_TRUMP`` (tout-atout, TA).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from belote.errors import InvalidCardError

Card = int
CardMask = int
Suit = int
Rank = int
TrumpMode = int

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
NO_TRUMP: Final = 4  # sans-atout (SA)
ALL_TRUMP: Final = 5  # tout-atout (TA)

SUITS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
TRUMP_MODE_NAMES: Final = ("S", "H", "D", "C", "SA", "TA")

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)
RANKS: Final = tuple(range(8))
RANK_LETTERS: Final = "789TJQKA"

# Spanish (Moroccan) deck, docs/rules.md §1.2: 4≡7, 5≡8, 6≡9, 7≡10, sota≡J,
# caballo≡Q, rey≡K, as≡A.  Suits: espadas≡♠, copas≡♥, oros≡♦, bastos≡♣.
SPANISH_RANK_NUMBERS: Final = ("4", "5", "6", "7", "10", "11", "12", "1")
SPANISH_RANK_NAMES: Final = ("4", "5", "6", "7", "sota", "caballo", "rey", "as")
SPANISH_SUIT_LETTERS: Final = "ECOB"
SPANISH_SUIT_NAMES: Final = ("espadas", "copas", "oros", "bastos")

ALL_CARDS: Final[CardMask] = (1 << 32) - 1
SUIT_MASKS: Final = tuple(0xFF << (8 * s) for s in SUITS)
RANK_MASKS: Final = tuple(
    (1 << r) | (1 << (8 + r)) | (1 << (16 + r)) | (1 << (24 + r)) for r in RANKS
)
BIT: Final = tuple(1 << c for c in range(32))
# The king and queen of each suit: belote-rebelote when trumps (docs/rules.md §7.7).
BELOTE_MASKS: Final = tuple(1 << (8 * s + KING) | 1 << (8 * s + QUEEN) for s in SUITS)
# The trump suit's cards by trump mode: none in SA, and none in TA, where no suit cuts.
TRUMP_SUIT_MASKS: Final = tuple(SUIT_MASKS[m] if m < NO_TRUMP else 0 for m in range(6))

# Strength of a rank within a suit, higher wins (docs/rules.md §5.1).
TRUMP_ORDER: Final = (0, 1, 6, 4, 7, 2, 3, 5)  # J > 9 > A > T > K > Q > 8 > 7
PLAIN_ORDER: Final = (0, 1, 2, 6, 3, 4, 5, 7)  # A > T > K > Q > J > 9 > 8 > 7

# Card points (docs/rules.md §5.1, §5.3, §5.4).
TRUMP_POINTS: Final = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)
NO_TRUMP_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 19)
ALL_TRUMP_POINTS: Final = {
    "pc": (0, 0, 9, 5, 14, 1, 3, 6),
    "ffbc": (0, 0, 9, 5, 13, 2, 3, 6),
    "scaled": TRUMP_POINTS,
}
LAST_TRICK_BONUS: Final = 10
CAPOT_LAST_TRICK_BONUS: Final = 100


def card(suit: Suit, rank: Rank) -> Card:
    """The card of ``rank`` (0 = seven .. 7 = ace) in ``suit``."""
    return suit * 8 + rank


def suit_of(c: Card) -> Suit:
    """The suit of a card (0 spades, 1 hearts, 2 diamonds, 3 clubs: cards 8·suit..8·suit+7)."""
    return c >> 3


def rank_of(c: Card) -> Rank:
    """The rank of a card, 0 = seven .. 7 = ace (§1)."""
    return c & 7


# The same as tables, for loops where a call costs too much: ``SUIT_OF[c]``, ``RANK_OF[c]``.
SUIT_OF: Final[tuple[Suit, ...]] = tuple(suit_of(c) for c in range(32))
RANK_OF: Final[tuple[Rank, ...]] = tuple(rank_of(c) for c in range(32))


def scan_forward(mask: CardMask) -> Iterator[Card]:
    """The cards of ``mask`` from the lowest (7 of spades) up."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> CardMask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: CardMask) -> list[Card]:
    return list(scan_forward(mask))


def _piece_cards(low: int, bits: int) -> tuple[tuple[Card, ...], ...]:
    """The cards of each value of the ``bits`` bits of a mask from bit ``low`` up, lowest
    first: one table of :data:`MASK_PIECES`."""
    cards: list[tuple[Card, ...]] = [()]
    for c in range(low, low + bits):
        cards += [(*held, c) for held in cards]  # the values with the bit of c set
    return tuple(cards)


# The cards of each value of the three pieces of a mask (bits 0-10, 11-21, 22-31): a
# mask becomes a tuple by three look-ups (:func:`card_tuple`; written out where a view
# is made for every card played).  5,120 short tuples, made once.
MASK_PIECES: Final = (_piece_cards(0, 11), _piece_cards(11, 11), _piece_cards(22, 10))


def card_tuple(mask: CardMask) -> tuple[Card, ...]:
    """The cards of ``mask`` from the lowest up, as a tuple (by table: a hot path).

    >>> card_tuple(0b101 | 1 << 31)
    (0, 2, 31)
    """
    low, middle, high = MASK_PIECES
    return low[mask & 0x7FF] + middle[mask >> 11 & 0x7FF] + high[mask >> 22 & 0x3FF]


# --- names -----------------------------------------------------------------

_RANK_INPUT = {
    "7": SEVEN, "8": EIGHT, "9": NINE, "T": TEN, "10": TEN,
    "J": JACK, "Q": QUEEN, "K": KING, "A": ACE,
}
_SUIT_INPUT = {"S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS,
               "♠": SPADES, "♥": HEARTS, "♦": DIAMONDS, "♣": CLUBS,
               "♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS}
_SPANISH_RANK_INPUT = {n: r for r, n in enumerate(SPANISH_RANK_NUMBERS)}
_SPANISH_SUIT_INPUT = {
    "E": SPADES, "C": HEARTS, "O": DIAMONDS, "B": CLUBS,
    "ESPADAS": SPADES, "COPAS": HEARTS, "OROS": DIAMONDS, "BASTOS": CLUBS,
}


def parse_card(text: str) -> Card:
    """Parse a card in the forms of docs/json.md: ``JH``, ``TS``, ``10♥``, ``qd``.

    >>> parse_card("JH"), parse_card("10♥"), parse_card("7s")
    (12, 11, 0)
    >>> parse_card("1H")
    Traceback (most recent call last):
    ...
    belote.errors.InvalidCardError: not a card: '1H' (rank 7 8 9 T/10 J Q K A, then suit S H D C)
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"not a card: {text!r} (expected a string such as 'JH')")
    t = text.strip().upper()
    if len(t) >= 2:
        rank = _RANK_INPUT.get(t[:-1])
        suit = _SUIT_INPUT.get(t[-1])
        if rank is not None and suit is not None:
            return suit * 8 + rank
    raise InvalidCardError(
        f"not a card: {text!r} (rank 7 8 9 T/10 J Q K A, then suit S H D C)"
    )


def parse_spanish_card(text: str) -> Card:
    """Parse a Spanish card: ``1O`` (as de oros), ``12C`` (rey de copas), ``10 espadas``.

    Rank is the card's number (1 4 5 6 7 10 11 12), suit E C O B or its name.
    """
    t = text.strip().upper().replace(" DE ", " ")
    parts = t.split()
    if len(parts) == 2:
        rank_text, suit_text = parts
    elif len(t) >= 2:
        rank_text, suit_text = t[:-1], t[-1]
    else:
        rank_text, suit_text = "", ""
    rank = _SPANISH_RANK_INPUT.get(rank_text)
    suit = _SPANISH_SUIT_INPUT.get(suit_text)
    if rank is None or suit is None:
        raise InvalidCardError(
            f"not a Spanish card: {text!r} (number 1 4 5 6 7 10 11 12, then suit E C O B)"
        )
    return suit * 8 + rank


def parse_any_card(text: str, spanish: bool = False) -> Card:
    """Parse the canonical form, or the Spanish form when ``spanish`` and it fits."""
    if spanish:
        try:
            return parse_spanish_card(text)
        except InvalidCardError:
            pass
    return parse_card(text)


def card_name(c: Card) -> str:
    """The canonical two-letter form: ``JH``, ``TS``."""
    return RANK_LETTERS[RANK_OF[c]] + SUIT_LETTERS[SUIT_OF[c]]


def card_symbol(c: Card) -> str:
    """A form for people: ``10♥``, ``J♠``."""
    r = RANK_OF[c]
    return ("10" if r == TEN else RANK_LETTERS[r]) + SUIT_SYMBOLS[SUIT_OF[c]]


def spanish_name(c: Card) -> str:
    """The Spanish name of a card: ``1 de oros`` shown as ``as de oros``."""
    return f"{SPANISH_RANK_NAMES[RANK_OF[c]]} de {SPANISH_SUIT_NAMES[SUIT_OF[c]]}"


def spanish_short(c: Card) -> str:
    """The short Spanish form: ``1O``, ``12C``."""
    return SPANISH_RANK_NUMBERS[RANK_OF[c]] + SPANISH_SUIT_LETTERS[SUIT_OF[c]]


def parse_trump(text: str) -> TrumpMode:
    """``S H D C`` (or symbols), ``SA`` (no trump), ``TA`` (all trumps)."""
    t = text.strip().upper() if isinstance(text, str) else ""
    if t == "SA":
        return NO_TRUMP
    if t == "TA":
        return ALL_TRUMP
    suit = _SUIT_INPUT.get(t)
    if suit is None:
        raise InvalidCardError(f"not a trump: {text!r} (S H D C, SA or TA)")
    return suit


def trump_name(mode: TrumpMode) -> str:
    return TRUMP_MODE_NAMES[mode]


def mask_names(mask: CardMask) -> list[str]:
    """The cards of a mask in deck order S H D C, 7 to A, as canonical names."""
    return [card_name(c) for c in scan_forward(mask)]


# --- tables per trump mode ---------------------------------------------------

def points_table(mode: TrumpMode, ta_values: str = "pc") -> tuple[int, ...]:
    """Card points of each of the 32 cards under a trump mode (docs/rules.md §5)."""
    if mode == NO_TRUMP:
        per_rank = [NO_TRUMP_POINTS] * 4
    elif mode == ALL_TRUMP:
        per_rank = [ALL_TRUMP_POINTS[ta_values]] * 4
    else:
        per_rank = [TRUMP_POINTS if s == mode else PLAIN_POINTS for s in SUITS]
    return tuple(per_rank[SUIT_OF[c]][RANK_OF[c]] for c in range(32))


def order_table(mode: TrumpMode) -> tuple[int, ...]:
    """Rank strength of each card within its own suit under a trump mode (one table
    a mode, made once: the bots and the web read it at every card)."""
    return _ORDER_TABLES[mode]


def _order_table(mode: TrumpMode) -> tuple[int, ...]:
    if mode == ALL_TRUMP:
        return tuple(TRUMP_ORDER[RANK_OF[c]] for c in range(32))
    return tuple(
        TRUMP_ORDER[RANK_OF[c]] if SUIT_OF[c] == mode else PLAIN_ORDER[RANK_OF[c]]
        for c in range(32)
    )


_ORDER_TABLES: Final = tuple(_order_table(m) for m in range(6))


def beats(a: Card, b: Card, mode: TrumpMode) -> bool:
    """Whether card ``a`` beats card ``b`` when ``b`` is currently master of a trick.

    ``b`` is the master card so far; ``a`` beats it if it is a trump and ``b`` is
    not, or if both are of one suit and ``a`` ranks higher in that suit.
    """
    sa, sb = SUIT_OF[a], SUIT_OF[b]
    if sa == sb:
        order = TRUMP_ORDER if mode in (sa, ALL_TRUMP) else PLAIN_ORDER
        return order[RANK_OF[a]] > order[RANK_OF[b]]
    return sa == mode


class CardSet:
    """An immutable set of cards for users; wraps a raw ``int`` mask.

    >>> hand = CardSet.parse(["JH", "9H", "AS"])
    >>> str(hand), len(hand), parse_card("9H") in hand
    ('AS 9H JH', 3, True)
    """

    __slots__ = ("mask",)

    def __init__(self, mask: CardMask = 0) -> None:
        if not 0 <= mask <= ALL_CARDS:
            raise ValueError(f"not a card mask: {mask!r}")
        self.mask = mask

    @classmethod
    def parse(cls, texts: Iterable[str]) -> CardSet:
        return cls(mask_of(parse_card(t) for t in texts))

    def __iter__(self) -> Iterator[Card]:
        return scan_forward(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < 32 and bool(self.mask >> c & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __str__(self) -> str:
        return " ".join(mask_names(self.mask))

    def __repr__(self) -> str:
        return f"CardSet.parse({mask_names(self.mask)!r})"

    def names(self) -> list[str]:
        return mask_names(self.mask)
