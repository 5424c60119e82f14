"""Declarations and belote (docs/rules.md §7)."""

from __future__ import annotations

import random

import pytest

from belote.cards import ALL_TRUMP, HEARTS, KING, NO_TRUMP, QUEEN, SPADES, card, parse_card
from belote.declarations import (
    CARRE,
    SEQUENCE,
    Declaration,
    belote_cards,
    belote_suits,
    best_announcement,
    check_announcement,
    parse_combination,
    resolve,
    runs,
)
from belote.errors import IllegalDeclarationError
from belote.options import make_rules
from tests.helpers import mask

R = make_rules()


def best(hand: str, trump: int = HEARTS, **opts: object) -> list[tuple[str, int]]:
    rules = make_rules("classic", opts)
    return [(d.kind, d.points) for d in best_announcement(mask(hand), rules, trump)]


def combo(cards: str, hand: str | None = None, trump: int = HEARTS) -> Declaration:
    cs = [parse_card(c) for c in cards.split()]
    return parse_combination(cs, mask(hand or cards), R, trump, "test")


def test_7_2_sequence_values() -> None:
    assert best("7S 8S 9S") == [(SEQUENCE, 20)]
    assert best("7S 8S 9S TS") == [(SEQUENCE, 50)]
    assert best("7S 8S 9S TS JS") == [(SEQUENCE, 100)]
    assert best("7S 8S 9S TS JS QS KS AS") == [(SEQUENCE, 100)]  # one cent (§7.3)
    assert best("7S 8S TS JS") == []  # no run of three
    assert best("KS AS 7H 8H") == []  # no wrap (A is top)


def test_7_2_carre_values() -> None:
    assert best("JS JH JD JC") == [(CARRE, 200)]
    assert best("9S 9H 9D 9C") == [(CARRE, 150)]
    for r in "ATKQ":
        assert best(f"{r}S {r}H {r}D {r}C") == [(CARRE, 100)]
    assert best("7S 7H 7D 7C") == []
    assert best("8S 8H 8D 8C") == []


def test_7_2_sans_atout_carres() -> None:
    assert best("AS AH AD AC", NO_TRUMP) == [(CARRE, 200)]
    assert best("TS TH TD TC", NO_TRUMP) == [(CARRE, 150)]
    assert best("JS JH JD JC", NO_TRUMP) == [(CARRE, 100)]


def test_7_3_split_long_runs() -> None:
    eight = "7S 8S 9S TS JS QS KS AS"
    assert sorted(best(eight, split_long_runs=True)) == [(SEQUENCE, 20), (SEQUENCE, 100)]
    assert sum(p for _, p in best(eight, split_long_runs=True)) == 120


def test_7_3_card_reuse_false_takes_the_best_grouping() -> None:
    # 7S 8S 9S TS (50) and carré of tens (100): without reuse, carré + tierce 7-8-9 = 120.
    hand = "7S 8S 9S TS TH TD TC"
    assert sorted(best(hand)) == [(CARRE, 100), (SEQUENCE, 20)]
    assert sorted(best(hand, card_reuse=True)) == [(CARRE, 100), (SEQUENCE, 50)]


def test_parse_combination_refusals() -> None:
    with pytest.raises(IllegalDeclarationError, match="not a sequence"):
        combo("7S 8S TS")
    with pytest.raises(IllegalDeclarationError, match="does not hold"):
        combo("7S 8S 9S", "7S 8S")
    with pytest.raises(IllegalDeclarationError, match="scores nothing"):
        combo("7S 7H 7D 7C")
    assert combo("QH KH AH").points == 20


def test_check_announcement_refuses_a_split_run_and_reuse() -> None:
    a, b = combo("7S 8S 9S"), combo("TS JS QS")
    with pytest.raises(IllegalDeclarationError, match="split one run"):
        check_announcement([a, b], R, "N")
    check_announcement([a, b], make_rules("classic", {"split_long_runs": True}), "N")
    c = combo("TS TH TD TC")
    with pytest.raises(IllegalDeclarationError, match="one combination only"):
        check_announcement([b, c], R, "N")
    check_announcement([b, c], make_rules("classic", {"card_reuse": True}), "N")


def seat_decls(*per_seat: str) -> list[list[Declaration]]:
    out: list[list[Declaration]] = []
    for text in per_seat:
        out.append([combo(part) for part in text.split("|") if part.strip()])
    return out


