"""Declarations (annonces) and belote-rebelote (docs/rules.md §7).

A declaration is a sequence (suite: tierce, cinquante, cent) of three or more
consecutive cards of one suit in the order 7 8 9 T J Q K A, or a carré (four
cards of one rank).  Because a suit is eight contiguous bits, the runs of a hand
are found with shifts and masks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from belote.cards import (
    ACE,
    ALL_TRUMP,
    JACK,
    KING,
    NINE,
    NO_TRUMP,
    QUEEN,
    RANK_LETTERS,
    RANK_MASKS,
    RANK_OF,
    SUIT_MASKS,
    TEN,
    Card,
    CardMask,
    TrumpMode,
    card_name,
    mask_of,
    scan_forward,
    suit_of,
)
from belote.errors import IllegalDeclarationError, RuleCode
from belote.options import DeclTie, Rules
from belote.records import record_of

SEQUENCE: Final = "sequence"
CARRE: Final = "carre"

# Carré values and their order of strength (§7.2, §7.5).
_CARRE_POINTS: Final = {JACK: 200, NINE: 150, ACE: 100, TEN: 100, KING: 100, QUEEN: 100}
_CARRE_ORDER: Final = {JACK: 6, NINE: 5, ACE: 4, TEN: 3, KING: 2, QUEEN: 1}
_SA_CARRE_POINTS: Final = {ACE: 200, TEN: 150, KING: 100, QUEEN: 100, JACK: 100, NINE: 100}
_SA_CARRE_ORDER: Final = {ACE: 6, TEN: 5, KING: 4, QUEEN: 3, JACK: 2, NINE: 1}


def sequence_points(length: int) -> int:
    """Tierce 20, cinquante 50, cent 100 for five or more (§7.2)."""
    if length >= 5:
        return 100
    return 50 if length == 4 else 20 if length == 3 else 0


def carre_points(rank: int, trump: TrumpMode) -> int:
    """Points of a carré of ``rank`` (0 for sevens and eights), §7.2."""
    table = _SA_CARRE_POINTS if trump == NO_TRUMP else _CARRE_POINTS
    return table.get(rank, 0)


@dataclass(frozen=True, slots=True)
class Declaration:
    """One announced combination: its kind, cards, and what it is worth."""

    kind: str  # SEQUENCE or CARRE
    cards: CardMask
    points: int
    suit: int  # the suit of a sequence; -1 for a carré
    rank: int  # the top rank of a sequence, the rank of a carré
    length: int

    @property
    def name(self) -> str:
        if self.kind == CARRE:
            return f"carré of {RANK_LETTERS[self.rank]}"
        return _SEQUENCE_NAMES.get(self.length, "cent")

    def card_names(self) -> list[str]:
        return [card_name(c) for c in scan_forward(self.cards)]

    def __str__(self) -> str:
        return f"{self.name} ({' '.join(self.card_names())}, {self.points})"


_SEQUENCE_NAMES: Final = MappingProxyType({3: "tierce", 4: "cinquante"})  # then cent

# The ranks where a run of three may start in each suit (7 to Q): a hand holds a run
# when some card of it here has the next two ranks of its suit.
_RUN_STARTS: Final = 0x3F3F3F3F
# The ranks of the scoring carrés (9 to A, §7.2) in one suit: a hand holds one when
# its four suits, shifted onto one another, share such a rank.
_CARRE_RANKS: Final = sum(1 << rank for rank in (NINE, TEN, JACK, QUEEN, KING, ACE))


def _new_sequence(suit: int, low: int, length: int) -> Declaration:
    cards = ((1 << length) - 1) << (suit * 8 + low)
    return Declaration(SEQUENCE, cards, sequence_points(length), suit, low + length - 1, length)


# Every sequence of three cards or more, made once: (suit, lowest rank, length) -> it.
# A declaration is an immutable value, so one object serves every hand that holds it
# (a new one costs more than the search for it, and trick 1 asks for them every deal).
_SEQUENCES: Final = MappingProxyType({
    (suit, low, length): _new_sequence(suit, low, length)
    for suit in range(4) for low in range(6) for length in range(3, 9 - low)
})


def make_sequence(suit: int, low: int, length: int) -> Declaration:
    """The sequence of ``length`` cards of ``suit`` from rank ``low`` up (§7.2)."""
    made = _SEQUENCES.get((suit, low, length))
    return made if made is not None else _new_sequence(suit, low, length)


def make_carre(rank: int, trump: TrumpMode) -> Declaration:
    """The carré of ``rank`` (§7.2: its points under ``trump``)."""
    return Declaration(CARRE, RANK_MASKS[rank], carre_points(rank, trump), -1, rank, 4)


def every_declaration() -> list[Declaration]:
    """Every combination a hand may announce: each sequence, each scoring carré with
    its points under a suit or tout-atout and under sans-atout (§7.2)."""
    carres = [make_carre(rank, trump) for trump in (0, NO_TRUMP) for rank in _CARRE_ORDER]
    return [*_SEQUENCES.values(), *carres]


def runs(hand: CardMask) -> list[tuple[int, int, int]]:
    """Maximal runs of three or more: (suit, lowest rank, length), by suit then rank.

    Each run is found from its lowest card, a card with the next two ranks of its
    suit (``_RUN_STARTS``), and measured as the ones above it within the suit."""
    found = []
    starts = hand & hand >> 1 & hand >> 2 & _RUN_STARTS
    while starts:
        low = (starts & -starts).bit_length() - 1
        rank = RANK_OF[low]
        above = hand >> low & 0xFF >> rank  # this card and those above it, in its suit
        length = (~above & (above + 1)).bit_length() - 1  # the ones from the bottom
        found.append((suit_of(low), rank, length))
        starts &= ~(((1 << length) - 1) << low)
    return found


def carres(hand: CardMask, trump: TrumpMode) -> list[Declaration]:
    """The scoring carrés the hand holds (§7.2: none for sevens and eights)."""
    return [
        make_carre(rank, trump)
        for rank in (NINE, TEN, JACK, QUEEN, KING, ACE)
        if hand & RANK_MASKS[rank] == RANK_MASKS[rank]
    ]


def _run_pieces(suit: int, low: int, length: int, split: bool) -> list[list[Declaration]]:
    """Ways to announce sub-runs of one run (each a list of sequences, maybe empty).

    Without ``split_long_runs`` two announced sequences of one run may not touch,
    so a run is announced as at most one sequence.
    """
    ways: list[list[Declaration]] = [[]]
    for start in range(low, low + length):
        for size in range(3, low + length - start + 1):
            first = make_sequence(suit, start, size)
            if not split:
                ways.append([first])
                continue
            rest_low = start + size
            for tail in _run_pieces(suit, rest_low, low + length - rest_low, True):
                ways.append([first, *tail])
    return ways


def best_announcement(hand: CardMask, rules: Rules, trump: TrumpMode) -> list[Declaration]:
    """All a hand holds, grouped to give the most points (the default announcement).

    Without ``card_reuse`` no card serves two combinations (§7.3).  Among groupings
    of equal points the one with the strongest best combination is chosen.
    """
    if not hand & hand >> 1 & hand >> 2 & _RUN_STARTS and not (
        hand & hand >> 8 & hand >> 16 & hand >> 24 & _CARRE_RANKS
    ):
        return []  # no run of three, no carré: the most hands
    candidates = (
        carres(hand, trump) if hand & hand >> 8 & hand >> 16 & hand >> 24 & _CARRE_RANKS
        else [])
    run_list = runs(hand)
    if not candidates and all(length <= 5 for _suit, _low, length in run_list):
        # Runs of at most five, no carré: each run whole is worth the most (20, 50, 100).
        return [make_sequence(suit, low, length) for suit, low, length in run_list]
    return _best_grouping(run_list, candidates, rules, trump)


def _best_grouping(
    run_list: list[tuple[int, int, int]], candidates: list[Declaration], rules: Rules,
    trump: TrumpMode,
) -> list[Declaration]:
    """:func:`best_announcement` of a hand with a long run or a carré: every way to
    cut its runs (``split_long_runs``) with every set of its carrés, the best kept.
    (Apart: the cells of its search are made only for these hands.)"""
    best: list[Declaration] = []
    best_key: tuple[int, tuple[int, ...]] = (0, ())
    run_choices = [
        _run_pieces(suit, low, length, rules.split_long_runs) for suit, low, length in run_list
    ]

    def visit(i: int, chosen: list[Declaration], used: int) -> None:
        nonlocal best, best_key
        if i == len(run_choices):
            for carre_set in _subsets(candidates):
                cu = used
                ok = True
                for cd in carre_set:
                    if not rules.card_reuse and cu & cd.cards:
                        ok = False
                        break
                    cu |= cd.cards
                if not ok:
                    continue
                total = chosen + carre_set
                key = (
                    sum(d.points for d in total),
                    max((strength(d, rules, trump) for d in total), default=()),
                )
                if key > best_key:
                    best, best_key = total, key
            return
        for way in run_choices[i]:
            m = 0
            for d in way:
                m |= d.cards
            visit(i + 1, chosen + way, used | m)

    visit(0, [], 0)
    return sorted(best, key=lambda d: (d.kind, d.suit, d.rank))


def _subsets(items: list[Declaration]) -> Iterable[list[Declaration]]:
    for bits in range(1 << len(items)):
        yield [items[i] for i in range(len(items)) if bits >> i & 1]


def strength(d: Declaration, rules: Rules, trump: TrumpMode) -> tuple[int, ...]:
    """The key that orders declarations for the comparison of §7.5.

    (1) points, a carré beating a sequence of equal points, carrés J>9>A>T>K>Q
    (SA: A>T>K>Q>J>9); (2) the higher top card (with ``longer_run_first`` the
    longer run first); (3) a sequence in trumps beats a plain one.
    """
    if d.kind == CARRE:
        order = _SA_CARRE_ORDER if trump == NO_TRUMP else _CARRE_ORDER
        return (d.points, 1, order[d.rank], 0, 0)
    length_key = d.length if rules.longer_run_first else 0
    in_trump = 1 if (d.suit == trump or trump == ALL_TRUMP) else 0
    return (d.points, 0, length_key, d.rank, in_trump)


def parse_combination(
    cards: Sequence[Card], hand: CardMask, rules: Rules, trump: TrumpMode, where: str
) -> Declaration:
    """Check one announced combination of cards held in ``hand`` (§7.2)."""
    names = [card_name(c) for c in cards]
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
        raise IllegalDeclarationError(RuleCode.COMBINATION_REPEATS_A_CARD, where=(where,),
                                      cards=names)
    if mask & ~hand:
        missing = [card_name(c) for c in scan_forward(mask & ~hand)]
        raise IllegalDeclarationError(RuleCode.COMBINATION_NOT_HELD, where=(where,),
                                      cards=names, other=missing)
    if len(cards) == 4:
        for rank in range(8):
            if mask == RANK_MASKS[rank]:
                if carre_points(rank, trump) == 0:
                    raise IllegalDeclarationError(RuleCode.CARRE_SCORES_NOTHING,
                                                  where=(where,), cards=names)
                return make_carre(rank, trump)
    if len(cards) >= 3:
        for suit in range(4):
            if mask & ~SUIT_MASKS[suit] == 0:
                low = (mask & -mask).bit_length() - 1
                if mask == ((1 << len(cards)) - 1) << low:
                    return make_sequence(suit, low - suit * 8, len(cards))
    raise IllegalDeclarationError(RuleCode.NOT_A_COMBINATION, where=(where,), cards=names)


def check_announcement(
    decls: Sequence[Declaration], rules: Rules, where: str
) -> None:
    """Refuse a set of combinations that reuses a card or splits a long run (§7.3)."""
    for i, d in enumerate(decls):
        for e in decls[i + 1:]:
            if d.cards & e.cards and (not rules.card_reuse or d.kind == e.kind):
                raise IllegalDeclarationError(RuleCode.CARD_IN_TWO_COMBINATIONS, where=(where,),
                                              cards=d.card_names(), other=e.card_names())
    if rules.split_long_runs:
        return
    for d in decls:
        if d.kind != SEQUENCE:
            continue
        touching = (d.cards << 1 | d.cards >> 1) & SUIT_MASKS[d.suit] & ~d.cards
        for e in decls:
            if e is not d and e.kind == SEQUENCE and e.cards & touching:
                raise IllegalDeclarationError(RuleCode.LONG_RUN_SPLIT, where=(where,),
                                              cards=d.card_names(), other=e.card_names())


@dataclass(frozen=True)  # (no slots: made by records.record_of, once a deal)
class DeclarationResult:
    """The comparison at trick 2 (§7.5, §7.6): who scores, and how much."""

    winner: int | None  # team, or None when nobody scores
    points: tuple[int, int]


# The comparison when nobody announced anything: nobody scores (one value, immutable).
NOTHING_DECLARED: Final = DeclarationResult(None, (0, 0))


def resolve(
    announced: Sequence[Sequence[Declaration]],
    rules: Rules,
    trump: TrumpMode,
    leader: int,
    teams: Sequence[int] = (0, 1, 0, 1),
) -> DeclarationResult:
    """Compare each team's best declaration; the winning team scores all its own.

    ``announced`` is per seat; ``teams`` gives each seat's side (with three
    players the taker against the other two, §12.1); ``leader`` led trick 1 (for
    ``decl_tie`` = first_announcer, the first seat in play order among the tied
    best).
    """
    if not any(announced):
        return NOTHING_DECLARED  # the most deals
    n = len(teams)
    best: list[tuple[int, ...] | None] = [None, None]
    for seat in range(n):
        side = teams[seat]
        for d in announced[seat]:
            key = strength(d, rules, trump)
            current = best[side]
            if current is None or key > current:
                best[side] = key
    b0, b1 = best
    winner: int | None
    if b0 is None and b1 is None:
        winner = None
    elif b1 is None or (b0 is not None and b0 > b1):
        winner = 0
    elif b0 is None or b1 > b0:
        winner = 1
    elif rules.decl_tie is DeclTie.FIRST_ANNOUNCER:
        winner = None
        for i in range(n):
            seat = (leader + i) % n
            if any(strength(d, rules, trump) == b0 for d in announced[seat]):
                winner = teams[seat]
                break
    else:
        winner = None
    points = [0, 0]
    if winner is not None:
        points[winner] = sum(
            d.points for seat in range(n) if teams[seat] == winner for d in announced[seat]
        )
    return record_of(DeclarationResult, winner=winner, points=(points[0], points[1]))


def belote_cards(hand: CardMask, trump: TrumpMode) -> CardMask:
    """The trump kings and queens that ``hand`` holds as pairs (§7.7): the cards of
    :func:`belote_suits`, by shifts (queen and king are neighbouring ranks)."""
    both = hand >> QUEEN & hand >> KING & _TRUMP_BASES[trump]  # bit 8s: suit s holds K, Q
    return both << QUEEN | both << KING


_SUIT_BASES: Final = 0x01010101  # the lowest card of each suit
# Per trump mode, the lowest card of each trump suit: the suit's own, every suit's in
# tout-atout, none in sans-atout.
_TRUMP_BASES: Final = tuple(
    _SUIT_BASES if mode == ALL_TRUMP else 0 if mode == NO_TRUMP else 1 << (8 * mode)
    for mode in range(6))


def belote_suits(hand: CardMask, trump: TrumpMode) -> list[int]:
    """Suits in which ``hand`` holds king and queen of trumps (§7.7).

    One suit at most under a trump suit, any in tout-atout, none in sans-atout.
    """
    if trump == NO_TRUMP:
        return []
    suits = range(4) if trump == ALL_TRUMP else (trump,)
    return [
        s for s in suits
        if hand >> (s * 8 + KING) & 1 and hand >> (s * 8 + QUEEN) & 1
    ]
