"""The interactive calculator as a table uses it (issue 12): `belote score --sheet NAME`
keeps every hand in a score sheet (resumable), ``u`` undoes the last hand, ``q`` and
the end of the input keep every hand entered, an impossible value is refused at its
own question, declarations by name; `belote sheet add --ask` asks the same questions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from belote.cli import app
from belote.cli.questions import _read_declarations
from belote.scoring import declaration_total_problem
from tests.cli_support import ctrl_c_heard, run, runner, sheet_json

HAND_NS_92 = ["NS", "92", "no", "0", "0", "no"]
HAND_EW_100 = ["EW", "100", "no", "0", "0", "no"]


def test_sheet_keeps_every_hand_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    code, out = run(["score", "--sheet", "Friday", "--target", "500"],
                    [*HAND_NS_92, *HAND_EW_100, "q"], db)
    assert code == 0
    assert "Every hand is kept in sheet 1 'Friday'" in out
    state = sheet_json(db)
    assert state["name"] == "Friday" and state["target"] == 500
    assert state["totals"] == {"NS": 92 + 62, "EW": 70 + 100}
    # Resumed: the same sheet, its own target, the next hand numbered 3.
    code, out = run(["score", "--sheet", "Friday"], [*HAND_NS_92], db)
    assert code == 0 and "Sheet 1 'Friday' resumed (2 hands" in out
    assert "Hand 3: made" in out
    assert len(sheet_json(db)["hands"]) == 3


def test_u_undoes_the_last_hand(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    code, out = run(["score", "--sheet", "Undo"], [*HAND_NS_92, *HAND_EW_100, "u", "q"], db)
    assert code == 0
    assert "Hand 2 undone. NS 92, EW 70: the game goes on." in out
    assert sheet_json(db)["totals"] == {"NS": 92, "EW": 70}


def test_u_within_a_hand_starts_it_again_and_with_no_hand_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    code, out = run(["score"], ["u", "NS", "92", "u", *HAND_EW_100, "q"], db)
    assert code == 0
    assert "refused: no hand to undo yet" in out
    assert "Hand 1 again from the start." in out
    assert "Hand 1: made" in out and "NS 62, EW 100" in out


def test_quit_and_end_of_input_show_every_hand(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    code, out = run(["score", "--no-sheet"], [*HAND_NS_92, *HAND_EW_100], db)  # input ends
    assert code == 0
    assert "Nothing is kept (--no-sheet): these hands are lost when the calculator stops." in out
    assert "Totals: NS 154, EW 170" in out
    assert "These hands are not saved (--no-sheet)." in out
    assert not db.exists()  # with --no-sheet, nothing is written


def test_without_sheet_every_hand_is_kept_on_a_dated_sheet(tmp_path: Path) -> None:
    """A club's treasurer loses nothing: `belote score` alone keeps each hand as it is
    entered, on a new sheet named by the date and time, and says so at the start."""
    import re

    db = tmp_path / "s.db"
    code, out = run(["score"], [*HAND_NS_92, *HAND_EW_100, "q"], db)
    assert code == 0, out
    kept = re.search(r"Every hand is kept in sheet 1 '(calculator \d{4}-\d\d-\d\d "
                     r"\d\d:\d\d)' \(" + re.escape(str(db)) + r"\)\.", out)
    assert kept is not None, out
    assert out.index(kept.group(0)) < out.index("Hand 1: who took?")  # said at the start
    state = sheet_json(db)
    assert state["name"] == kept.group(1) and state["totals"] == {"NS": 154, "EW": 170}
    code, out = run(["score", "--sheet", kept.group(1)], ["q"], db)  # goes on with it
    assert "resumed (2 hands" in out
    # a second session is a sheet of its own; one with no hand leaves none behind
    code, out = run(["score"], ["q"], db)
    assert "No hand entered: sheet 2" in out and "is removed again" in out
    listed = runner.invoke(app, ["sheet", "list", "--json", "--db", str(db)])
    assert [s["id"] for s in json.loads(listed.stdout)["sheets"]] == [1]
    code, out = run(["score", "--no-sheet", "--sheet", "F"], [], db)
    assert code == 2 and "--no-sheet and --sheet" in out


def test_impossible_declarations_refused_at_their_question(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    answers = ["NS", "92", "no", "37", "tierce+carre", "0", "no", "q"]
    code, out = run(["score"], answers, db)
    assert code == 0
    assert "refused: 37 is not a sum of declaration values" in out
    assert "Hand 1: made" in out and "NS 212, EW 70" in " ".join(out.split())


@pytest.mark.parametrize(("answer", "points"), [
    ("0", 0), ("", 0), ("no", 0), ("tierce", 20), ("quarte", 50), ("Quinte", 100),
    ("carre", 100), ("carré de valets", 200), ("carre9", 150), ("tierce + tierce", 40),
    ("tierce, carreJ", 220), ("70", 70), ("50+20", 70),
])
def test_declarations_by_name_or_points(answer: str, points: int) -> None:
    assert _read_declarations(answer) == points


@pytest.mark.parametrize("answer", ["37", "10", "30", "tierc", "-20", "9" * 50, "2000"])
def test_impossible_declarations(answer: str) -> None:
    with pytest.raises(ValueError):
        _read_declarations(answer)


def test_possible_declaration_totals() -> None:
    possible = {t for t in range(0, 1000) if declaration_total_problem(t) is None}
    assert {0, 20, 40, 50, 70, 100, 120, 150, 200, 250, 550}.issubset(possible)
    assert not {10, 30, 37, 60 + 5, 560}.intersection(possible)


def test_tout_atout_belote_must_be_twenties(tmp_path: Path) -> None:
    answers = ["NS", "TA", "172", "", "", "", "30", "20", "40", "q"]
    code, out = run(["score", "--option", "sa_ta_in_classic=true", "--option", "ta_values=scaled"],
                    answers, tmp_path / "s.db")
    assert code == 0 and "refused: 30 is not 0, 20, 40, 60 or 80" in out


def test_sheet_add_asks_the_questions(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    assert runner.invoke(app, ["sheet", "new", "--db", str(db)]).exit_code == 0
    code, out = run(["sheet", "add", "1", "--ask", "--db", str(db)],
                    ["NS", "163", "92", "no", "0", "0", "no"], db)
    assert code == 0, out
    assert "refused: 163 is outside 0..162" in out
    assert sheet_json(db)["totals"] == {"NS": 92, "EW": 70}
    code, out = run(["sheet", "add", "1", "--ask", "--db", str(db)], ["q"], db)
    assert code == 2 and "nothing added" in out


def test_declarations_by_name_are_compared(tmp_path: Path) -> None:
    """§7.6: only the team with the better declaration scores; asked when equal."""
    answers = ["NS", "92", "no", "tierce", "carre", "no",   # EW's carré wins: NS fails
               "EW", "92", "no", "quinte", "quinte", "NS", "no",  # equal 100s: NS's higher
               "NS", "92", "no", "cent", "carre", "no",  # a carré beats a sequence of 100
               "NS", "92", "no", "tierce", "tierce", "", "no", "q"]  # equal: neither scores
    code, out = run(["score", "--target", "2000"], answers, tmp_path / "s.db")
    assert code == 0, out
    assert "EW's carre beats NS's tierce (§7.5): only EW scores its declarations" in out
    assert "Both best declarations are sequences worth 100" in out
    assert "EW's carre beats NS's cent (§7.5)" in out
    assert "Equal: neither team scores its declarations" in out
    assert "decl. EW 100" in out and "decl. NS 100" in out


def test_points_for_both_teams_are_refused(tmp_path: Path) -> None:
    answers = ["NS", "92", "no", "20", "50", "0", "0", "no", "q"]
    code, out = run(["score"], answers, tmp_path / "s.db")
    assert code == 0 and "refused: both teams have declaration points" in out


def test_ctrl_c_exits_130_and_keeps_the_hands(tmp_path: Path) -> None:
    """docs/json.md: Ctrl-C is status 130 (`error: interrupted`), in the calculator too
    (it was 0); the hands entered are kept and shown."""
    import os
    import signal
    import subprocess
    import sys

    db = tmp_path / "sheets.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "belote", "score", "--sheet", "Friday"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "BELOTE_DB": str(db), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"},
        preexec_fn=ctrl_c_heard)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(("\n".join(HAND_NS_92) + "\n").encode())
    proc.stdin.flush()
    seen = b""
    while b"Hand 2: who took?" not in seen:  # the hand is scored, the next one asked
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, seen.decode()
        seen += chunk
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (seen + out + err).decode()
    assert err.decode().strip().splitlines()[-1] == "error: interrupted"
    assert b"Traceback" not in err and b"NS 92, EW 70: the game goes on." in out
    assert sheet_json(db)["totals"] == {"NS": 92, "EW": 70}


def test_ctrl_c_at_a_question_is_130(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Ctrl-C at a question (click turns it into Abort, as it does the end of the input):
    status 130, the hands so far shown; the end of the input stays a plain stop (0)."""
    import typer

    answers = iter(HAND_NS_92)

    def prompt(text: str, **_: object) -> str:
        try:
            return next(answers)
        except StopIteration:
            try:
                raise KeyboardInterrupt from None
            except KeyboardInterrupt:
                raise typer.Abort() from None

    monkeypatch.setattr(typer, "prompt", prompt)
    result = runner.invoke(app, ["score", "--sheet", "Friday"],
                           env={"BELOTE_DB": str(tmp_path / "s.db"), "COLUMNS": "200"})
    assert result.exit_code == 130, result.output
    assert "error: interrupted" in result.stderr
    assert "NS 92, EW 70: the game goes on." in result.stdout
    monkeypatch.undo()
    code, _ = run(["score", "--sheet", "Saturday"], HAND_NS_92, tmp_path / "t.db")
    assert code == 0
