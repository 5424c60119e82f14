"""benchmarks/bid_caution.py: the takers' real card points against the deal's double-dummy
value at a small table (docs/rules.md §12)."""

from __future__ import annotations

import random
from functools import partial

import pytest

from belote.bots import play_deal
from belote.bots.heuristic import HeuristicBot
from belote.cards import scan_forward
from belote.deal import new_deck
from belote.errors import BeloteError
from belote.options import make_rules
from belote.play import card_points
from belote.round import BIDDING, Round
from belote.solver import solve
from belote.table import Table
from tests.helpers import load_benchmark

_script = partial(load_benchmark, "bid_caution")  # benchmarks/bid_caution.py, loaded afresh


@pytest.mark.parametrize(("profile", "options"), [
    ("classic-3p", {}), ("classic-3p", {"three_deal": "six_each"}), ("classic-2p", {})])
def test_each_deal_taken_gives_one_gap_the_same_for_the_same_seed(
        profile: str, options: dict[str, str]) -> None:
    script = _script()
    gaps = script.gaps("heuristic", "heuristic", profile, options, 6, 7)
    assert len(gaps) == 6
    assert all(-162 <= g <= 162 for g in gaps)
    assert gaps == script.gaps("heuristic", "heuristic", profile, options, 6, 7)
    assert gaps[:3] == script.gaps("heuristic", "heuristic", profile, options, 3, 7)


@pytest.mark.parametrize(("profile", "options"), [
    ("classic-3p", {}), ("classic-3p", {"three_deal": "six_each"}), ("classic-2p", {})])
def test_the_solve_is_the_deal_as_dealt_and_played(profile: str, options: dict[str, str]) -> None:
    """Each deal's double-dummy value is the solver's on the round's own play as it
    starts, for the takers' side; the real points the takers' at the end."""
    script = _script()
    rules = make_rules(profile, options)
    got = script.taken("heuristic", "heuristic", profile, options, 4, 11)
    n = 0
    for real, dd in got:
        while True:
            n += 1
            rng = random.Random(11 + n)
            deck = new_deck(rules.players, rules.three_deal)
            rng.shuffle(deck)
            rnd = Round(rules, rng.randrange(rules.players), deck)
            while rnd.phase is BIDDING:
                rnd.call(HeuristicBot(0).call(rnd.view()))
            if rnd.contract is not None:
                break
        assert rnd._play is not None
        side = Table.of(rules).sides(rnd.contract.taker)[rnd.contract.taker]
        ns = solve(rnd._play.state, moves=False).value
        total = sum(card_points(rules, rnd.contract.trump)[c]
                    for h in rnd._play.state.hands for c in scan_forward(h)) + 10
        assert dd == min(ns if side == 0 else total - ns, total)
        play_deal(rnd, [HeuristicBot(s) for s in range(rules.players)])
        assert real == min(rnd.trick_points[side], total)


def test_at_three_players_the_takers_come_out_above_double_dummy() -> None:
    """§12.1, 24 cards: the taker alone against two defenders who, at the table, do not see
    each other's cards: over 60 seeded heuristic deals he takes more than the solve."""
    gaps = _script().gaps("heuristic", "heuristic", "classic-3p", {}, 60, 20_000)
    assert sum(gaps) / len(gaps) > 3


@pytest.mark.parametrize(("profile", "option"), [
    ("classic-3p", "three_deal=kitty"), ("classic-2p", "two_deal=decouverte"),
    ("classic", None)])
def test_tables_without_a_turned_card_deal_or_of_four_are_refused(
        profile: str, option: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    argv = ["--profile", profile, "--deals", "1", *(["--option", option] if option else [])]
    assert script.main(argv) == 2
    assert capsys.readouterr().err.startswith("error: ")
    options = dict([option.split("=")]) if option else {}
    with pytest.raises(BeloteError):
        script.gaps("heuristic", "heuristic", profile, options, 1, 0)


def test_a_malformed_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert _script().main(["--option", "three_deal"]) == 2
    assert capsys.readouterr().err == "error: --option 'three_deal': KEY=VALUE expected\n"
    assert _script().main(["--option", "three_deal=five", "--deals", "1"]) == 2
    assert "five" in capsys.readouterr().err
