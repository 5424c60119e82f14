"""The interactive calculator at tables of three and two (docs/rules.md §12): per-seat
questions, each seat's total, a sheet kept hand by hand, undo, and `belote sheet add`
asking the same questions."""

from __future__ import annotations

import json
from pathlib import Path

from belote.cli import app
from tests.cli_support import run, runner, sheet_json

# who took, capot, the taker's points, the next seat's (the last is worked out),
# declarations of N, E, S, belote
E_TAKES_100 = ["E", "no", "100", "31", "0", "0", "0", "no"]


def test_three_players_per_seat_with_a_sheet(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    code, out = run(["score", "--profile", "classic-3p", "--sheet", "Trio", "--target", "300"],
                    [*E_TAKES_100, "q"], db)
    assert code == 0, out
    assert "N 31 (the rest)" in out
    assert "N 31, E 100, S 31: the game goes on" in out
    state = sheet_json(db)
    assert state["players"] == 3 and state["totals"] == {"N": 31, "E": 100, "S": 31}
    # resumed: a failed hand with declarations compared side against side, then undone
    answers = ["N", "no", "60", "51", "tierce", "quarte", "0", "N", "u", "q"]
    code, out = run(["score", "--sheet", "Trio"], answers, db)
    assert code == 0, out
    assert "resumed" in out
    assert "defenders: quarte beats taker: tierce" in out
    assert "Hand 2: failed" in out
    assert "Hand 2 undone" in out
    assert sheet_json(db)["totals"] == {"N": 31, "E": 100, "S": 31}


def test_odd_point_asks_who_led(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    # N fails with 61: E and S score their own 50 and 51 and share the other 61, an
    # odd number: the odd point goes to the first defender from the leader, S
    answers = ["N", "no", "61", "50", "0", "0", "0", "no", "S", "q"]
    code, out = run(["score", "--profile", "classic-3p", "--sheet", "Odd"], answers, db)
    assert code == 0, out
    assert "who led the first trick" in out
    state = sheet_json(db)
    assert state["hands"][0]["score"] == {"N": 0, "E": 50 + 30, "S": 51 + 30 + 1}


def test_capot_and_refusals(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    answers = ["W", "S", "maybe", "taker", "0", "0", "0", "no", "q"]
    code, out = run(["score", "--profile", "classic-3p", "--sheet", "Cap"], answers, db)
    assert code == 0, out
    assert "refused: 'W': answer N, E, S" in out
    assert "refused: 'maybe': answer no, taker or defenders" in out
    assert "S 252" in out
    assert sheet_json(db)["totals"] == {"N": 0, "E": 0, "S": 252}


def test_two_players_stock_and_decouverte(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    # stock: every seat's points are asked (part of the pack stays out)
    answers = ["E", "no", "70", "40", "0", "0", "E", "q"]
    code, out = run(["score", "--profile", "classic-2p", "--sheet", "Duo"], answers, db)
    assert code == 0, out
    assert sheet_json(db)["totals"] == {"N": 40, "E": 90}
    answers = ["no", "100", "E", "q"]
    code, out = run(["score", "--profile", "classic-2p", "--option", "two_deal=decouverte",
                     "--sheet", "Dec"], answers, db)
    assert code == 0, out
    assert "E 62 (the rest)" in out and "counted" in out
    assert sheet_json(db, 2)["totals"] == {"N": 100, "E": 82}


def test_sheet_add_asks_per_seat(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    result = runner.invoke(app, ["sheet", "new", "--profile", "classic-3p", "--db", str(db),
                                 "--json"])
    assert result.exit_code == 0, result.output
    code, out = run(["sheet", "add", "1", "--ask"], E_TAKES_100, db)
    assert code == 0, out
    assert sheet_json(db)["totals"] == {"N": 31, "E": 100, "S": 31}


def test_score_game_table_per_seat(tmp_path: Path) -> None:
    game = {"profile": "classic-3p", "target": 200, "hands": [
        {"taker": "N", "trick_points": {"N": 100, "E": 31}},
        {"taker": "N", "capot": "taker"}]}
    result = runner.invoke(app, ["score", "game"], input=json.dumps(game),
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "total S" in out and "N wins the game with 352" in out


def test_three_players_hand_table_shows_each_seats_own_trick_points(tmp_path: Path) -> None:
    """A failed taker: each defender's own trick points beside the shares they score."""
    answers = ["N", "no", "60", "51", "0", "0", "0", "no", "q"]
    code, out = run(["score", "--profile", "classic-3p", "--sheet", "Trio"], answers,
                    tmp_path / "s.db")
    assert code == 0, out
    assert "│ own trick points │ 60 │ 51 │ 51 │" in out
    assert "│ hand score │ 0 │ 81 │ 81 │" in out  # each his own 51 and 30 of the rest
