"""`belote tournament` (issue 5): duplicate boards, statistics, Elo, runners, JSON, plot, CLI.

Decks are shuffled and cut every deal (docs/rules.md §2.2, §2.3) from the seed; a game
runs to the target (§11) with the dealer moving on (§2.1) and all-passes
scoring nothing (§2.4).
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belote.bots import BaseBot, make_bot
from belote.bots import play_deal as bots_play_deal
from belote.cli import app
from belote.errors import BeloteError, OptionError
from belote.options import make_rules
from belote.round import OVER, PlayerView, Round
from belote.scoring import HandEntry
from belote.tournament import (
    Estimate,
    TournamentConfig,
    TournamentError,
    board_deal,
    deal_score,
    default_chunk_size,
    expected_score,
    fit_elo,
    game_deck,
    game_first_dealer,
    mean_estimate,
    plot_results,
    run_tournament,
    wilson_interval,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def outcome(result_json: dict[str, Any]) -> dict[str, Any]:
    """The JSON without the timing and runner facts (which may differ between runs)."""
    return {k: v for k, v in result_json.items() if k != "run"}


# --- statistics -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # closed forms: 0 of n gives [0, z²/(n+z²)], n of n gives [n/(n+z²), 1].
        (0, 10, 0.0, 3.8414588 / 13.8414588),
        (10, 10, 10 / 13.8414588, 1.0),
    ],
)
def test_wilson_interval_known_values(successes: float, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(successes, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)
    assert (lo == 0) == (successes == 0) and (hi == 1) == (successes == n)


def test_wilson_interval_is_symmetric_and_holds_the_estimate() -> None:
    for n in (1, 2, 7, 50):
        for twice in range(2 * n + 1):
            s = twice / 2  # ties count half
            lo, hi = wilson_interval(s, n)
            assert 0 <= lo <= s / n <= hi <= 1
            lo2, hi2 = wilson_interval(n - s, n)
            assert lo == pytest.approx(1 - hi2) and hi == pytest.approx(1 - lo2)


def test_wilson_interval_refuses_no_trials_and_impossible_counts() -> None:
    with pytest.raises(ValueError, match="n = 0"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="successes = 11"):
        wilson_interval(11, 10)


def test_mean_estimate_normal_interval() -> None:
    e = mean_estimate([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 1.959963984540054 * math.sqrt(2.5) / math.sqrt(5)  # s² = 2.5
    assert e.value == 3.0
    assert (e.low, e.high) == pytest.approx((3.0 - half, 3.0 + half))
    assert mean_estimate([7.0]) == Estimate(7.0, None, None)
    with pytest.raises(ValueError):
        mean_estimate([])


def test_fit_elo_two_players_closed_form() -> None:
    """75 wins of 100: the MLE strength ratio is 3, i.e. 400·log10(3) ≈ 190.85 Elo."""
    results = [(0, 1, 1.0)] * 75 + [(0, 1, 0.0)] * 25
    elo = fit_elo(["a", "b"], results, anchor=1, prior=0)
    assert elo[1] == 0
    assert elo[0] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert expected_score(elo[0], elo[1]) == pytest.approx(0.75)
    # draws count half: 50 wins + 50 draws of 100 is the same 75%.
    drawn = [(0, 1, 1.0)] * 50 + [(0, 1, 0.5)] * 50
    assert fit_elo(["a", "b"], drawn, anchor=1, prior=0)[0] == pytest.approx(elo[0], abs=1e-6)


def test_fit_elo_recovers_known_ratings() -> None:
    """Results drawn exactly at the expected scores of known ratings give them back."""
    truth = [0.0, 250.0, -120.0, 90.0]
    names = ["random", "b", "c", "d"]
    exact: list[tuple[int, int, float]] = []
    counted: list[tuple[int, int, float]] = []
    for i in range(4):
        for j in range(i + 1, 4):
            e = expected_score(truth[i], truth[j])
            exact.append((i, j, e))
            wins = round(2000 * e)
            counted += [(i, j, 1.0)] * wins + [(i, j, 0.0)] * (2000 - wins)
    fitted = fit_elo(names, exact, prior=0)
    assert fitted == pytest.approx(truth, abs=1e-6)
    assert fit_elo(names, counted, prior=0) == pytest.approx(truth, abs=1.0)
    shifted = fit_elo(names, exact, anchor=1, prior=0)
    assert shifted == pytest.approx([t - 250.0 for t in truth], abs=1e-6)


def test_fit_elo_prior_keeps_a_clean_sweep_finite() -> None:
    sweep = [(0, 1, 1.0)] * 20
    with pytest.raises(ValueError, match="won every game"):
        fit_elo(["a", "b"], sweep, prior=0)
    # one virtual draw: 20.5 of 21, a strength ratio of 41.
    elo = fit_elo(["a", "b"], sweep, prior=1.0)
    assert elo[0] == 0 and elo[1] == pytest.approx(-400 * math.log10(41), abs=1e-6)


def test_fit_elo_refuses_bad_results() -> None:
    with pytest.raises(ValueError, match="does not name two players"):
        fit_elo(["a", "b"], [(0, 0, 1.0)])
    with pytest.raises(ValueError, match="played no game"):
        fit_elo(["a", "b", "c"], [(0, 1, 1.0), (1, 0, 1.0)])
    with pytest.raises(ValueError, match="score 2"):
        fit_elo(["a", "b"], [(0, 1, 2)])


# --- duplicate boards (docs/rules.md §2.1–§2.3) --------------------------------------------

class FirstLegalBot:
    """A test bot: takes when it may, plays its lowest legal card."""

    name = "first"

    def call(self, view: PlayerView) -> str:
        legal = view.legal_calls
        return "take" if "take" in legal else legal[0]

    def play(self, view: PlayerView) -> int:
        return min(view.legal_cards)

    def declarations(self, view: PlayerView) -> None:
        return None

    def say_belote(self, view: PlayerView, card: int) -> bool:
        return True


class BrokenBot(FirstLegalBot):
    """A test bot that fails at its first card."""

    name = "broken"

    def play(self, view: PlayerView) -> int:
        raise RuntimeError("boom")


def make_test_bot(spec: str, seed: int | None = None) -> Any:
    """``first`` and ``broken`` are the test bots; every other spec is a bot of belote.bots."""
    if spec == "first":
        return FirstLegalBot()
    if spec == "broken":
        return BrokenBot()
    return make_bot(spec, seed)


LOG: list[tuple[tuple[str, ...], list[int], int, tuple[int, ...] | None]] = []


def recording_play_deal(rnd: Round, bots: Sequence[Any]) -> None:
    """The bots' driver, recording each deal's seats, deck, dealer and score."""
    deck, dealer = list(rnd.deck), rnd.dealer
    bots_play_deal(rnd, bots)
    score = deal_score(rnd.rules, rnd.result().entry) if rnd.phase == OVER else None
    LOG.append((tuple(b.name for b in bots), deck, dealer, score))


def test_deals_mode_plays_every_deck_twice_with_the_seats_swapped() -> None:
    """Each board: the same deck and dealer at both tables (§2.1, §2.3), A holding
    N-S at table 0 and E-W at table 1; every pairing meets the same boards."""
    LOG.clear()
    config = TournamentConfig(bots=("random", "heuristic", "first"), boards=3, seed=11)
    rules = config.rules()
    run_tournament(config, workers=1, play_deal=recording_play_deal, make_bot=make_test_bot)
    pairs = [("random", "heuristic"), ("random", "first"), ("heuristic", "first")]
    assert len(LOG) == 3 * 3 * 2
    k = 0
    for a, b in pairs:
        for board in range(3):
            (names0, deck0, dealer0, _), (names1, deck1, dealer1, _) = LOG[k], LOG[k + 1]
            k += 2
            assert names0 == (a, b, a, b) and names1 == (b, a, b, a)
            assert deck0 == deck1 and dealer0 == dealer1
            assert (dealer0, deck0) == board_deal(rules, 11, board)
            assert sorted(deck0) == list(range(32))
    decks = [entry[1] for entry in LOG[:6:2]]
    assert len({tuple(d) for d in decks}) == 3  # three different boards


def test_deals_mode_points_are_those_of_each_bots_team() -> None:
    """The points credited to each bot are its team's deal scores at both tables (§8)."""
    LOG.clear()
    config = TournamentConfig(bots=("random", "heuristic"), boards=6, seed=5)
    result = run_tournament(config, workers=1, play_deal=recording_play_deal)
    totals = {"random": 0, "heuristic": 0}
    for names, _, _, score in LOG:
        if score is not None:
            for seat in (0, 1):
                totals[names[seat]] += score[seat]
    p = result.pairings[0]
    assert p.deals == 12
    assert p.points_per_deal == (totals["random"] / 12, totals["heuristic"] / 12)
    assert p.margin_per_deal.value == pytest.approx(
        (totals["random"] - totals["heuristic"]) / 12)


