"""`belote sheet ...` on the command line (docs/json.md `belote sheet`)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from belote.cli import app

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "sheets.db"


def run(db: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None
        ) -> Result:
    return runner.invoke(app, ["sheet", *args, "--db", str(db)], input=stdin, env=env)


def ok(db: Path, *args: str, stdin: str | None = None) -> dict[str, Any]:
    result = run(db, *args, "--json", stdin=stdin)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def refused(db: Path, *args: str, stdin: str | None = None, match: str = "") -> str:
    result = run(db, *args, "--json", stdin=stdin)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: "), result.stderr
    assert match in result.stderr
    assert "Traceback" not in result.output
    assert "error" in json.loads(result.stdout)
    return result.stderr


def hand(taker: str, points: int, **more: Any) -> str:
    return json.dumps({"taker": taker, "trick_points": {taker: points}, **more})


def new(db: Path, *args: str) -> int:
    sid: int = ok(db, "new", *args)["id"]
    return sid


def test_new_answers_the_state(db: Path) -> None:
    state = ok(db, "new", "--profile", "coinche", "--target", "1500", "--option",
               "double_scope=contract_only", "--option", "beat_defence=false",
               "--name", "Club", "--teams", "Us,Them")
    for key in ("id", "name", "profile", "options", "target", "hands", "running", "totals",
                "reserve", "finished", "winner"):
        assert key in state
    assert state["profile"] == "coinche" and state["target"] == 1500
    assert state["options"] == {"double_scope": "contract_only", "beat_defence": False}
    assert state["name"] == "Club" and state["team_names"] == {"NS": "Us", "EW": "Them"}
    assert state["hands"] == [] and state["totals"] == {"NS": 0, "EW": 0}


def test_add_undo_edit_show_8_4(db: Path) -> None:
    """§8.4: the reserve is recomputed after an undo or an edit."""
    sid = str(new(db, "--profile", "classic"))
    state = ok(db, "add", sid, stdin=hand("NS", 81))
    assert state["reserve"] == 81 and state["hands"][0]["outcome"] == "litige"
    state = ok(db, "add", sid, stdin=hand("NS", 100))
    assert state["totals"] == {"NS": 181, "EW": 143} and state["reserve"] == 0
    state = ok(db, "undo", sid)
    assert state["reserve"] == 81 and len(state["hands"]) == 1
    state = ok(db, "add", sid, stdin=hand("EW", 100))
    assert state["hands"][1]["score"] == {"NS": 62, "EW": 181}
    state = ok(db, "edit", sid, "1", stdin=hand("NS", 91))
    assert state["reserve"] == 0 and state["totals"] == {"NS": 153, "EW": 171}
    assert ok(db, "show", sid) == state


def test_add_from_file_and_jsonl(db: Path, tmp_path: Path) -> None:
    sid = str(new(db))
    path = tmp_path / "hand.json"
    path.write_text(hand("EW", 100))
    assert ok(db, "add", sid, "--file", str(path))["totals"] == {"NS": 62, "EW": 100}
    lines = hand("NS", 92) + "\n" + hand("NS", 170) + "\n" + hand("EW", 92) + "\n"
    result = run(db, "add", sid, "--jsonl", stdin=lines)
    assert result.exit_code == 2
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers[0]["hands"]) == 2
    assert "trick_points" in answers[1]["error"]
    assert len(answers[2]["hands"]) == 3


def test_errors_exit_2_and_change_nothing(db: Path) -> None:
    refused(db, "show", "7", match="sheet 7: no such sheet")
    refused(db, "show", "seven", match="not a sheet id")
    sid = str(new(db, "--target", "150"))
    refused(db, "undo", sid, match="no hand to undo")
    before = ok(db, "add", sid, stdin=hand("NS", 92))
    refused(db, "add", sid, stdin=hand("NS", 200), match="hand 2: trick_points.NS: 200")
    refused(db, "add", sid, stdin="{not json", match="not valid JSON")
    refused(db, "add", sid, stdin="[1]", match="expected a JSON object")
    refused(db, "edit", sid, "3", stdin=hand("NS", 90), match="no hand 3 to edit")
    refused(db, "edit", sid, "x", stdin=hand("NS", 90), match="not a hand number")
    assert ok(db, "show", sid) == before
    won = ok(db, "add", sid, stdin=hand("NS", 100))
    assert won["finished"] and won["winner"] == "NS"
    refused(db, "add", sid, stdin=hand("NS", 100), match="the game was already won")
    assert ok(db, "show", sid) == won
    refused(db, "new", "--profile", "bridge", match="unknown profile 'bridge'")
    refused(db, "new", "--option", "tie_rule=coin", match="'tie_rule'")
    refused(db, "new", "--option", "nonsense", match="expected NAME=VALUE")
    refused(db, "new", "--players", "9", match="players: 9")
    refused(db, "export", sid, "--format", "xml", match="not json or csv")
    assert len(ok(db, "list")["sheets"]) == 1


def test_list_and_delete(db: Path) -> None:
    a = new(db, "--name", "A")
    b = new(db, "--name", "B", "--profile", "contree")
    ok(db, "add", str(a), stdin=hand("EW", 92))
    assert ok(db, "list") == {"sheets": [
        {"id": a, "name": "A", "profile": "classic", "hands": 1, "finished": False,
         "updated": ok(db, "list")["sheets"][0]["updated"]},
        {"id": b, "name": "B", "profile": "contree", "hands": 0, "finished": False,
         "updated": ok(db, "list")["sheets"][1]["updated"]},
    ]}
    deleted = ok(db, "delete", str(a))
    assert deleted["deleted"] is True and deleted["id"] == a
    assert [s["id"] for s in ok(db, "list")["sheets"]] == [b]
    refused(db, "show", str(a), match="deleted")
    ok(db, "delete", str(b), "--purge")
    assert ok(db, "list") == {"sheets": []}


def test_export_import_round_trip(db: Path, tmp_path: Path) -> None:
    sid = str(new(db, "--name", "Trip", "--teams", "Us,Them", "--option", "tie_rule=litige"))
    for h in (hand("NS", 81), hand("EW", 100, belote="NS"), hand("NS", 160)):
        ok(db, "add", sid, stdin=h)
    out = tmp_path / "sheet.json"
    state = ok(db, "export", sid, "--format", "json", "--out", str(out))
    assert state == ok(db, "show", sid)
    result = run(db, "import", str(out), "--json")
    assert result.exit_code == 0, result.output
    new_state = json.loads(result.stdout)
    assert new_state["id"] != state["id"]
    assert {k: v for k, v in new_state.items() if k != "id"} == {
        k: v for k, v in state.items() if k != "id"}
    # stdout export equals the file
    result = run(db, "export", sid)
    assert json.loads(result.stdout) == json.loads(out.read_text())
    # import from stdin
    result = run(db, "import", "-", "--json", stdin=out.read_text())
    assert result.exit_code == 0 and json.loads(result.stdout)["totals"] == state["totals"]
    refused(db, "import", str(tmp_path / "missing.json"), match="cannot read")


def test_export_csv(db: Path, tmp_path: Path) -> None:
    sid = str(new(db))
    ok(db, "add", sid, stdin=hand("NS", 81))
    ok(db, "add", sid, stdin=hand("NS", 100))
    result = run(db, "export", sid, "--format", "csv")
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["reserve"] for r in rows] == ["81", "0"]
    assert [(r["total_NS"], r["total_EW"]) for r in rows] == [("0", "81"), ("181", "143")]
    out = tmp_path / "s.csv"
    result = run(db, "export", sid, "--format", "csv", "--out", str(out))
    assert result.exit_code == 0 and out.read_text().startswith("hand,taker,")


def test_belote_db_variable_chooses_the_file(tmp_path: Path) -> None:
    path = tmp_path / "env" / "chosen.db"
    result = runner.invoke(app, ["sheet", "new", "--json"], env={"BELOTE_DB": str(path)})
    assert result.exit_code == 0, result.output
    assert path.exists()
    result = runner.invoke(app, ["sheet", "list", "--json"], env={"BELOTE_DB": str(path)})
    assert len(json.loads(result.stdout)["sheets"]) == 1


def test_default_file_is_in_xdg_data_home(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "BELOTE_DB": ""}
    result = runner.invoke(app, ["sheet", "new", "--json"], env=env)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "data" / "belote" / "sheets.db").exists()


def test_human_form_shows_table_totals_reserve_winner(db: Path) -> None:
    sid = str(new(db, "--teams", "Us,Them", "--target", "150", "--name", "Friday"))
    ok(db, "add", sid, stdin=hand("NS", 81))
    result = run(db, "show", sid)
    assert result.exit_code == 0
    text = result.stdout
    assert "Friday" in text and "Us" in text and "Them" in text
    assert "litige" in text and "reserve 81" in text
    result = run(db, "add", sid, stdin=hand("NS", 162))
    assert result.exit_code == 0 and "Us won" in result.stdout
    assert "Friday" in run(db, "list").stdout
    result = run(db, "add", sid, stdin=hand("NS", 100))
    assert result.exit_code == 2 and result.stderr.startswith("error: ")
    assert result.stdout == ""


def test_n_player_sheet_on_the_command_line_13(db: Path) -> None:
    state = ok(db, "new", "--players", "5", "--player-names", "Ann,Bob,Cat,Dan,Eve")
    assert state["players"] == 5 and state["player_names"] == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    nxt = state["next"]
    assert nxt["hand"] == 1 and len(nxt["out"]) == 1
    state = ok(db, "add", str(state["id"]), stdin=hand("NS", 100))
    standing = {s["player"]: s["total"] for s in state["standings"]}
    assert sorted(standing.values()) == [0, 62, 62, 100, 100]
    result = run(db, "show", str(state["id"]))
    assert result.exit_code == 0
    assert "Standings" in result.stdout and "dealer" in result.stdout
    assert "Ann" in result.stdout
    refused(db, "new", "--players", "5", "--teams", "A,B", match="teams change every hand")
    refused(db, "new", "--players", "6", "--player-names", "A,B", match="gives 2 names")


def test_a_database_that_cannot_be_made_is_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = runner.invoke(app, ["sheet", "list", "--json", "--db", str(blocker / "s.db")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: database ") and "cannot create its folder" in (
        result.stderr)
    assert "Traceback" not in result.output


def test_human_delete_and_export_messages(db: Path, tmp_path: Path) -> None:
    sid = str(new(db))
    out = tmp_path / "x.json"
    result = run(db, "export", sid, "--out", str(out))
    assert result.exit_code == 0 and f"sheet {sid} written to" in result.stdout
    result = run(db, "delete", sid)
    assert result.exit_code == 0 and result.stdout == f"sheet {sid} deleted\n"
    result = run(db, "delete", sid)
    assert result.exit_code == 2 and "deleted" in result.stderr
