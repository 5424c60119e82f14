"""Take-or-pass bidding (docs/rules.md §3) and the deal (§2, §3.1, §3.4, §4.1)."""

from __future__ import annotations

import random

import pytest

from belote.bidding import TakePassBidding
from belote.cards import HEARTS, SPADES, parse_card
from belote.deal import cut, deal_all, deal_first, deal_rest, make_rng, new_deck
from belote.errors import IllegalBidError
from belote.options import make_rules

R = make_rules()


def test_3_2_first_take_ends_bidding() -> None:
    b = TakePassBidding(R, dealer=0, turned=parse_card("7H"))
    assert b.turn == 1  # eldest
    b.call("pass")
    b.call("take")
    assert b.finished and b.taker == 2 and b.trump == HEARTS


def test_3_3_round_two_names_another_suit() -> None:
    b = TakePassBidding(R, dealer=3, turned=parse_card("7H"))
    for _ in range(4):
        b.call("pass")
    assert b.round == 2 and b.turn == 0
    with pytest.raises(IllegalBidError, match="turned suit"):
        b.call("H")
    with pytest.raises(IllegalBidError, match="round 2"):
        b.call("take")
    b.call("pass")
    b.call("S")
    assert b.taker == 1 and b.trump == SPADES


def test_3_3_all_pass() -> None:
    b = TakePassBidding(R, dealer=0, turned=parse_card("7H"))
    for _ in range(8):
        b.call("pass")
    assert b.all_pass and b.finished
    with pytest.raises(IllegalBidError, match="over"):
        b.call("pass")


def test_3_round_one_refuses_a_suit() -> None:
    b = TakePassBidding(R, dealer=0, turned=parse_card("7H"))
    with pytest.raises(IllegalBidError, match="round 1"):
        b.call("S")


def test_3_5_sa_ta_in_classic() -> None:
    rules = make_rules("classic", {"sa_ta_in_classic": True})
    b = TakePassBidding(rules, dealer=0, turned=parse_card("7H"))
    for _ in range(4):
        b.call("pass")
    assert "SA" in b.legal_calls() and "TA" in b.legal_calls()
    b.call("TA")
    assert b.trump == 5


def test_2_3_cut_respects_min_cut() -> None:
    rng = random.Random(3)
    deck = new_deck()
    for _ in range(200):
        d = cut(deck, rng, 3)
        at = d.index(0)
        assert 3 <= 32 - at <= 29 or at == 0
        assert sorted(d) == deck


def test_3_1_and_3_4_deal() -> None:
    deck = new_deck()
    first = deal_first(deck, dealer=0, pattern="3-2")
    # eldest (E) gets the first three cards.
    assert first.hands[1] & 0b111 == 0b111
    assert [h.bit_count() for h in first.hands] == [5, 5, 5, 5]
    assert first.turned == 20 and len(first.stock) == 11
    hands = deal_rest(first, dealer=0, taker=2)
    assert [h.bit_count() for h in hands] == [8, 8, 8, 8]
    assert hands[2] >> 20 & 1
    assert sum(hands) == (1 << 32) - 1


def test_4_1_deal_all() -> None:
    hands = deal_all(new_deck(), dealer=3, pattern="3-3-2")
    assert hands[0] & 0b111 == 0b111  # N is eldest
    assert [h.bit_count() for h in hands] == [8, 8, 8, 8]


def test_seeded_rng_is_reproducible() -> None:
    a, b = make_rng(7), make_rng(7)
    assert [a.random() for _ in range(3)] == [b.random() for _ in range(3)]
    assert isinstance(make_rng(None), random.SystemRandom)
