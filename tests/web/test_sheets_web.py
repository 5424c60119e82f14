"""Score sheet pages and their JSON (TestClient), on the database of `belote sheet`."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from belote.cli import app as cli_app
from belote.sheets import SheetStore
from tests.web.support import TestClient, add_hand, new_sheet, sheet_state


def test_pages_answer_and_use_no_outside_asset(client: TestClient) -> None:
    sheet = new_sheet(client)
    for path in ("/", "/sheets", sheet, "/play", "/rooms", sheet + "/hands/1/edit"):
        r = client.get(path)
        if path.endswith("/edit"):
            assert r.status_code == 404  # no hand yet
            continue
        assert r.status_code == 200, path
        assert r.headers["content-type"].startswith("text/html")
        # Every asset comes from /static: no CDN, nothing fetched elsewhere.
        for ref in re.findall(r'(?:src|href)="([^"]+)"', r.text):
            assert not ref.startswith(("http:", "https:", "//")), (path, ref)
    for asset in ("/static/style.css", "/static/sheet.js", "/static/table.js",
                  "/static/favicon.svg", "/favicon.ico"):
        assert client.get(asset).status_code == 200, asset


def test_a_sheet_from_creation_to_the_winner(client: TestClient, db: Path) -> None:
    """Seed 002: one team's points, the other's worked out; litige reserve to the
    next winner (docs/rules.md §8.4); capot 252 (§5.2); the game ends at the target (§11)."""
    sheet = new_sheet(client, target="500")
    page = client.get(sheet).text
    assert "Friday" in page and "to 500 points" in page and "Us" in page and "Them" in page
    assert add_hand(client, sheet, taker="NS", points_team="NS", points="100").status_code == 303
    assert sheet_state(client, sheet)["totals"] == {"NS": 100, "EW": 62}
    # A tie: the takers' points wait in reserve.
    add_hand(client, sheet, taker="NS", points_team="EW", points="81")
    state = sheet_state(client, sheet)
    assert state["hands"][1]["outcome"] == "litige" and state["reserve"] == 81
    page = client.get(sheet).text
    assert 'id="reserve"' in page and "reserve on" in page
    # EW make it with belote: the reserve goes to them.
    add_hand(client, sheet, taker="EW", points_team="EW", points="90", belote="EW")
    state = sheet_state(client, sheet)
    assert state["hands"][2]["score"] == {"NS": 72, "EW": 90 + 20 + 81}
    assert state["reserve"] == 0
    # A capot by NS with a fifty.
    add_hand(client, sheet, taker="NS", capot="NS", decl_team="NS", decl_points="50")
    assert sheet_state(client, sheet)["hands"][3]["score"] == {"NS": 302, "EW": 0}
    add_hand(client, sheet, taker="NS", points_team="NS", points="120")
    state = sheet_state(client, sheet)
    assert state["finished"] and state["winner"] == "NS"
    page = client.get(sheet).text
    assert 'id="winner"' in page and "Us</strong> won the game" in page
    assert "Game over" in page and 'id="hand-form"' not in page
    assert page.count("<polyline") == 2 and "target 500" in page
    # The same database as `belote sheet`.
    sheet_id = sheet.rsplit("/", 1)[1]
    result = CliRunner().invoke(cli_app, ["sheet", "show", sheet_id, "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["totals"] == state["totals"]
    # A hand after the end is refused (docs/json.md `score game`).
    r = add_hand(client, sheet, taker="EW", points_team="EW", points="100")
    assert r.status_code == 422


def test_a_refused_hand_keeps_the_form_and_says_why(client: TestClient) -> None:
    sheet = new_sheet(client)
    r = add_hand(client, sheet, taker="NS", points_team="EW", points="170", belote="EW",
             decl_team="NS", decl_points="20")
    assert r.status_code == 422
    # in plain words (issue 13): the team named, the rule said, no field name
    assert "cannot have made 170 trick points: the tricks of a hand hold 162 points" in r.text
    assert "trick_points" not in r.text.split("<footer")[0]
    assert 'role="alert"' in r.text
    # Every field comes back as typed.
    assert 'value="170"' in r.text
    assert re.search(r'name="belote" value="EW" checked', r.text)
    assert re.search(r'name="taker" value="NS" checked', r.text)
    assert re.search(r'<option value="EW" selected>Them</option>', r.text)
    assert 'value="20"' in r.text
    assert sheet_state(client, sheet)["hands"] == []
    for fields, message in [
        ({"points": "92"}, "Say which team took."),
        ({"taker": "NS"}, "points: enter one team's trick points"),
        ({"taker": "NS", "points": "abc"}, "“abc” is not a whole number"),
        ({"taker": "NS", "points": "92", "decl_points": "20"}, "declarations: say which team"),
        ({"taker": "XY", "points": "92"}, "Choose one of the two teams, not “XY”."),
    ]:
        r = add_hand(client, sheet, **fields)
        assert r.status_code == 422 and message in html.unescape(r.text), fields
    assert sheet_state(client, sheet)["hands"] == []


def test_undo_and_edit_recompute_everything(client: TestClient) -> None:
    sheet = new_sheet(client)
    add_hand(client, sheet, taker="NS", points_team="NS", points="81")
    add_hand(client, sheet, taker="EW", points_team="EW", points="100")
    # A tie (§8.4): the takers' 81 wait in reserve and go to EW, who make hand 2.
    assert sheet_state(client, sheet)["totals"] == {"NS": 62, "EW": 81 + 100 + 81}
    # Edit hand 1: no longer a tie, so no reserve for hand 2.
    edit = client.get(sheet + "/hands/1/edit")
    assert edit.status_code == 200 and 'value="81"' in edit.text and "Save hand 1" in edit.text
    r = client.post(sheet + "/hands/1", data={"taker": "NS", "points_team": "NS",
                                             "points": "90"}, follow_redirects=False)
    assert r.status_code == 303
    state = sheet_state(client, sheet)
    assert state["totals"] == {"NS": 90 + 62, "EW": 72 + 100} and state["reserve"] == 0
    r = client.post(sheet + "/hands/1", data={"taker": "NS", "points": "900"})
    assert r.status_code == 422 and "cannot have made 900" in r.text and 'value="900"' in r.text
    assert client.get(sheet + "/hands/3/edit").status_code == 404
    r = client.post(sheet + "/undo", follow_redirects=False)
    assert r.status_code == 303
    assert sheet_state(client, sheet)["totals"] == {"NS": 90, "EW": 72}
    client.post(sheet + "/undo")
    r = client.post(sheet + "/undo")
    assert r.status_code == 422 and "has no hand to undo." in r.text
    r = client.post(sheet + "/undo", headers={"Accept-Language": "fr"})
    assert r.status_code == 422 and "n'a pas de donne à annuler." in html.unescape(r.text)


def test_coinche_form_with_contract_and_level(client: TestClient) -> None:
    """docs/rules.md §9.2: a coinched 100 ♥ made by NS with 110 points."""
    sheet = new_sheet(client, profile="coinche")
    page = client.get(sheet).text
    assert 'name="contract"' in page and 'name="multiplier"' in page
    assert '<option value="generale"' in page  # coinche: générale on (§4.8)
    r = add_hand(client, sheet, taker="NS", points_team="NS", points="110", contract="100",
             trump="H", multiplier="2")
    assert r.status_code == 303, r.text
    hand = sheet_state(client, sheet)["hands"][0]
    assert hand["outcome"] == "made"
    assert hand["score"] == {"NS": (160 + 100) * 2, "EW": 0}
    r = add_hand(client, sheet, taker="NS", points_team="NS", points="110")
    assert r.status_code == 422 and "contract: choose the contract" in r.text
    page = client.get(sheet).text
    assert "coinché" in page


def test_export_and_import(client: TestClient, tmp_path: Path) -> None:
    sheet = new_sheet(client, name="Export me")
    add_hand(client, sheet, taker="NS", points_team="NS", points="100", belote="NS")
    r = client.get(sheet + "/export.json")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    doc = r.json()
    assert doc["format"] == "belote-sheet" and doc["name"] == "Export me"
    r = client.get(sheet + "/export.csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert rows[0]["total_NS"] == "120" and rows[0]["total_EW"] == "62"
    r = client.post("/sheets/import", files={"file": ("s.json", json.dumps(doc),
                                                      "application/json")},
                    follow_redirects=False)
    assert r.status_code == 303
    copy = r.headers["location"]
    assert copy != sheet and sheet_state(client, copy)["totals"] == {"NS": 120, "EW": 62}
    r = client.post("/sheets/import", files={"file": ("s.json", "{nope", "application/json")})
    assert r.status_code == 422 and "not a JSON file" in r.text


def test_list_delete_and_errors(client: TestClient, db: Path) -> None:
    sheet = new_sheet(client, name="Keep")
    other = new_sheet(client, name="Drop")
    page = client.get("/sheets").text
    assert "Keep" in page and "Drop" in page
    r = client.post(other + "/delete", follow_redirects=False)
    assert r.status_code == 303
    assert "Drop" not in client.get("/sheets").text
    assert client.get(other).status_code == 404
    assert "no such sheet" in client.get("/sheets/999").text or \
        client.get("/sheets/999").status_code == 404
    assert client.get("/api/sheets/999").json()["error"].startswith("sheet 999")
    r = client.post("/sheets", data={"profile": "bridge"})
    assert r.status_code == 422 and "There is no game called bridge" in html.unescape(r.text)
    r = client.post("/sheets", data={"profile": "classic", "target": "lots", "name": "T"})
    assert r.status_code == 422 and "“lots” is not a whole number" in html.unescape(r.text)
    assert 'value="T"' in r.text
    with SheetStore(db) as store:
        assert [s["name"] for s in store.sheets()] == ["Keep"]
    assert client.get(sheet).status_code == 200


def test_preview_works_out_the_other_team_and_the_score(client: TestClient) -> None:
    sheet = new_sheet(client)
    r = client.post("/api" + sheet + "/preview",
                    json={"taker": "EW", "points_team": "NS", "points": "81"})
    assert r.json() == {
        "trick_points": {"NS": 81, "EW": 81},
        "score": {"outcome": "litige", "totals": {"NS": 81, "EW": 81},
                  "score": {"NS": 81, "EW": 0}, "reserve": 81},
    }
    r = client.post("/api" + sheet + "/preview", json={"taker": "NS", "capot": "EW"})
    assert r.json()["trick_points"] == {"NS": 0, "EW": 252}
    r = client.post("/api" + sheet + "/preview", json={"taker": "NS", "points": "163"})
    assert r.status_code == 422 and "cannot have made 163 trick points" in r.json()["error"]
    r = client.post("/api" + sheet + "/preview", content=b"[1]",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400


def test_a_sheet_for_five_players_shows_standings_and_seatings(client: TestClient) -> None:
    """docs/rules.md §13: the seating changes every hand; players are ranked on their totals."""
    sheet = new_sheet(client, players="5", player_names="Ann, Bob, Cy, Di, Ed", target="300")
    state = sheet_state(client, sheet)
    assert state["players"] == 5 and state["player_names"] == ["Ann", "Bob", "Cy", "Di", "Ed"]
    first = state["next"]
    page = html.unescape(client.get(sheet).text)
    assert 'id="standings"' in page and "<polyline" not in page

    def label(seating: dict[str, Any], k: int) -> str:
        return " & ".join(state["player_names"][p - 1] for p in seating["teams"][k])

    assert f"<b>{label(first, 0)}</b> against <b>{label(first, 1)}</b>" in page
    assert f'<span>{label(first, 0)}</span>' in page  # the form names the hand's teams
    add_hand(client, sheet, taker="NS", points_team="NS", points="100")
    state = sheet_state(client, sheet)
    winners = {state["player_names"][p - 1] for p in first["teams"][0]}
    totals = {s["name"]: s["total"] for s in state["standings"]}
    assert all(totals[name] == 100 for name in winners)
    page = html.unescape(client.get(sheet).text)
    out = ", ".join(state["player_names"][p - 1] for p in first["out"])
    assert f"out: {out}" in page
    r = client.post("/sheets", data={"profile": "classic", "players": "9"})
    assert r.status_code == 422 and "A sheet has 4, 5, 6 or 7 players" in html.unescape(r.text)
