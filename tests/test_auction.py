"""The coinche / contrée auction (docs/rules.md §4) and auction records in `belote replay`."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from belote.auction import NumericAuction, parse_bid
from belote.cards import ALL_TRUMP, HEARTS, NO_TRUMP, SPADES
from belote.errors import BeloteError, IllegalBidError
from belote.options import make_rules
from belote.replay import replay
from belote.round import ALL_PASS, OVER, PLAY, Round

COINCHE = make_rules("coinche")
CONTREE = make_rules("contree")


def run(calls: list[str], rules: Any = COINCHE, dealer: int = 3) -> NumericAuction:
    a = NumericAuction(rules, dealer)
    for c in calls:
        a.call(c)
    return a


def test_parse_bid() -> None:
    assert parse_bid("80H") is not None and parse_bid("80H").trump == HEARTS  # type: ignore[union-attr]
    assert parse_bid("90SA").trump == NO_TRUMP  # type: ignore[union-attr]
    assert parse_bid("capotS").value == "capot"  # type: ignore[union-attr]
    assert parse_bid("generaleTA").trump == ALL_TRUMP  # type: ignore[union-attr]
    assert parse_bid("take") is None and parse_bid("80X") is None


def test_4_4_three_passes_after_a_bid_end_the_auction() -> None:
    a = run(["80H", "pass", "pass", "pass"])
    assert a.finished and a.bidder == 0 and a.best is not None and a.best.value == 80


def test_4_2_a_pass_does_not_bar_later_bids_and_partner_may_overbid() -> None:
    a = run(["pass", "80H", "pass", "90S", "pass", "pass", "pass"])
    assert a.finished and a.bidder == 3 and a.best is not None and a.best.trump == SPADES
    a = run(["80H", "pass", "100S", "pass", "pass", "pass"])  # S overbids partner N
    assert a.bidder == 2


def test_4_4_four_passes_all_pass() -> None:
    a = run(["pass"] * 4)
    assert a.finished and a.all_pass


def test_4_3_each_bid_must_go_higher() -> None:
    a = run(["100H"])
    with pytest.raises(IllegalBidError, match="does not go higher than 100H"):
        a.call("100S")
    with pytest.raises(IllegalBidError, match="multiple of 10 from 80"):
        a.call("115S")
    with pytest.raises(IllegalBidError, match="highest numeric bid is 250"):
        a.call("260S")
    with pytest.raises(IllegalBidError, match="sa_ta"):
        a.call("110SA")


def test_4_3_contree_max_bid_160_then_capot() -> None:
    a = run(["160H"], CONTREE)
    with pytest.raises(IllegalBidError, match="160"):
        a.call("170S")
    a.call("capotS")
    with pytest.raises(IllegalBidError, match="after a capot bid"):
        a.call("160D")


def test_4_3_suit_ranking() -> None:
    rules = make_rules("coinche", {"suit_ranking": True, "sa_ta": True})
    a = run(["100C"], rules)
    a.call("100D")  # ♣ < ♦
    with pytest.raises(IllegalBidError, match="does not go higher"):
        a.call("100C")


def test_4_5_only_an_opponent_coinches_in_turn() -> None:
    a = run(["80H"])  # N bids; E to speak
    a.call("pass")
    with pytest.raises(IllegalBidError, match="only an opponent"):
        a.call("coinche")  # S is N's partner
    a.call("pass")
    a.call("coinche")  # W
    assert a.multiplier == 2 and a.coincher == 3


def test_4_5_coinche_freezes_then_takers_answer() -> None:
    a = run(["80H", "coinche"])  # E coinches N's bid
    assert a.turn == 2  # S (a taker) answers first; W (E's partner) stays silent
    with pytest.raises(IllegalBidError, match="only pass or surcoinche"):
        a.call("90H")
    a.call("pass")
    assert a.turn == 0
    a.call("surcoinche")
    assert a.finished and a.multiplier == 4


def test_4_5_two_passes_end_a_frozen_coinche() -> None:
    a = run(["80H", "coinche", "pass", "pass"])
    assert a.finished and a.multiplier == 2 and a.bidder == 0


def test_4_5_unfrozen_coinche_is_cancelled_by_a_higher_bid() -> None:
    rules = make_rules("coinche", {"coinche_freezes": False})
    a = run(["80H", "coinche", "90H"], rules)
    assert a.multiplier == 1 and a.coincher is None and a.bidder == 2


def test_4_5_coinche_out_of_turn() -> None:
    rules = make_rules("coinche", {"coinche_in_turn": False})
    a = run(["80H", "pass"], rules)  # S to speak; W coinches out of turn
    a.call("coinche", seat=3)
    assert a.coincher == 3 and a.turn == 0
    strict = run(["80H", "pass"])
    with pytest.raises(IllegalBidError, match="a coinche is made in turn"):
        strict.call("coinche", seat=3)


def test_4_6_capot_doublable() -> None:
    a = run(["capotH"])
    a.call("coinche")
    rules = make_rules("coinche", {"capot_doublable": False})
    a = run(["capotH"], rules)
    with pytest.raises(IllegalBidError, match="capot_doublable"):
        a.call("coinche")


def test_4_8_generale() -> None:
    a = run(["capotH", "generaleS"])
    assert a.best is not None and a.best.value == "generale"
    with pytest.raises(IllegalBidError, match="générale is off"):
        run(["generaleS"], CONTREE)


def test_4_4_reopen_by_suit_change() -> None:
    rules = make_rules("coinche", {"reopen_by_suit_change": True})
    a = run(["80H", "pass", "pass", "pass"], rules)
    assert not a.finished and a.turn == 0
    with pytest.raises(IllegalBidError, match="another suit"):
        a.call("90H")
    a.call("90S")
    a.call("pass")
    a.call("pass")
    a.call("pass")
    a.call("pass")
    assert a.finished and a.bidder == 0


def test_legal_calls_are_accepted() -> None:
    rng = random.Random(4)
    for rules in (COINCHE, CONTREE, make_rules("coinche", {"sa_ta": True})):
        for _ in range(100):
            a = NumericAuction(rules, rng.randrange(4))
            while not a.finished:
                calls = a.legal_calls()
                for c in calls:
                    assert a.can(c), c
                a.call("pass" if rng.random() < 0.5 else rng.choice(calls))


def test_4_1_and_4_9_round_deals_all_and_generale_bidder_leads() -> None:
    deck = list(range(32))
    rnd = Round(COINCHE, 0, deck)
    assert [h.bit_count() for h in rnd.hands] == [8, 8, 8, 8]
    rnd.call("pass")  # E
    rnd.call("generaleH")  # S
    for _ in range(3):
        rnd.call("pass")
    assert rnd.phase == PLAY and rnd.current_player() == 2
    rnd = Round(COINCHE, 0, deck)
    for c in ["pass", "80H", "pass", "pass", "pass"]:
        rnd.call(c)
    assert rnd.current_player() == 1  # the eldest leads whoever bid (§4.9)


def auction_record(**changes: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "profile": "coinche",
        "dealer": "W",
        "hands": {
            "N": ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
            "E": ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
            "S": ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
            "W": ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
        },
        "bids": ["80H", "coinche", "pass", "surcoinche"],
        "plays": [],
    }
    rec.update(changes)
    return rec


def test_replay_auction_record() -> None:
    out = replay(auction_record(plays=["7H"]))
    assert out["contract"] == {"taker": "N", "team": "NS", "trump": "H", "value": 80,
                               "multiplier": 4}
    assert out["next"]["seat"] == "E"


def test_replay_auction_errors() -> None:
    with pytest.raises(BeloteError, match="bid 3: S may not call 'coinche': only an opponent"):
        replay(auction_record(bids=["80H", "pass", "coinche"]))
    with pytest.raises(BeloteError, match="no card is turned up"):
        replay(auction_record(turned="7H"))


def test_live_auction_deals_replay_identically() -> None:
    rng = random.Random(21)
    loose = make_rules("coinche", {"sa_ta": True, "coinche_in_turn": False})
    for rules in (COINCHE, CONTREE, loose):
        for i in range(80):
            deck = list(range(32))
            rng.shuffle(deck)
            rnd = Round(rules, i % 4, deck)
            while rnd.phase == "bidding":
                rnd.call("pass" if rng.random() < 0.6 else rng.choice(rnd.legal_calls()))
            while rnd.phase == PLAY:
                rnd.play_card(rng.choice(rnd.legal_cards()))
            out = replay(json.loads(json.dumps(rnd.to_record())))
            if rnd.phase == OVER:
                assert out["score"] == rnd.result().score.to_json()
            else:
                assert rnd.phase == ALL_PASS and out["contract"] is None


def test_4_8_generale_needs_the_bidder_alone() -> None:
    """NS take every trick, but S wins the last one: a capot bid is made, a générale
    (the bidder alone must win all eight tricks) fails."""
    from belote.cards import mask_of, parse_card
    from belote.hand import Contract, HandPlay

    def hand(text: str) -> int:
        return mask_of(parse_card(c) for c in text.split())

    hands = [hand("JH 9H AH TH KH QH 8H 7S"), hand("8S 9S TS JS QS KS 7D 8D"),
             hand("AS 9D TD JD QD KD AD 7C"), hand("7H 8C 9C TC JC QC KC AC")]
    outcomes = {}
    for value in ("capot", "generale"):
        play = HandPlay(COINCHE, Contract(0, HEARTS, value), hands, leader=0)
        while not play.is_over():
            legal = play.legal_cards()
            play.play(legal[-1] if play.turn in (0, 2) else legal[0])
        res = play.result()
        assert res.capot == 0 and res.tricks[-1].winner == 2
        outcomes[value] = res.score.outcome
    assert outcomes == {"capot": "made", "generale": "failed"}
