"""A game to its target (docs/rules.md §2, §11) driven through Match and Round."""

from __future__ import annotations

import json
import random

import pytest

from belote.errors import IllegalActionError, InvalidRecordError
from belote.game import Match
from belote.options import make_rules
from belote.round import ALL_PASS, BIDDING, OVER, PLAY


def play_out(match: Match, rng: random.Random, always_pass: bool = False) -> None:
    rnd = match.new_round()
    while rnd.phase == BIDDING:
        rnd.call("pass" if always_pass else rng.choice(rnd.legal_calls()))
    while rnd.phase == PLAY:
        rnd.play_card(rng.choice(rnd.legal_cards()))
    match.finish_round()


def test_game_runs_to_its_target() -> None:
    rng = random.Random(2)
    match = Match(make_rules("classic", {"target": 501}), seed=4)
    deals = 0
    while not match.finished:
        play_out(match, rng)
        deals += 1
        assert deals < 100
    score = match.score
    assert score.winner in (0, 1)
    assert max(score.totals) >= 501
    assert score.totals[score.winner] == max(score.totals)  # §11.3 higher total


def test_2_1_deal_passes_to_the_eldest() -> None:
    rng = random.Random(3)
    match = Match(make_rules(), seed=1, first_dealer=2)
    play_out(match, rng)
    assert match.dealer == 3


@pytest.mark.parametrize(("option", "dealer_after"), [("next", 1), ("same", 0)])
def test_2_4_all_pass_dealer(option: str, dealer_after: int) -> None:
    rng = random.Random(3)
    match = Match(make_rules("classic", {"allpass_dealer": option}), seed=1, first_dealer=0)
    rnd = match.new_round()
    while rnd.phase == BIDDING:
        rnd.call("pass")
    assert rnd.phase == ALL_PASS
    match.finish_round()
    assert match.dealer == dealer_after
    assert match.score.hands == ()  # no score (§2.4)
    play_out(match, rng)


def test_2_2_without_shuffle_the_pack_is_only_cut() -> None:
    rng = random.Random(9)
    match = Match(make_rules("classic", {"shuffle_each_deal": False}), seed=5, first_dealer=0)
    rnd = match.new_round()
    rnd.call("take")
    while rnd.phase == PLAY:
        rnd.play_card(rng.choice(rnd.legal_cards()))
    played = [c for t in rnd.result().tricks for c in t.cards]
    match.finish_round()
    nxt = match.new_round()
    at = nxt.deck.index(played[0])
    assert nxt.deck[at:] + nxt.deck[:at] == played  # a cut of the collected tricks


def test_no_deal_after_the_end_and_none_while_one_is_on() -> None:
    match = Match(make_rules(), seed=1)
    rnd = match.new_round()
    with pytest.raises(IllegalActionError):
        match.new_round()
    with pytest.raises(IllegalActionError):
        match.finish_round()
    assert rnd.phase == BIDDING
    rng = random.Random(1)
    while rnd.phase == BIDDING:
        rnd.call(rng.choice(rnd.legal_calls()))
    while rnd.phase == PLAY:
        rnd.play_card(rng.choice(rnd.legal_cards()))
    assert rnd.phase in (OVER, ALL_PASS)


def test_view_hides_other_hands() -> None:
    match = Match(make_rules(), seed=8, first_dealer=0)
    rnd = match.new_round()
    rnd.call("take")
    for seat in range(4):
        view = rnd.view(seat)
        assert view.hand == rnd.hands[seat]
        assert not hasattr(view, "hands")
    assert rnd.view(1).legal_cards and not rnd.view(2).legal_cards


def test_save_and_resume_gives_the_same_game() -> None:
    rng = random.Random(12)
    rules = make_rules("classic", {"tie_rule": "fail"})
    match = Match(rules, seed=3)
    for _ in range(3):
        play_out(match, rng)
    rnd = match.new_round()
    while rnd.phase == BIDDING:
        rnd.call(rng.choice(rnd.legal_calls()))
    for _ in range(5):
        if rnd.phase == PLAY:
            rnd.play_card(rng.choice(rnd.legal_cards()), belote=False)
    saved = json.loads(json.dumps(match.to_json()))
    again = Match.from_json(saved)
    assert again.score == match.score
    assert again.dealer == match.dealer
    assert again.current is not None
    assert again.current.view(0) == rnd.view(0)
    assert again.to_json() == match.to_json()


def test_resume_refuses_a_tampered_save() -> None:
    rng = random.Random(1)
    match = Match(make_rules(), seed=3)
    play_out(match, rng)
    saved = match.to_json()
    saved["deals"][0]["actions"].insert(0, {"card": "JH"})
    with pytest.raises(InvalidRecordError, match="saved game: deal 1: no card now"):
        Match.from_json(saved)