def test_games_mode_replays_the_deck_sequence_with_teams_swapped() -> None:
    """Games to the target (§11): both tables of a board deal the same decks in the same
    order from the same first dealer, the dealer moving on each deal (§2.1, §2.4)."""
    LOG.clear()
    config = TournamentConfig(bots=("random", "heuristic"), mode="games", boards=2, seed=3,
                              options={"target": 301})
    rules = config.rules()
    result = run_tournament(config, workers=1, play_deal=recording_play_deal)
    tables: list[list[tuple[list[int], int]]] = []
    last: tuple[str, ...] | None = None
    for names, deck, dealer, _ in LOG:
        if names != last:
            tables.append([])
            last = names
        tables[-1].append((deck, dealer))
    assert len(tables) == 4  # 2 boards x 2 tables
    for board in range(2):
        for table in tables[2 * board:2 * board + 2]:
            first = game_first_dealer(3, board)
            for k, (deck, dealer) in enumerate(table):
                assert deck == game_deck(rules, 3, board, k)
                # allpass_dealer = next (§2.4): the deal always moves on.
                assert dealer == (first + k) % 4
    p = result.pairings[0]
    assert p.games is not None and p.games.played == 4
    assert p.deals == sum(len(t) for t in tables)
    assert p.deal_results.played == p.deals


