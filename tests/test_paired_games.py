"""benchmarks/paired_games.py: two bots' games on the same decks and seatings, compared
game by game."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from belote.tournament import TournamentConfig, run_tournament
from tests.helpers import load_benchmark

pg = load_benchmark("paired_games")


def _game(winner: int | None, bot: float = 0.0, opponent: float = 0.0, deals: int = 10) -> Any:
    return pg.Game(winner, (opponent, bot), deals)


def _pairs(outcomes: list[tuple[int, int]], tables: int = 3, seed: int = 1) -> list[Any]:
    """Pairs of wins (1) and losses (0) under A and B, ``tables`` to a board."""
    return [pg.Pair(seed, i // tables, i % tables, (0, 1, 1), _game(a), _game(b))
            for i, (a, b) in enumerate(outcomes)]


def test_the_discordant_pairs_interval_by_hand() -> None:
    """100 pairs: 5 won by A alone, 15 by B alone, 50 by both, 30 by neither: the
    difference is (15 - 5) / 100 and its half-width 1.96 √(20 − 10²/100) / 100."""
    outcomes = [(1, 0)] * 5 + [(0, 1)] * 15 + [(1, 1)] * 50 + [(0, 0)] * 30
    c = pg.compare(_pairs(outcomes, tables=4))
    assert (c.pairs, c.boards, c.won_a, c.won_b) == (100, 25, 55, 65)
    assert (c.a_only, c.b_only) == (5, 15)
    half = 1.959964 * math.sqrt(20 - 10 ** 2 / 100) / 100
    assert c.difference.value == pytest.approx(0.10)
    assert c.difference.low == pytest.approx(0.10 - half, abs=1e-6)
    assert c.difference.high == pytest.approx(0.10 + half, abs=1e-6)
    assert c.mcnemar_p == pytest.approx(2 * sum(math.comb(20, i) for i in range(6)) / 2 ** 20)
    # A and B swapped: the same interval, mirrored
    swapped = pg.compare(_pairs([(b, a) for a, b in outcomes], tables=4))
    assert (swapped.a_only, swapped.b_only) == (15, 5)
    assert swapped.difference.low == pytest.approx(-c.difference.high)


def test_concordant_pairs_say_nothing() -> None:
    """Pairs that end alike leave a difference of 0 with no width, and p = 1."""
    c = pg.compare(_pairs([(1, 1), (0, 0), (1, 1)]))
    assert (c.a_only, c.b_only, c.won_a, c.won_b) == (0, 0, 2, 2)
    assert (c.difference.value, c.difference.low, c.difference.high) == (0, 0, 0)
    assert c.mcnemar_p == 1.0


def test_mcnemar_exact_by_hand() -> None:
    assert pg.mcnemar_exact(0, 0) == 1.0
    assert pg.mcnemar_exact(0, 6) == pytest.approx(2 / 64)
    assert pg.mcnemar_exact(2, 8) == pytest.approx(2 * (1 + 10 + 45) / 1024)
    assert pg.mcnemar_exact(8, 2) == pg.mcnemar_exact(2, 8)
    assert pg.mcnemar_exact(5, 5) == 1.0
    assert 0 < pg.mcnemar_exact(900, 1100) < 1e-5  # exact, no overflow


def test_draws_count_half_and_points_a_deal_by_board() -> None:
    """A draw is half a game; a board's points a deal are its games' points over their
    deals; the boards' differences give the paired points a deal."""
    pairs = [
        pg.Pair(5, 0, 0, (0, 1, 1), _game(1, 900, 1000, 10), _game(None, 1000, 1000, 12)),
        pg.Pair(5, 0, 1, (1, 0, 1), _game(0, 600, 1010, 8), _game(0, 700, 1010, 8)),
        pg.Pair(5, 1, 0, (1, 0, 0), _game(1, 1020, 500, 9), _game(1, 1020, 500, 9)),
    ]
    c = pg.compare(pairs)
    assert (c.won_a, c.won_b, c.a_only, c.b_only, c.boards) == (2, 1.5, 1, 0, 2)
    assert c.difference.value == pytest.approx(-0.5 / 3)
    board0_a = (900 - 1000 + 600 - 1010) / 18
    board0_b = (0 + 700 - 1010) / 20
    board1 = (1020 - 500) / 9
    assert c.margin_a.value == pytest.approx((board0_a + board1) / 2)
    assert c.margin_b.value == pytest.approx((board0_b + board1) / 2)
    assert c.margin_difference.value == pytest.approx((board0_b - board0_a) / 2)
    assert c.by_board.value == pytest.approx(-0.25 / 2)