def test_7_5_higher_value_wins_and_team_scores_all_its_own() -> None:
    res = resolve(seat_decls("7S 8S 9S", "7D 8D 9D TD", "7C 8C 9C", ""), R, HEARTS, 0)
    assert res.winner == 1 and res.points == (0, 50)
    res = resolve(seat_decls("7S 8S 9S TS", "", "7C 8C 9C", ""), R, HEARTS, 0)
    assert res.winner == 0 and res.points == (0 + 70, 0)


def test_7_5_carre_beats_sequence_of_equal_value() -> None:
    res = resolve(seat_decls("QS QH QD QC", "7D 8D 9D TD JD", "", ""), R, HEARTS, 1)
    assert res.winner == 0


def test_7_5_carre_order() -> None:
    res = resolve(seat_decls("KS KH KD KC", "AS AH AD AC", "", ""), R, HEARTS, 0)
    assert res.winner == 1


def test_7_5_top_card_then_trump_then_tie() -> None:
    res = resolve(seat_decls("8S 9S TS", "7D 8D 9D", "", ""), R, HEARTS, 0)
    assert res.winner == 0  # higher top card
    res = resolve(seat_decls("8S 9S TS", "8H 9H TH", "", ""), R, HEARTS, 0)
    assert res.winner == 1  # trump beats plain
    res = resolve(seat_decls("8S 9S TS", "8D 9D TD", "", ""), R, HEARTS, 0)
    assert res.winner is None and res.points == (0, 0)  # decl_tie nobody
    first = make_rules("classic", {"decl_tie": "first_announcer"})
    assert resolve(seat_decls("8S 9S TS", "8D 9D TD", "", ""), first, HEARTS, 1).winner == 1
    assert resolve(seat_decls("8S 9S TS", "8D 9D TD", "", ""), first, HEARTS, 0).winner == 0


def test_7_5_longer_run_first() -> None:
    decls = seat_decls("9S TS JS QS KS AS", "7D 8D 9D TD JD QD KD", "", "")
    # default: higher top card (A over K); with the option: the longer run.
    assert resolve(decls, R, HEARTS, 0).winner == 0
    assert resolve(decls, make_rules("classic", {"longer_run_first": True}), HEARTS, 0).winner == 1


def test_7_7_belote_suits() -> None:
    assert belote_suits(mask("KH QH"), HEARTS) == [HEARTS]
    assert belote_suits(mask("KS QS"), HEARTS) == []
    assert belote_suits(mask("KS QS KH QH"), 5) == [SPADES, HEARTS]  # one per suit in TA
    assert belote_suits(mask("KS QS"), NO_TRUMP) == []  # none in SA


def test_7_7_belote_cards_are_the_pairs_of_belote_suits() -> None:
    """§7.7: the fast mask of the pairs held equals the suits found one by one, for
    every trump mode, on hands holding each pattern of kings and queens."""
    rng = random.Random(77)
    hands = [rng.getrandbits(32) for _ in range(2000)]
    hands += [mask("KH QH KS QS KD QD KC QC"), mask("KH QS"), 0]
    for hand in hands:
        for trump in (*range(4), NO_TRUMP, ALL_TRUMP):
            expected = 0
            for suit in belote_suits(hand, trump):
                expected |= 1 << card(suit, KING) | 1 << card(suit, QUEEN)
            assert belote_cards(hand, trump) == expected, (hex(hand), trump)
    assert belote_cards(mask("KH QH KS QS"), HEARTS) == mask("KH QH")


def test_runs() -> None:
    assert runs(mask("7S 8S 9S JS QS KS 9H TH")) == [(0, 0, 3), (0, 4, 3)]


def _runs_reference(hand: int) -> list[tuple[int, int, int]]:
    """§7.2 sequences, slowly: each suit's ranks 7..A walked one by one."""
    found: list[tuple[int, int, int]] = []
    for suit in range(4):
        length = 0
        for rank in range(9):
            if rank < 8 and hand >> (suit * 8 + rank) & 1:
                length += 1
                continue
            if length >= 3:
                found.append((suit, rank - length, length))
            length = 0
    return found


def test_7_2_runs_match_a_rank_by_rank_walk() -> None:
    """The runs found by shifts are those of a plain walk over the ranks: every pattern
    of one suit (256, in each suit) and random hands."""
    hands = [bits << (8 * suit) for suit in range(4) for bits in range(256)]
    rng = random.Random(72)
    hands += [rng.getrandbits(32) for _ in range(3000)] + [0xFFFFFFFF]
    for hand in hands:
        assert runs(hand) == _runs_reference(hand), hex(hand)