def test_shuffle_each_deal_false_is_refused() -> None:
    """§2.2: without a shuffle the decks would follow the play; tournaments shuffle."""
    config = TournamentConfig(bots=("random", "heuristic"), options={"shuffle_each_deal": False})
    with pytest.raises(OptionError, match="shuffle_each_deal"):
        run_tournament(config, workers=1)
    assert TournamentConfig(bots=("a", "b")).rules().shuffle_each_deal is True


# --- determinism and runners ------------------------------------------------------


def test_same_result_with_one_or_two_workers() -> None:
    config = TournamentConfig(bots=("random", "heuristic", "first"), boards=4, seed=7)
    one = run_tournament(config, workers=1, make_bot=make_test_bot)
    two = run_tournament(config, workers=2, chunk_size=1, make_bot=make_test_bot)
    assert two.workers == 2 and two.runner == "local"
    assert outcome(one.to_json()) == outcome(two.to_json())
    other = run_tournament(TournamentConfig(bots=config.bots, boards=4, seed=8), workers=1,
                           make_bot=make_test_bot)
    assert outcome(other.to_json()) != outcome(one.to_json())


def test_games_mode_same_result_with_one_or_two_workers() -> None:
    config = TournamentConfig(bots=("random", "heuristic"), mode="games", boards=3, seed=2,
                              options={"target": 501})
    one = run_tournament(config, workers=1, chunk_size=2)
    two = run_tournament(config, workers=2, chunk_size=1)
    assert outcome(one.to_json()) == outcome(two.to_json())


def test_progress_callback_counts_boards() -> None:
    calls: list[tuple[int, int]] = []
    config = TournamentConfig(bots=("random", "heuristic", "first"), boards=3, seed=1)
    run_tournament(config, workers=1, make_bot=make_test_bot,
                   progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 9) and calls[-1] == (9, 9)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_default_chunk_size() -> None:
    assert default_chunk_size(100, 3, 1) == 38
    assert default_chunk_size(10_000, 1, 2) == 50
    assert default_chunk_size(1, 1, 16) == 1


def test_core_does_not_import_matplotlib_or_ray() -> None:
    code = (
        "import sys\n"
        "from belote.tournament import TournamentConfig, run_tournament\n"
        "run_tournament(TournamentConfig(bots=('random', 'heuristic'), boards=2), workers=1)\n"
        "print(sorted(m for m in ('matplotlib', 'ray', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bots": ("random",)}, "at least two bots"),
        ({"bots": ("random", "random")}, "named twice"),
        ({"boards": 0}, "boards: 0"),
        ({"mode": "rubbers"}, "mode: 'rubbers'"),
        ({"bots": ("random", "minimax")}, "unknown bot 'minimax'"),
        ({"profile": "bridge"}, "bridge"),
        ({"profile": "classic-3p", "options": {"three_deal": "nine"}}, "three_deal"),
    ],
)
def test_bad_settings_are_refused(changes: dict[str, Any], message: str) -> None:
    config = TournamentConfig(**{"bots": ("random", "heuristic"), "boards": 2, **changes})
    with pytest.raises(BeloteError, match=message):
        run_tournament(config, workers=1)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_bot_is_reported_with_where_it_failed(workers: int) -> None:
    """One line says where; the bot's whole traceback comes along, from a worker too."""
    config = TournamentConfig(bots=("first", "broken"), boards=1, seed=1)
    with pytest.raises(TournamentError,
                       match=r"pairing 'first' vs 'broken', board 0, table 0: RuntimeError: boom"
                       ) as failure:
        run_tournament(config, workers=workers, chunk_size=1, make_bot=make_test_bot)
    text = failure.value.traceback_text
    assert text is not None and text.startswith("Traceback (most recent call last):")
    assert 'raise RuntimeError("boom")' in text and "in play" in text
    assert text.rstrip().endswith("RuntimeError: boom")