def _series(pairs: list[Any], bots: tuple[str, str] = ("x", "y")) -> Any:
    return pg.Series(bots, "heuristic", "classic-3p", {}, pairs, {1: "given"}, (1.0, 2.0))


def test_pool_adds_runs_and_refuses_the_same_game_twice() -> None:
    one = _series(_pairs([(1, 0)] * 3))
    two = _series([pg.Pair(2, p.board, p.table, p.seats, p.a, p.b)
                   for p in _pairs([(0, 1)] * 6)])
    two.seeds = {2: "fresh"}
    pooled = pg.pool([one, two])
    assert len(pooled.pairs) == 9 and pooled.seeds == {1: "given", 2: "fresh"}
    assert pooled.cpu == (2.0, 4.0)
    with pytest.raises(pg.BeloteError, match="pooled already"):
        pg.pool([one, one])
    with pytest.raises(pg.BeloteError, match="same bots"):
        pg.pool([one, _series(_pairs([(1, 0)]), bots=("x", "z"))])


def test_a_run_plays_the_tournaments_games(tmp_path: Path) -> None:
    """Under each bot, a board's games are those `belote tournament --bots
    heuristic,BOT` plays on the same seed (the same decks, seats and bot seeds): the
    same winners, points and deals, table by table."""
    out = tmp_path / "run.json"
    assert pg.main(["run", "--bots", "random,heuristic", "--opponent", "heuristic",
                    "--profile", "classic-3p", "--seed", "3", "--boards", "0:2",
                    "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["kind"] == "paired-games" and data["boards_done"] == 2
    assert data["seeds"] == [{"seed": 3, "source": "given"}]
    series = pg.load(out)
    assert [p.key for p in series.pairs] == [(3, b, t) for b in range(2) for t in range(3)]
    result = run_tournament(TournamentConfig(("heuristic", "random"), "games", 2, 3,
                                             "classic-3p"), workers=1, keep_records=True)
    assert [(p.a.winner, p.a.points, p.a.deals) for p in series.pairs] == [
        (t.winner, t.points, t.deals) for _, t in result.tables]
    assert [p.seats for p in series.pairs] == [
        tuple(0 if s == "heuristic" else 1 for s in t.seats) for _, t in result.tables]
    assert len({p.a.points for p in series.pairs}) > 1  # (not one game six times)
    # B's games are its own: the bots swapped, each game is the other side's
    swapped = tmp_path / "swapped.json"
    assert pg.main(["run", "--bots", "heuristic,random", "--opponent", "heuristic",
                    "--profile", "classic-3p", "--seed", "3", "--boards", "0:2",
                    "--out", str(swapped)]) == 0
    back = pg.load(swapped).pairs
    assert [(p.a, p.b) for p in back] == [(p.b, p.a) for p in series.pairs]
    assert any(p.a != p.b for p in series.pairs)


def test_the_oracle_plays_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``oracle`` stands for a bot: paired_boards's yardstick (PIMC's calls, the true
    deal's best card) plays whole games, and far better than random card play on the
    same decks and seats (games to 300 to keep it short)."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "benchmarks"))
    out = tmp_path / "oracle.json"
    assert pg.main(["run", "--bots", "random,oracle", "--opponent", "heuristic",
                    "--profile", "classic-3p", "--option", "target=300", "--seed", "5",
                    "--boards", "0:1", "--out", str(out)]) == 0
    series = pg.load(out)
    assert series.bots == ("random", "oracle") and len(series.pairs) == 3
    c = pg.compare(series.pairs)
    assert c.won_b >= c.won_a
    assert c.margin_b.value > c.margin_a.value + 20


def test_the_same_bot_twice_differs_in_no_game(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Both bots get the same decks, seats and seeds: one bot twice ends every game
    alike; pooling two runs of other boards adds their pairs."""
    first, second = tmp_path / "1.json", tmp_path / "2.json"
    for path, boards in ((first, "0:2"), (second, "2:3")):
        assert pg.main(["run", "--bots", "random,random", "--profile", "classic-3p",
                        "--seed", "11", "--boards", boards, "--out", str(path)]) == 0
    assert "discordant: A won and B lost 0, B won and A lost 0" in capsys.readouterr().out
    pooled = tmp_path / "pooled.json"
    assert pg.main(["pool", str(first), str(second), "--out", str(pooled)]) == 0
    assert "9 pairs of games (3 boards)" in capsys.readouterr().out
    data = json.loads(pooled.read_text())
    assert len(data["pairs"]) == 9
    assert all(p["a"] == p["b"] for p in data["pairs"])
    assert data["summary"]["difference"] == {"value": 0.0, "low": 0.0, "high": 0.0}
    assert pg.main(["pool", str(first), str(first)]) == 2
    assert "pooled already" in capsys.readouterr().err


def test_games_to_decide_by_hand() -> None:
    """Connor's approximation: a tenth of the pairs discordant, a gain of 3.6 points:
    ((1.96 √0.1 + 0.8416 √(0.1 − 0.036²)) / 0.036)² = 603.3, so 604 pairs."""
    assert pg.games_to_decide(0.1, 0.036) == 604
    assert pg.games_to_decide(0.1, -0.036) == 604
    assert pg.games_to_decide(0.05, 0.036) < 604 < pg.games_to_decide(0.2, 0.036)
    with pytest.raises(ValueError):
        pg.games_to_decide(0.001, 0.036)


def test_cross_pairs_one_bot_of_each_run_on_the_games_both_played(tmp_path: Path) -> None:
    """``cross``: B of one run against B of another, game by game, on the games both
    runs played; the A of both may be the same bot.  Refused: other rules, other seats
    for one game, no game in common, a side that is neither a nor b."""
    one = _series(_pairs([(1, 0), (1, 1), (0, 0), (0, 1)]), bots=("pimc", "x"))
    two = _series(_pairs([(1, 1), (1, 0), (0, 1)]), bots=("pimc", "y"))
    crossed = pg.cross(one, two, ("b", "b"))
    assert crossed.bots == ("x", "y")
    assert [p.key for p in crossed.pairs] == [p.key for p in two.pairs]
    assert [(p.a.winner, p.b.winner) for p in crossed.pairs] == [(0, 1), (1, 0), (0, 1)]
    assert crossed.cpu == (2.0, 2.0)
    assert pg.cross(one, two, ("a", "b"), ("p", "y")).bots == ("p", "y")
    other = _series(_pairs([(1, 1)]))
    other.options = {"three_deal": "kitty"}
    with pytest.raises(pg.BeloteError, match="same opponent under the same rules"):
        pg.cross(one, other, ("b", "b"))
    moved = _series([pg.Pair(p.seed, p.board, p.table, (1, 0, 1), p.a, p.b)
                     for p in _pairs([(1, 1)])])
    with pytest.raises(pg.BeloteError, match="seats"):
        pg.cross(one, moved, ("b", "b"))
    elsewhere = _series(_pairs([(1, 1)], seed=9))
    with pytest.raises(pg.BeloteError, match="share no game"):
        pg.cross(one, elsewhere, ("b", "b"))
    with pytest.raises(pg.BeloteError, match="not a or b"):
        pg.cross(one, two, ("b", "c"))
    # the command: files in, the comparison printed and written
    first, second, out = tmp_path / "1.json", tmp_path / "2.json", tmp_path / "x.json"
    first.write_text(json.dumps(one.to_json()))
    second.write_text(json.dumps(two.to_json()))
    assert pg.main(["cross", f"{first}:b", f"{second}:b", "--names", "x1,y1",
                    "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["bots"] == ["x1", "y1"] and len(data["pairs"]) == 3
    assert data["crossed_from"] == [f"{first}:b", f"{second}:b"]
    with pytest.raises(SystemExit):
        pg.main(["cross", str(first), f"{second}:b"])
