"""Belote for three and for two players (docs/rules.md §12): profiles classic-3p, classic-2p."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from belote.cards import card_name, mask_of, parse_card
from belote.deal import deal_first, deal_piles, new_deck
from belote.errors import BeloteError, IllegalActionError
from belote.game import Match
from belote.options import ThreeDeal, make_rules
from belote.replay import replay
from belote.round import ALL_PASS, BIDDING, DISCARD, OVER, PLAY, Round
from belote.table import DealMode

MODES = [
    ("classic-3p", {}),
    ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {}),
    ("classic-2p", {"two_deal": "decouverte"}),
]


def play_round(rnd: Round, rng: random.Random, stop: int = 99) -> None:
    while rnd.phase == BIDDING:
        rnd.call(rng.choice(rnd.legal_calls()))
    if rnd.phase == DISCARD:
        hand = rnd.hands[rnd.current_player()]
        rnd.discard(rng.sample([c for c in range(32) if hand >> c & 1], 2))
    played = 0
    while rnd.phase == PLAY and played < stop:
        rnd.play_card(rng.choice(rnd.legal_cards()), belote=rng.random() < 0.8)
        played += 1


def take_first(rnd: Round) -> None:
    rnd.call("take" if "take" in rnd.legal_calls() else rnd.legal_calls()[1])


def test_12_1_twenty_four_cards() -> None:
    """7s and 8s out; 5 each and the 16th turned; the taker gets it and 2 more, 8 tricks."""
    rules = make_rules("classic-3p")
    deck = new_deck(3, ThreeDeal.CARDS_24)
    assert len(deck) == 24 and all(c & 7 >= 2 for c in deck)
    first = deal_first(deck, 0, "3-2", 3, DealMode.CARDS_24)
    assert [h.bit_count() for h in first.hands] == [5, 5, 5] and first.turned == deck[15]
    rnd = Round(rules, 0, deck)
    rnd.call("take")  # seat 1, the eldest
    assert rnd.phase == PLAY and [h.bit_count() for h in rnd.hands] == [8, 8, 8]
    assert rnd.hands[1] >> deck[15] & 1
    rng = random.Random(1)
    play_round(rnd, rng)
    res = rnd.result()
    assert len(res.tricks) == 8 and all(len(t.cards) == 3 for t in res.tricks)
    assert sum(res.trick_points) in (162, 252)
    assert res.seats is not None and len(res.seats) == 3


def test_12_1_taker_against_the_two_others_and_no_partner() -> None:
    """The two defenders count as one side for the contract, but nobody is a partner at
    the table: a void defender must trump even over the other defender (exoty)."""
    rules = make_rules("classic-3p")
    rnd = Round(rules, 0, new_deck(3))
    rnd.call("take")
    assert rnd._play is not None
    assert rnd._play.teams == (1, 0, 1)
    assert rnd._play.state.partner(0) == -1 == rnd._play.state.partner(2)


def test_12_1_kitty_discard_counts_for_the_taker() -> None:
    rules = make_rules("classic-3p", {"three_deal": "kitty"})
    deck = list(range(32))
    rnd = Round(rules, 0, deck)
    assert [h.bit_count() for h in rnd.hands] == [10, 10, 10] and rnd.turned is None
    assert rnd.legal_calls() == ["pass", "S", "H", "D", "C"]  # one round, any suit
    rnd.call("H")
    assert rnd.phase == DISCARD and rnd.current_player() == 1
    assert rnd.hands[1].bit_count() == 12
    with pytest.raises(IllegalActionError, match="two different cards"):
        rnd.discard([parse_card("7S")])
    held = [c for c in range(32) if rnd.hands[1] >> c & 1]
    aces_tens = [c for c in held if c & 7 in (3, 7) and c >> 3 != 1][:2]
    if len(aces_tens) < 2:
        aces_tens = held[:2]
    rnd.discard(aces_tens)
    assert [h.bit_count() for h in rnd.hands] == [10, 10, 10]
    play_round(rnd, random.Random(4))
    res = rnd.result()
    assert len(res.tricks) == 10
    if res.capot is None:
        assert sum(res.trick_points) == 162  # the discards are in the taker's count


def test_12_1_six_each_and_12_2_stock_leave_cards_out() -> None:
    for profile, options in (("classic-3p", {"three_deal": "six_each"}), ("classic-2p", {})):
        rules = make_rules(profile, options)
        n = rules.players
        deck = list(range(32))
        rnd = Round(rules, 0, deck)
        assert [h.bit_count() for h in rnd.hands] == [6] * n
        assert rnd.turned == deck[6 * n]
        take_first(rnd)
        assert [h.bit_count() for h in rnd.hands] == [9] * n
        assert rnd.bergere == deck[6 * n + 1 + 3 * n]
        view = rnd.view(0)
        assert view.public >> rnd.bergere & 1 and view.public >> deck[6 * n] & 1
        play_round(rnd, random.Random(2))
        res = rnd.result()
        assert len(res.tricks) == 9
        assert res.entry.in_play is not None and res.entry.in_play < 162 + 1
        if res.capot is None:
            assert sum(res.trick_points) == res.entry.in_play


def test_12_2_decouverte() -> None:
    """Eight face-down cards under eight face-up ones; the last card dealt fixes trump;
    the non-dealer leads; a card played uncovers the one beneath; 16 tricks."""
    rules = make_rules("classic-2p", {"two_deal": "decouverte"})
    deck = list(range(32))
    rng = random.Random(6)
    rng.shuffle(deck)
    piles, trump = deal_piles(deck, 0)
    assert trump == deck[31] >> 3 and piles[0][7][1] == deck[31]
    rnd = Round(rules, 0, deck)
    assert rnd.phase == PLAY and rnd.current_player() == 1
    assert rnd.contract is not None and rnd.contract.trump == trump
    ups = [mask_of(u for _d, u in p) for p in piles]
    assert rnd.hands == ups
    assert rnd.view(0).public == ups[1]  # the other's face-up cards are seen by all
    first = rnd.legal_cards()[0]
    rnd.play_card(first)
    rnd.play_card(rnd.legal_cards()[0])
    assert rnd._play is not None
    under = {u: d for p in piles for d, u in p}
    assert rnd._play.state.hands[1] >> under[first] & 1  # turned up after the trick
    play_round(rnd, rng)
    res = rnd.result()
    assert len(res.tricks) == 16 and res.score.outcome == "counted"
    assert res.declarations.points == (0, 0) and res.declarations.winner is None  # §12.2
    assert res.seats == res.score.score


def test_three_player_scores_share_the_defenders_side() -> None:
    rng = random.Random(7)
    rules = make_rules("classic-3p")
    for _ in range(200):
        deck = new_deck(3)
        rng.shuffle(deck)
        rnd = Round(rules, rng.randrange(3), deck)
        play_round(rnd, rng)
        if rnd.phase != OVER:
            assert rnd.phase == ALL_PASS
            continue
        res = rnd.result()
        assert res.seats is not None
        taker = res.contract.taker
        assert res.seats[taker] == res.score.score[0]
        assert sum(res.seats) - res.seats[taker] == res.score.score[1]
        assert min(res.seats) >= 0


@pytest.mark.parametrize(("profile", "options"), MODES)
def test_live_deals_and_replay_agree(profile: str, options: dict[str, Any]) -> None:
    rules = make_rules(profile, options)
    rng = random.Random(hash(profile + str(options)) & 0xFFFF)
    for i in range(120):
        deck = new_deck(rules.players, rules.three_deal)
        rng.shuffle(deck)
        rnd = Round(rules, i % rules.players, deck)
        play_round(rnd, rng, stop=rng.choice([99, 99, rng.randrange(40)]))
        out = replay(json.loads(json.dumps(rnd.to_record())))
        if rnd.phase == OVER:
            res = rnd.result()
            assert res.seats is not None
            assert list(out["score"]["score"].values()) == list(res.seats)
        elif rnd.phase == PLAY:
            assert out["next"]["legal"] == [card_name(c) for c in rnd.legal_cards()]


@pytest.mark.parametrize(("profile", "options"), MODES)
def test_a_game_to_its_target_and_resume(profile: str, options: dict[str, Any]) -> None:
    rules = make_rules(profile, {**options, "target": 400})
    rng = random.Random(3)
    match = Match(rules, seed=5)
    for _ in range(200):
        if match.finished:
            break
        rnd = match.new_round()
        play_round(rnd, rng)
        match.finish_round()
    assert match.finished
    assert match.winner is not None
    assert match.seat_totals[match.winner] == max(match.seat_totals) >= 400
    again = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert again.seat_totals == match.seat_totals and again.winner == match.winner


@pytest.mark.parametrize(
    ("profile", "changes", "message"),
    [
        ("classic-3p", {"hands": "seven"}, "7S is not in the 24-card pack"),
        ("classic-3p", {"kitty": ["7S", "8S"]}, "only for three_deal = kitty"),
        ("classic-2p", {"piles": {}}, "only for two_deal = decouverte"),
        ("classic-3p", {"dealer": "W"}, r"is not a seat \(N, E, S\)"),
    ],
)
def test_small_table_record_errors(profile: str, changes: dict[str, Any], message: str) -> None:
    rules = make_rules(profile)
    rnd = Round(rules, 0, new_deck(rules.players, rules.three_deal))
    rec = rnd.to_record()
    if changes.get("hands") == "seven":
        changes = {"hands": {**rec["hands"], "N": ["7S", *rec["hands"]["N"][1:]]}}
    rec.update(changes)
    with pytest.raises(BeloteError, match=message):
        replay(rec)


def test_kitty_record_waits_for_the_discard() -> None:
    rules = make_rules("classic-3p", {"three_deal": "kitty"})
    rnd = Round(rules, 2, list(range(32)))
    rnd.call("S")
    out = replay(rnd.to_record())
    assert out["next"]["discard"] == 2 and out["next"]["seat"] == "N"
    assert len(out["next"]["legal"]) == 12


def test_four_player_records_refuse_small_table_keys() -> None:
    rnd = Round(make_rules(), 0, list(range(32)))
    rec = rnd.to_record()
    rec["bergere"] = "7S"
    with pytest.raises(BeloteError, match="two or three players"):
        replay(rec)


@pytest.mark.parametrize(("profile", "options"), MODES)
def test_replay_human_form(profile: str, options: dict[str, Any]) -> None:
    """`belote replay` without --json reads a §12 record, finished or not."""
    from typer.testing import CliRunner

    from belote.cli import app

    rules = make_rules(profile, options)
    rng = random.Random(8)
    for stop in (5, 99):
        deck = new_deck(rules.players, rules.three_deal)
        rng.shuffle(deck)
        rnd = Round(rules, 0, deck)
        while rnd.phase == BIDDING:
            rnd.call(rnd.legal_calls()[-1])
        if rnd.phase == DISCARD and stop > 5:
            hand = rnd.hands[rnd.current_player()]
            rnd.discard([c for c in range(32) if hand >> c & 1][:2])
        play_round(rnd, rng, stop=stop)
        res = CliRunner().invoke(app, ["replay"], input=json.dumps(rnd.to_record()))
        assert res.exit_code == 0, res.output
        assert "Tricks" in res.stdout or "lays 2 cards aside" in res.stdout


def test_calculator_scores_small_tables_per_seat(tmp_path: Any) -> None:
    """Three- and two-player hands are scored per seat (§12): a two-team entry is
    refused naming the seats (tests/test_seat_scoring.py scores them)."""
    from belote.errors import InvalidRecordError
    from belote.scoring import score_hand_json

    for profile in ("classic-3p", "classic-2p"):
        with pytest.raises(InvalidRecordError, match="'NS' is not a seat"):
            score_hand_json({"profile": profile, "taker": "NS", "trick_points": {"NS": 92}})