def test_cli_names_the_file_that_holds_a_failing_bots_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The command answers one error line, no traceback (docs/json.md); the line names a
    file holding the bot's traceback."""
    from belote.bots import registry

    class Broken(BaseBot):
        kind = "broken"

        def call(self, view: PlayerView) -> str:
            return "pass" if "pass" in view.legal_calls else view.legal_calls[0]

        def play(self, view: PlayerView) -> int:
            raise ZeroDivisionError("a bot's bug")

    monkeypatch.setattr(registry, "BOT_CLASSES", {**registry.BOT_CLASSES, "broken": Broken})
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    res = runner.invoke(app, ["tournament", "--bots", "random,broken", "--deals", "1",
                              "--workers", "1", "--json"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    line = res.stderr.strip()
    assert line.count("\n") == 0 and json.loads(res.stdout) == {"error": line[len("error: "):]}
    # which table meets the bug first depends on the deal (at a table where everyone
    # passes, the broken bot never plays a card), and the tournament's seed is drawn
    found = re.fullmatch(r"error: pairing 'random' vs 'broken', board 0, table [01]: "
                         r"ZeroDivisionError: a bot's bug \(the bot's traceback: (.+)\)", line)
    assert found, line
    saved = Path(found.group(1))
    assert saved.parent == tmp_path
    text = saved.read_text(encoding="utf-8")
    assert 'raise ZeroDivisionError("a bot\'s bug")' in text and "play_deal" in text


def test_bad_worker_count_is_refused() -> None:
    with pytest.raises(TournamentError, match="workers: 0"):
        run_tournament(TournamentConfig(bots=("random", "heuristic")), workers=0)


# --- results: JSON, Elo, plot ---------------------------------------------------------


def test_json_shape_and_file(tmp_path: Path) -> None:
    config = TournamentConfig(bots=("heuristic", "random", "first"), boards=5, seed=4)
    result = run_tournament(config, workers=1, make_bot=make_test_bot)
    data = result.to_json()
    assert set(data) == {
        "bots", "mode", "boards", "seed", "profile", "options", "duplicate",
        "shuffle_each_deal", "pairings", "elo", "elo_anchor", "run",
    }
    assert data["mode"] == "deals" and data["duplicate"] is True
    assert [p["bots"] for p in data["pairings"]] == [
        ["heuristic", "random"], ["heuristic", "first"], ["random", "first"]]
    for p in data["pairings"]:
        assert p["games"] is None and p["boards"] == 5 and p["deals"] == 10
        r = p["deal_results"]
        assert r["wins"] + r["losses"] + r["ties"] == r["played"] == 5
        assert r["rate"]["low"] <= r["rate"]["value"] <= r["rate"]["high"]
        m = p["margin_per_deal"]
        assert m["low"] <= m["value"] <= m["high"]
        assert m["value"] == pytest.approx(p["points_per_deal"][0] - p["points_per_deal"][1])
    elo = data["elo"]
    assert data["elo_anchor"] == "random"
    assert {e["bot"] for e in elo} == set(config.bots)
    assert [e["elo"] for e in elo] == sorted((e["elo"] for e in elo), reverse=True)
    assert next(e for e in elo if e["bot"] == "random")["elo"] == 0
    assert sum(e["played"] for e in elo) == 2 * 3 * 5
    assert sum(e["score"] for e in elo) == 3 * 5
    assert data["run"]["runner"] == "local" and data["run"]["workers"] == 1
    path = tmp_path / "results.json"
    result.save(path)
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(data))
    with pytest.raises(TournamentError, match="cannot write"):
        result.save(tmp_path / "missing" / "results.json")


def test_games_mode_json_counts_games() -> None:
    config = TournamentConfig(bots=("random", "heuristic"), mode="games", boards=2, seed=9,
                              options={"target": 301})
    data = run_tournament(config, workers=1).to_json()
    games = data["pairings"][0]["games"]
    assert games["played"] == 4 and games["wins"] + games["losses"] + games["ties"] == 4
    assert data["elo"][0]["played"] == 4  # the Elo fit counts games


def test_elo_anchor_is_the_first_bot_without_random() -> None:
    config = TournamentConfig(bots=("heuristic", "first"), boards=3, seed=1)
    data = run_tournament(config, workers=1, make_bot=make_test_bot).to_json()
    assert data["elo_anchor"] == "heuristic"
    assert next(e for e in data["elo"] if e["bot"] == "heuristic")["elo"] == 0


def test_plot_is_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    config = TournamentConfig(bots=("random", "heuristic", "first"), boards=3, seed=1)
    result = run_tournament(config, workers=1, make_bot=make_test_bot)
    path = tmp_path / "results.png"
    plot_results(result, path)
    assert path.read_bytes()[:8] == PNG_MAGIC
    with pytest.raises(TournamentError, match="cannot write"):
        plot_results(result, tmp_path / "missing" / "results.png")


def test_plot_without_matplotlib_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    def no_module(name: str) -> Any:
        raise ImportError(f"No module named {name!r}")

    result = run_tournament(TournamentConfig(bots=("random", "heuristic"), boards=1), workers=1)
    monkeypatch.setattr(importlib, "import_module", no_module)
    with pytest.raises(TournamentError, match=re.escape("pip install 'belote[plot]'")):
        plot_results(result, "never.png")


# --- the command line --------------------------------------------------------------

runner = CliRunner()


def test_cli_json_out_and_plot(tmp_path: Path) -> None:
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    args = ["tournament", "--bots", "random,heuristic", "--deals", "4", "--seed", "3",
            "--workers", "1", "--json", "--out", str(out)]
    if _has_matplotlib():
        args += ["--plot", str(png)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["boards"] == 4 and data["seed"] == 3 and data["bots"] == ["random", "heuristic"]
    assert outcome(json.loads(out.read_text(encoding="utf-8"))) == outcome(data)
    library = run_tournament(TournamentConfig(bots=("random", "heuristic"), boards=4, seed=3),
                             workers=1)
    assert outcome(library.to_json()) == outcome(data)
    if _has_matplotlib():
        assert png.read_bytes()[:8] == PNG_MAGIC


def test_cli_games_and_options() -> None:
    res = runner.invoke(app, ["tournament", "--bots", "random,heuristic", "--games", "1",
                              "--seed", "1", "--option", "target=301", "--workers", "1",
                              "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["mode"] == "games" and data["options"] == {"target": 301}
    assert data["pairings"][0]["games"]["played"] == 2


def test_cli_human_form() -> None:
    res = runner.invoke(app, ["tournament", "--bots", "random,heuristic", "--deals", "3",
                              "--seed", "2", "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "Elo ladder (random = 0)" in res.stdout
    assert "random vs heuristic" in res.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deals", "2", "--games", "2"], "not both"),
        (["--deals", "0"], "--deals: 0"),
        (["--bots", "random,"], "empty bot name"),
        (["--bots", "random,minimax"], "unknown bot 'minimax'"),
        (["--option", "shuffle_each_deal=false"], "shuffle_each_deal"),
        (["--option", "colour=red"], "unknown option 'colour'"),
        (["--workers", "0"], "workers: 0"),
    ],
)
def test_cli_errors(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["tournament", "--deals", "1", "--json", *args]
                        if "--deals" not in args and "--games" not in args
                        else ["tournament", "--json", *args])
    assert res.exit_code == 2
    assert message in res.stderr
    assert res.stderr.startswith("error: ") and "Traceback" not in res.output
    assert json.loads(res.stdout) == {"error": res.stderr.strip()[len("error: "):]}


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def test_rules_of_the_config_are_the_profile() -> None:
    config = TournamentConfig(bots=("a", "b"), profile="moroccan", options={"target": 700})
    assert config.rules() == make_rules("moroccan", {"target": 700, "shuffle_each_deal": True})


def test_a_deal_alone_is_scored_as_a_one_deal_match() -> None:
    """§8.4: a litige on the last deal of a deal-limited match gives each team its own
    points; deals mode scores every deal that way, with no reserve coming in."""
    rules = make_rules("classic")
    litige = HandEntry(taker=0, trick_points=(81, 81))
    assert deal_score(rules, litige) == (81, 81)
    assert deal_score(rules, HandEntry(taker=0, trick_points=(81, 81), reserve=81)) == (81, 81)
    assert deal_score(rules, HandEntry(taker=1, trick_points=(100, 62))) == (162, 0)  # §8.3
    assert deal_score(rules, HandEntry(taker=0, trick_points=(92, 70))) == (92, 70)  # §8.2
