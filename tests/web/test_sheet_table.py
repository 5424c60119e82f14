"""The score sheet as a table keeps it (issue 13): declarations entered by name and
compared by the engine's rules (docs/rules.md §7.5), litige and reserve in the rows
(§8.3), the calculation of coinched hands (§9.2), a tie at the target (§11) and the
players named on 5-7 player sheets (§13), in English and French."""

from __future__ import annotations

import csv
import html
import io
import re
from typing import Any

from tests.web.support import TestClient, add_hand, new_sheet, sheet_state


def _page(client: TestClient, sheet: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", client.get(sheet).text))


def test_declarations_by_name_only_the_best_team_scores(client: TestClient) -> None:
    sheet = new_sheet(client)
    page = _page(client, sheet)
    for label in ("tierce", "cinquante", "cent", "carré of jacks", "carré of nines",
                  "carré of aces", "carré of queens"):
        assert label in page
    assert 'name="decl_EW_carre_J"' in page
    form = {"taker": "NS", "points_team": "NS", "points": "90", "decl_NS_tierce": "1",
            "decl_NS_cinquante": "1", "decl_EW_carre_9": "1"}
    r = client.post("/api" + sheet + "/preview", json=form)
    data = r.json()
    assert data["declarations"] == (
        "Us: tierce 20 + cinquante 50 = 70 · Them: carré of nines 150. Best declaration: "
        "carré of nines (Them) over cinquante (Us): Them score 150.")
    # NS 90 + 0 against EW 72 + 150: the takers fail (§8.2)
    assert data["score"]["outcome"] == "failed" and data["score"]["score"]["EW"] == 162 + 150
    assert add_hand(client, sheet, **form).status_code == 303
    hand = sheet_state(client, sheet)["hands"][0]
    assert hand["score"] == {"NS": 0, "EW": 312}
    assert "Them +150 decl." in _page(client, sheet)
    # several of one team, the other none; carrés in sans-atout are not valued here
    r = client.post("/api" + sheet + "/preview", json={
        "taker": "EW", "points_team": "EW", "points": "100", "decl_EW_tierce": "2",
        "decl_EW_carre_J": "1"})
    assert r.json()["declarations"].endswith("Only Them declared: Them score 240.")


def test_equal_declarations_ask_whose_is_higher(client: TestClient) -> None:
    sheet = new_sheet(client)
    form = {"taker": "NS", "points_team": "NS", "points": "100", "decl_NS_tierce": "1",
            "decl_EW_tierce": "1"}
    r = add_hand(client, sheet, **form)
    assert r.status_code == 422
    page = html.unescape(r.text)
    assert "Both teams' best declarations are equal: say whose is higher" in page
    assert 'id="decl-tie" hidden' not in page and 'name="decl_EW_tierce"' in page
    r = client.post("/api" + sheet + "/preview", json={**form, "decl_tie": "EW"})
    assert r.json()["declarations"].endswith(
        "Equal best declarations (tierce each): Them's is higher, Them score 20.")
    r = client.post("/api" + sheet + "/preview", json={**form, "decl_tie": "none"})
    assert r.json()["declarations"].endswith("nobody scores them.")
    assert add_hand(client, sheet, **form, decl_tie="NS").status_code == 303
    assert sheet_state(client, sheet)["hands"][0]["score"] == {"NS": 120, "EW": 62}


def test_declarations_by_name_refused_in_plain_words(client: TestClient) -> None:
    sheet = new_sheet(client)
    base = {"taker": "NS", "points_team": "NS", "points": "100"}
    cases = [
        ({"decl_NS_carre_J": "1", "decl_EW_carre_J": "1"},
         "in the cards: it cannot be declared twice"),
        ({"decl_NS_tierce": "5"}, "cannot hold that many sequences"),
        ({"decl_NS_tierce": "x"}, "enter how many of each kind"),
        ({"decl_NS_tierce": "1", "decl_team": "NS", "decl_points": "20"},
         "by name or as the points won after the comparison, not both"),
    ]
    for extra, words in cases:
        r = add_hand(client, sheet, **base, **extra)
        assert r.status_code == 422 and words in html.unescape(r.text), (extra, r.text[:200])
    assert sheet_state(client, sheet)["hands"] == []


def test_declarations_by_name_in_french(client: TestClient) -> None:
    client.cookies.set("lang", "fr")
    try:
        sheet = new_sheet(client)
        page = _page(client, sheet)
        assert "carré de valets" in page and "carré de neuf" in page
        r = client.post("/api" + sheet + "/preview", json={
            "taker": "NS", "points": "100", "decl_NS_carre_A": "1", "decl_EW_cent": "1"})
        text = r.json()["declarations"]
        assert text.startswith("Us : carré d'as 100 · Them : cent 100."), text
        assert "carré d'as (Us)" in text and "Us marque 100" in text
    finally:
        client.cookies.delete("lang")


def test_litige_and_reserve_in_the_rows(client: TestClient) -> None:
    sheet = new_sheet(client)
    assert add_hand(client, sheet, taker="NS", points_team="NS", points="81").status_code == 303
    assert add_hand(client, sheet, taker="EW", points_team="EW", points="100").status_code == 303
    page = _page(client, sheet)
    assert "litige" in page and "81 in reserve" in page
    assert "+81 from the reserve to Them" in page
    assert sheet_state(client, sheet)["hands"][1]["score"] == {"NS": 62, "EW": 181}


def test_coinched_results_show_their_calculation(client: TestClient) -> None:
    sheet = new_sheet(client, profile="coinche")
    assert add_hand(client, sheet, taker="NS", points_team="NS", points="110", contract="100",
                trump="H", multiplier="2").status_code == 303
    assert add_hand(client, sheet, taker="EW", points_team="EW", points="60", contract="90",
                trump="S", multiplier="4").status_code == 303
    assert add_hand(client, sheet, taker="NS", points_team="NS", points="60",
                contract="80", trump="S").status_code == 303
    hands = sheet_state(client, sheet)["hands"]
    page = _page(client, sheet)
    assert hands[0]["score"]["NS"] == 520 and "(160 + 100) × 2" in page
    assert hands[1]["score"]["NS"] == 1000 and "(160 + 90) × 4" in page
    assert hands[2]["score"]["EW"] == 240 and "160 + 80" in page
    r = client.post("/api" + sheet + "/preview", json={
        "taker": "NS", "points_team": "NS", "points": "110", "contract": "100", "trump": "H",
        "multiplier": "2"})
    assert r.json()["calculation"] == "(160 + 100) × 2"


def test_a_tie_at_the_target_says_a_deciding_hand_is_played(client: TestClient) -> None:
    sheet = new_sheet(client, target="150")
    assert add_hand(client, sheet, taker="NS", points_team="NS", points="100").status_code == 303
    assert add_hand(client, sheet, taker="EW", points_team="EW", points="100").status_code == 303
    state = sheet_state(client, sheet)
    assert state["totals"] == {"NS": 162, "EW": 162} and not state["finished"]
    page = _page(client, sheet)
    assert 'id="deciding-hand"' in page
    assert "Both teams reached 150 with 162 points each: a deciding hand is played" in page
    client.cookies.set("lang", "fr")
    try:
        assert "une donne décisive" in _page(client, sheet)
    finally:
        client.cookies.delete("lang")
    assert add_hand(client, sheet, taker="NS", points_team="NS", points="100").status_code == 303
    assert 'id="deciding-hand"' not in _page(client, sheet)


def test_five_players_rows_say_who_played_and_exports_name_them(client: TestClient) -> None:
    sheet = new_sheet(client, players="5", player_names="Ann, Bob, Cy, Di, Ed", target="300")
    first = sheet_state(client, sheet)["next"]
    assert add_hand(client, sheet, taker="NS", points_team="NS", points="100").status_code == 303
    assert add_hand(client, sheet, taker="EW", points_team="EW", points="100").status_code == 303
    state = sheet_state(client, sheet)
    names = state["player_names"]

    def label(seating: dict[str, Any], k: int) -> str:
        return " & ".join(names[p - 1] for p in seating["teams"][k])

    rows = _page(client, sheet).split('id="hands-table"')[1]
    for seating in state["seatings"]:
        assert label(seating, 0) in rows and label(seating, 1) in rows
    assert f"{label(first, 0)}</div><span class=\"delta\">+100" in rows
    table = list(csv.DictReader(io.StringIO(client.get(sheet + "/export.csv").text)))
    assert set(names) <= set(table[0])
    assert table[0]["team_NS"] == label(first, 0)
    assert table[0]["dealer"] in names and table[0]["out"] in names
    doc = client.get(sheet + "/export.json").json()
    assert doc["player_names"] == names


def test_the_modules_examples() -> None:
    """The examples in the docstrings of the sheet's form, words and pages."""
    import doctest

    from belote.web import forms, present, routes_sheets

    for module in (forms, present, routes_sheets):
        assert doctest.testmod(module).failed == 0, module.__name__
