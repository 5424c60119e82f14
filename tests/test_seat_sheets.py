"""Score sheets of three and two players (docs/rules.md §12, docs/json.md `belote sheet`):
each seat keeps its own total, the game ends by §11 per player as the engine's games do,
with the store's append-only history, undo, edit, export and import."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belote.cli import app
from belote.errors import BeloteError, InvalidRecordError, OptionError
from belote.sheets import SheetError, SheetStore

runner = CliRunner()


@pytest.fixture
def store() -> SheetStore:
    return SheetStore(":memory:", small_tables=True)


def h3(taker: str, **points: int) -> dict[str, Any]:
    return {"taker": taker, "trick_points": points}


def test_three_player_sheet_scores_per_seat(store: SheetStore) -> None:
    state = store.create("classic-3p", target=250, player_names="Ann,Bob,Cy", name="Fri")
    assert state["players"] == 3 and state["team_names"] is None
    assert state["player_names"] == ["Ann", "Bob", "Cy"]
    assert state["totals"] == {"N": 0, "E": 0, "S": 0}
    sid = state["id"]
    state = store.add_hand(sid, h3("E", E=100, N=31))
    assert state["hands"][0]["score"] == {"N": 31, "E": 100, "S": 31}
    state = store.add_hand(sid, h3("N", N=81, E=81))  # litige: 81 in reserve
    assert state["reserve"] == 81 and state["totals"] == {"N": 31, "E": 181, "S": 31}
    state = store.add_hand(sid, h3("S", S=100, E=31))  # S makes: the reserve is his
    assert state["hands"][2]["score"]["S"] == 100 + 81 and state["reserve"] == 0
    # undo and edit recompute everything after
    state = store.undo(sid)
    assert state["reserve"] == 81 and len(state["hands"]) == 2
    state = store.edit_hand(sid, 2, h3("N", N=100, E=31))
    assert state["reserve"] == 0 and state["totals"] == {"N": 131, "E": 131, "S": 62}
    # the game ends when a seat reaches the target alone
    state = store.add_hand(sid, h3("E", E=162, N=0))
    assert state["finished"] and state["winner"] == "E"
    with pytest.raises(InvalidRecordError, match="hand 4: the game was already won"):
        store.add_hand(sid, h3("E", E=162, N=0))
    events = store.history(sid)
    assert [e.kind for e in events] == ["add", "add", "add", "undo", "edit", "add"]


def test_equal_leaders_play_on_or_draw(store: SheetStore) -> None:
    # N fails with 60: E and S score 51 + 30 each, both over 80 and equal
    sid = store.create("classic-3p", target=80)["id"]
    state = store.add_hand(sid, h3("N", N=60, E=51))
    assert state["totals"] == {"N": 0, "E": 81, "S": 81}
    assert not state["finished"] and state["winner"] is None
    drawn = store.create("classic-3p", {"both_cross": "draw"}, target=80)["id"]
    state = store.add_hand(drawn, h3("N", N=60, E=51))
    assert state["finished"] and state["winner"] is None
    two = store.create("classic-2p", target=80)["id"]
    state = store.add_hand(two, {"taker": "N", "trick_points": {"N": 81, "E": 81}})
    assert state["hands"][0]["outcome"] == "litige"
    assert state["totals"] == {"N": 0, "E": 81} and state["finished"]
    assert state["winner"] == "E"


def test_two_player_sheets(store: SheetStore) -> None:
    sid = store.create("classic-2p", target=200)["id"]
    state = store.add_hand(sid, {"taker": "E", "trick_points": {"E": 70}, "trick_total": 110})
    assert state["totals"] == {"N": 40, "E": 70}
    state = store.add_hand(sid, {"taker": "N", "capot": "N", "trick_total": 120})
    assert state["hands"][1]["score"] == {"N": 210, "E": 0}
    assert state["finished"] and state["winner"] == "N"
    dec = store.create("classic-2p", {"two_deal": "decouverte"}, target=300)["id"]
    state = store.add_hand(dec, {"trick_points": {"N": 100}, "belote": "E"})
    assert state["hands"][0]["outcome"] == "counted"
    assert state["totals"] == {"N": 100, "E": 82}
    with pytest.raises(InvalidRecordError, match="nobody takes"):
        store.add_hand(dec, {"taker": "N", "trick_points": {"N": 100}})


def test_export_import_round_trip(store: SheetStore) -> None:
    sid = store.create("classic-3p", {"three_deal": "six_each"}, target=500,
                       player_names="Ann,Bob,Cy")["id"]
    store.add_hand(sid, {"taker": "E", "trick_points": {"E": 90, "N": 20}, "trick_total": 140,
                         "belote": "S", "declarations": {"N": 20}, "leader": "S"})
    store.add_hand(sid, {"taker": "S", "capot": "defenders",
                         "trick_points": {"N": 100, "E": 130}})
    doc = store.export_json(sid)
    assert doc["players"] == 3 and doc["team_names"] is None
    assert doc["hands"][0]["trick_total"] == 140 and doc["hands"][0]["leader"] == "S"
    again = store.import_json(json.loads(json.dumps(doc)))
    before = store.state(sid)
    assert {k: v for k, v in again.items() if k != "id"} == {
        k: v for k, v in before.items() if k != "id"}
    rows = list(csv.DictReader(io.StringIO(store.export_csv(sid))))
    assert [r["total_S"] for r in rows] == [str(r["S"]) for r in before["running"]]
    assert rows[1]["capot"] == "defenders" and rows[0]["trick_total"] == "140"
    listed = {s["id"]: s for s in store.sheets()}
    assert listed[sid]["hands"] == 2 and listed[sid]["profile"] == "classic-3p"


def test_sheet_checks(store: SheetStore) -> None:
    with pytest.raises(InvalidRecordError, match="each seat scores for itself"):
        store.create("classic-3p", team_names="Us,Them")
    with pytest.raises(InvalidRecordError, match="is played by 3"):
        store.create("classic-3p", players=5)
    with pytest.raises(InvalidRecordError, match="gives 2 names, not 3"):
        store.create("classic-3p", player_names="Ann,Bob")
    sid = store.create("classic-3p")["id"]
    with pytest.raises(InvalidRecordError, match="'NS' is not a seat"):
        store.add_hand(sid, {"taker": "NS", "trick_points": {"NS": 92}})
    with pytest.raises(InvalidRecordError, match="not given here"):
        store.add_hand(sid, {"taker": "N", "trick_points": {"N": 92, "E": 0}, "reserve": 10})
    assert store.history(sid) == []


def test_a_two_team_store_refuses_per_seat_sheets(tmp_path: Path) -> None:
    """A client that shows two teams only (the web pages) opens the store without
    small_tables: it refuses the per-seat sheets instead of misreading them."""
    db = tmp_path / "s.db"
    with SheetStore(db, small_tables=True) as store:
        sid = store.create("classic-3p")["id"]
        store.add_hand(sid, h3("N", N=100, E=31))
        doc = store.export_json(sid)
        with pytest.raises(SheetError, match="scored per seat"):
            store.load(sid)
    with SheetStore(db) as store:
        for profile in ("classic-3p", "classic-2p"):
            with pytest.raises(OptionError, match="scored per seat"):
                store.create(profile)
        with pytest.raises(OptionError, match="scored per seat"):
            store.import_json(doc)
        for action in (store.state, store.load, store.undo, store.export_json):
            with pytest.raises(SheetError, match="scored per seat"):
                action(sid)
        with pytest.raises(BeloteError, match="scored per seat"):
            store.add_hand(sid, h3("N", N=100, E=31))
        assert [s["hands"] for s in store.sheets()] == [1]


def cli(db: Path, *args: str, stdin: str | None = None) -> dict[str, Any]:
    result = runner.invoke(app, ["sheet", *args, "--db", str(db), "--json"], input=stdin)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def test_sheet_commands(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    sid = str(cli(db, "new", "--profile", "classic-3p", "--target", "400",
                  "--player-names", "Ann,Bob,Cy")["id"])
    state = cli(db, "add", sid, stdin=json.dumps(h3("E", E=100, N=31)))
    assert state["totals"] == {"N": 31, "E": 100, "S": 31}
    state = cli(db, "edit", sid, "1", stdin=json.dumps(h3("E", E=60, N=51)))
    assert state["totals"] == {"N": 51 + 30, "E": 0, "S": 51 + 30}
    assert cli(db, "show", sid) == state
    shown = runner.invoke(app, ["sheet", "show", sid, "--db", str(db)])
    assert shown.exit_code == 0 and "Ann (N)" in shown.stdout and "failed" in shown.stdout
    out = tmp_path / "e.json"
    assert runner.invoke(app, ["sheet", "export", sid, "--db", str(db), "--out",
                               str(out)]).exit_code == 0
    again = cli(db, "import", str(out))
    assert again["totals"] == state["totals"] and again["players"] == 3
    assert cli(db, "undo", sid)["hands"] == []
    refused = runner.invoke(app, ["sheet", "new", "--profile", "classic-2p", "--teams", "A,B",
                                  "--db", str(db), "--json"])
    assert refused.exit_code == 2 and refused.stderr.startswith("error: team_names")


@pytest.mark.parametrize("teams", [3, 2.5, "Us,Them", {"NS": "NS", "EW": "EW"}])
def test_import_checks_team_names_with_players(store: SheetStore, teams: Any) -> None:
    doc = {"profile": "classic-3p", "players": 3, "team_names": teams, "hands": []}
    if teams == {"NS": "NS", "EW": "EW"}:  # the default names: an export of any sheet
        assert store.import_json(doc)["players"] == 3
        return
    with pytest.raises(InvalidRecordError, match="team_names"):
        store.import_json(doc)


def test_the_web_pages_refuse_per_seat_sheets_plainly(tmp_path: Path) -> None:
    """The web sheet pages keep two teams for now: a per-seat sheet made on the command
    line is listed, and opening it answers a plain 4xx message, never a 500."""
    from belote.web.app import create_app
    from tests.web.support import TestClient

    db = tmp_path / "s.db"
    with SheetStore(db, small_tables=True) as store:
        sid = store.create("classic-3p", name="Trio")["id"]
        store.add_hand(sid, h3("N", N=100, E=31))
    # the machine owner's sheet: a browser on loopback of a server on loopback
    with TestClient(create_app(db, seed=1, local_owner=True),
                    client=("127.0.0.1", 50000)) as client:
        assert client.get("/sheets").status_code == 200
        for url in (f"/sheets/{sid}", f"/api/sheets/{sid}", f"/sheets/{sid}/export.json"):
            answer = client.get(url)
            assert 400 <= answer.status_code < 500, (url, answer.status_code)
            assert re.search(r"3[- ]player", answer.text), answer.text
