"""benchmarks/dd_error.py: the double dummy's error at a small table and how well the
bidding search's error model tells the takes made from the takes failed (docs/rules.md
§8, §12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from belote.bots.bid_search import noise_errors
from belote.bots.heuristic import HeuristicBot
from belote.bots.small_bid import SmallBidSearch
from belote.options import make_rules
from belote.round import BIDDING
from belote.scoring import HandEntry, score_hand
from belote.scoring import Outcome as HandOutcome
from belote.table import Table
from tests.helpers import load_benchmark as _load


@pytest.fixture(autouse=True)
def _beside(monkeypatch: pytest.MonkeyPatch) -> None:
    """dd_error takes its deals from bid_caution, beside it (as when run as a script)."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "benchmarks"))



@pytest.mark.parametrize("options", [{}, {"three_deal": "six_each"}])
def test_heuristic_calls_give_bid_cautions_deals(options: dict[str, str]) -> None:
    """With every seat calling as the heuristic, the deals and the points are
    benchmarks/bid_caution.py's (its own tests check them against the solver)."""
    got = _load("dd_error").taken("heuristic", "heuristic", "classic-3p", options, 5, 31,
                                  calls="heuristic")
    ref = _load("bid_caution").taken("heuristic", "heuristic", "classic-3p", options, 5, 31)
    assert [(t.real, t.dd) for t in got] == ref


def test_the_fewest_points_are_the_scorings_own() -> None:
    """Each deal's ``need`` makes the contract by the scoring (§8, §12) with the solve's
    declarations and belote, and one point fewer does not."""
    rules = make_rules("classic-3p", {})
    table = Table.of(rules)
    deal = _load("bid_caution").seeded_deal
    for t in _load("dd_error").taken("heuristic", "heuristic", "classic-3p", {}, 6, 43,
                                     calls="heuristic"):
        rnd, first, world = deal(rules, 43, t.n)
        while rnd.phase is BIDDING:
            rnd.call(HeuristicBot(0).call(rnd.view()))
        assert rnd.contract is not None and rnd.contract.taker == t.seat
        search = SmallBidSearch(first, worlds=1, nodes=1, min_worlds=1, caution=0,
                                hints=False, rollout=False)
        out, _ = search.solve(world, t.trump, t.seat, 10**12)
        side = table.sides(t.seat)[t.seat]

        made = []
        for takers in (t.need, t.need - 1):
            pts = (takers, t.total - takers) if side == 0 else (t.total - takers, takers)
            entry = HandEntry(taker=side, trick_points=pts, declarations=out.declarations,
                              belote=out.belote, trump=t.trump, in_play=out.in_play)
            made.append(score_hand(rules, entry).outcome is HandOutcome.MADE)
        assert 0 < t.need <= t.total
        assert made == [True, False]


def test_with_the_tables_calls_the_tested_seat_takes_each_deal() -> None:
    """``calls=table``: a deal counts when the seat ``n mod 3`` (the tested bot's) takes."""
    got = _load("dd_error").taken("heuristic", "heuristic", "classic-3p", {}, 6, 5)
    assert len(got) == 6
    assert all(t.seat == t.n % 3 for t in got)
    assert [t.n for t in got] == sorted({t.n for t in got})


@pytest.mark.parametrize("noise", [0, 10, 25])
def test_the_models_chance_of_making_weighs_its_errors_to_one(noise: int) -> None:
    """The error cases weigh 1 in all: a contract every case reaches is made for sure,
    one none reaches never; in between the three-point rule's 1/6, 2/3, 1/6."""
    script = _load("dd_error")
    errors = noise_errors(noise)
    assert script.made_chance(80, -1_000, 0, errors) == pytest.approx(1.0)
    assert script.made_chance(80, 1_000, 0, errors) == 0.0
    if noise:
        spread = round(noise * 3 ** 0.5)
        assert script.made_chance(80, 80 + spread, 0, errors) == pytest.approx(1 / 6)
        assert script.made_chance(80, 80, 0, errors) == pytest.approx(5 / 6)
        assert script.made_chance(80, 80, 10, errors) == pytest.approx(1 / 6)


def test_a_model_that_knows_the_play_scores_zero_and_the_groups_add_up() -> None:
    """The Brier score is 0 for a model whose chance is the play's made or failed, 1 for
    one always wrong; the groups by trumps and by margin count every deal once."""
    script = _load("dd_error")
    deals = [script.Taken(n, 0, 0, real, dd, 130, 66, trumps)
             for n, (real, dd, trumps) in enumerate(
                 [(90, 90, 3), (40, 40, 4), (70, 50, 2), (60, 75, 6), (66, 66, 5)])]
    assert script.brier(deals[:2] + deals[4:], 0, 0) == 0.0
    assert script.brier(deals[2:4], 0, 0) == 1.0
    got = script.figures(deals)
    assert sum(g["deals"] for g in got["by_trumps"].values()) == 5
    assert sum(g["deals"] for g in got["by_margin"].values()) == 5
    assert list(got["by_trumps"]) == ["2", "3", "4", "5+"]
    assert got["by_trumps"]["5+"]["deals"] == 2
    assert (got["made_dd"], got["made_real"], got["disagree"]) == (3, 3, 2)
    assert got["all"]["mean"] == pytest.approx(1.0)


def test_main_prints_and_writes_the_json(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "e.json"
    assert _load("dd_error").main(["--taker", "heuristic", "--defence", "heuristic",
                                   "--deals", "3", "--seed", "3", "--json", str(out)]) == 0
    assert "3 deals, real less double dummy" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert len(data["deals"]) == 3 and data["figures"]["all"]["deals"] == 3


@pytest.mark.parametrize("option", ["three_deal=kitty", "three_deal=five"])
def test_a_deal_without_a_turned_card_or_a_bad_option_is_refused(
        option: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _load("dd_error").main(["--option", option, "--deals", "1"]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_the_takers_own_search_gives_its_chance_and_the_heuristic_none() -> None:
    """A take ``pimc`` searched carries the chance its worlds gave it; the heuristic's
    takes carry none; the figures score that chance against the play."""
    script = _load("dd_error")
    got = script.taken("pimc", "heuristic", "classic-3p", {}, 6, 7701)
    assert any(t.searched is not None for t in got)
    assert all(0.0 <= t.searched <= 1.0 for t in got if t.searched is not None)
    heuristic = script.taken("heuristic", "heuristic", "classic-3p", {}, 3, 7701)
    assert all(t.searched is None for t in heuristic)
    deals = [script.Taken(0, 0, 0, 90, 90, 130, 66, 3, 1.0),
             script.Taken(1, 0, 0, 40, 40, 130, 66, 3, 0.5),
             script.Taken(2, 0, 0, 40, 40, 130, 66, 3)]
    searched = script.searched_figures(deals)
    assert (searched["deals"], searched["made"], searched["chance"]) == (2, 0.5, 0.75)
    assert searched["brier"] == pytest.approx(0.125)
    assert script.searched_figures(deals[2:]) == {"deals": 0}
