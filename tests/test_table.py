"""The table value (belote.table): seats, sides, packs and seat names, checked against
what the engine actually deals (docs/rules.md §0, §2, §3.4, §4.1, §12)."""

from __future__ import annotations

import json
import random

import pytest

from belote.cards import RANK_OF, SUIT_OF, rank_of, suit_of
from belote.deal import new_deck
from belote.errors import InvalidRecordError
from belote.options import make_rules
from belote.round import ALL_PASS, Round
from belote.table import NO_SEAT, DealMode, Phase, Table, parse_seat, seat_named

PROFILES = [
    ("classic", {}), ("coinche", {}), ("moroccan", {}),
    ("classic-3p", {"three_deal": "24_cards"}), ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {"two_deal": "stock"}), ("classic-2p", {"two_deal": "decouverte"}),
]


def test_enums_are_the_json_words() -> None:
    """Phases and deal modes compare equal to, and serialise as, their words."""
    word: str = "all_pass"
    assert word == Phase.ALL_PASS and f"{Phase.BIDDING}" == "bidding"
    assert json.dumps({"phase": Phase.DISCARD, "mode": DealMode.CARDS_24}) == (
        '{"phase": "discard", "mode": "24_cards"}')
    assert ALL_PASS is Phase.ALL_PASS
    assert DealMode("24_cards") is DealMode.CARDS_24
    assert [m.value for m in DealMode] == [
        "classic", "auction", "24_cards", "kitty", "six_each", "stock", "decouverte"]


@pytest.mark.parametrize(("profile", "options"), PROFILES)
def test_table_matches_what_is_dealt(profile: str, options: dict[str, str]) -> None:
    """§3.4, §4.1, §12: the table's pack, hand size and tricks are those of a real deal
    played to its end by taking the first legal action."""
    rules = make_rules(profile, options)
    table = Table.of(rules)
    assert table is Table.of(rules)  # one shared value
    assert table.players == rules.players
    assert list(table.deck) == new_deck(rules.players, rules.three_deal)
    assert table.deck_mask.bit_count() == len(table.deck)
    rng = random.Random(7)
    for _ in range(20):
        deck = list(table.deck)
        rng.shuffle(deck)
        rnd = Round(rules, rng.randrange(table.players), deck)
        assert rnd.table is table and rnd.mode is table.mode
        while rnd.phase == Phase.BIDDING:
            calls = rnd.legal_calls()
            rnd.call(calls[-1] if rng.random() < 0.3 else calls[0])
        if rnd.phase == Phase.ALL_PASS:
            continue
        if rnd.phase == Phase.DISCARD:
            taker = rnd.current_player()
            rnd.discard(sorted(c for c in range(32) if rnd.hands[taker] >> c & 1)[:2])
        assert rnd.contract is not None
        assert max(rnd.dealt(s).bit_count() for s in table.seats) == table.hand_size
        while rnd.phase == Phase.PLAY:
            rnd.play_card(rnd.legal_cards()[0])
        assert len(rnd.result().tricks) == table.tricks
        assert sum(len(t.cards) for t in rnd.result().tricks) == table.cards_in_play


def test_seats_and_sides() -> None:
    """§0: partners sit opposite; §12.1: the taker alone against two; §12.2: one each."""
    four = Table.seated(4)
    assert [four.next(s) for s in four.seats] == [1, 2, 3, 0]
    assert [four.partner(s) for s in four.seats] == [2, 3, 0, 1]
    assert four.sides(3) == (0, 1, 0, 1) and four.partnerships
    assert [four.score_column(s) for s in four.seats] == [0, 1, 0, 1]
    assert four.order(2) == (2, 3, 0, 1)
    three = Table.seated(3)
    assert three.partner(1) == NO_SEAT and not three.partnerships
    assert three.sides(2) == (1, 1, 0) and three.side_of(2, taker=2) == 0
    assert [three.score_column(s) for s in three.seats] == [0, 1, 2]
    assert Table.seated(2).sides(1) == (0, 1) and Table.seated(2).next(1) == 0
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        Table(5, DealMode.CLASSIC)


def test_card_helpers_agree() -> None:
    """§1: card c is suit c // 8, rank c % 8 (seven .. ace)."""
    for c in range(32):
        assert SUIT_OF[c] == suit_of(c) == c // 8
        assert RANK_OF[c] == rank_of(c) == c % 8


def test_seat_names() -> None:
    """One reader of seat letters for every table (§0 N E S W; §12 N E S, N E)."""
    assert [seat_named(x) for x in ("N", " e ", "s", "W")] == [0, 1, 2, 3]
    assert seat_named("W", 3) is None and seat_named("S", 2) is None
    for bad in ("", "NE", "ES", "north", 1, None, ["N"]):
        assert seat_named(bad) is None
    assert parse_seat("s", "dealer", 3) == 2
    with pytest.raises(InvalidRecordError, match=r"^dealer: 'NE' is not a seat \(N, E, S, W\)$"):
        parse_seat("NE", "dealer")
    with pytest.raises(InvalidRecordError, match=r"^hand: taker: 'W' is not a seat \(N, E\)$"):
        parse_seat("W", "hand: taker", 2)
