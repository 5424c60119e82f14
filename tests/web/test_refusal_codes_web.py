"""The refusals of the rooms, the score sheets and their forms said from their codes
(docs/json.md, "Refusals of the web app"), never from their English: a WebSocket's
error message and a JSON error carry the code, and rewording every English message
(errors.REFUSAL_ENGLISH) changes nothing a French or English page says."""

from __future__ import annotations

import contextlib
import re
from html import unescape
from types import MappingProxyType
from typing import Any

import pytest

from belote import errors
from belote.errors import Refusal
from tests.web.support import TestClient, new_identity, receive, send, until_state


def _reworded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every English message of the rooms and sheets said in other words."""
    monkeypatch.setattr(errors, "REFUSAL_ENGLISH", MappingProxyType({
        code: f"REWORDED {code}: " + template
        for code, template in errors.REFUSAL_ENGLISH.items()}))


def _error_of(ws: Any) -> dict[str, Any]:
    msg = receive(ws)
    while msg["type"] != "error":
        msg = receive(ws)
    return msg


def _room_refusals(client: TestClient, lang: str) -> dict[str, Any]:
    """A seat taken, a seat that is no seat, an action without a seat (WebSocket), the
    same seat taken through the API (JSON) and a room that does not exist (a page)."""
    r = client.post("/api/rooms", json={"profile": "classic", "bots": "random"})
    room_id, invite = r.json()["id"], r.json()["invite"]
    out: dict[str, Any] = {}
    with contextlib.ExitStack() as stack:
        ann = stack.enter_context(client.websocket_connect(
            f"/ws/rooms/{room_id}", headers={"Accept-Language": lang}))
        new_identity(client)  # Bob's browser
        bob = stack.enter_context(client.websocket_connect(
            f"/ws/rooms/{room_id}", headers={"Accept-Language": lang}))
        for ws in (ann, bob):
            send(ws, {"type": "hello", "invite": invite})
            until_state(ws)
        send(ann, {"type": "join", "seat": "N", "name": "Ann"})
        assert receive(ann)["type"] == "welcome"
        send(bob, {"type": "join", "seat": "N", "name": "Bob"})
        out["taken"] = _error_of(bob)
        send(bob, {"type": "join", "seat": "X"})
        out["no seat"] = _error_of(bob)
        send(bob, {"type": "next"})
        out["seat first"] = _error_of(bob)
    new_identity(client)
    r = client.post(f"/api/rooms/{room_id}/seats", json={"seat": "N", "invite": invite})
    out["api"] = (r.status_code, r.json())
    r = client.get("/rooms/nope", headers={"Accept-Language": lang, "Accept": "text/html"})
    out["page"] = (r.status_code, _form_error(r.text))
    return out


def _form_error(html: str) -> str:
    found = re.search(r'class="form-error"[^>]*>([^<]*)<', html)
    assert found, html
    return unescape(found.group(1)).strip()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_rewording_the_rooms_english_changes_nothing_the_player_reads(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    before = _room_refusals(client, lang)
    assert [before[k]["code"] for k in ("taken", "no seat", "seat first")] == [
        Refusal.SEAT_TAKEN, Refusal.NOT_A_SEAT_WORD, Refusal.TAKE_A_SEAT]
    if lang == "fr":
        assert before["taken"]["message"] == "La place Nord est prise par Ann."
        assert before["page"] == (404, "Cette salle n'existe pas (elle a peut-être fermé).")
    # the JSON API keeps its English, the code beside it
    assert before["api"] == (409, {"error": "seat N is taken by Ann", "code": "seat_taken"})
    _reworded(monkeypatch)
    after = _room_refusals(client, lang)
    status, body = after["api"]
    assert status == 409 and body["error"].startswith("REWORDED seat_taken: ")  # reworded
    for key in ("taken", "no seat", "seat first", "page"):
        assert after[key] == before[key], key


def _sheet_refusals(client: TestClient, lang: str, sheet: str) -> dict[str, Any]:
    """Hands the sheet's form refuses (a page re-rendered with its error, the preview's
    JSON), a hand that is not on the sheet and a sheet that does not exist (pages)."""
    fr = {"Accept-Language": lang}
    sid = sheet.rsplit("/", 1)[1]
    out: dict[str, Any] = {}
    forms = {
        "range": {"taker": "NS", "points_team": "EW", "points": "170"},
        "too many": {"taker": "NS", "points": "90", "decl_team": "NS", "decl_points": "1000"},
        "no points": {"taker": "NS"},
        "whose": {"taker": "NS", "points": "90", "decl_points": "50"},
        "sans-atout": {"taker": "NS", "points": "90", "trump": "SA", "belote": "NS"},
        "carre twice": {"taker": "NS", "points": "90", "decl_NS_carre_J": "1",
                        "decl_EW_carre_J": "1"},
    }
    for name, form in forms.items():
        r = client.post(sheet + "/hands", data=form, headers=fr)
        assert r.status_code == 422, name
        out[name] = _page_error(r.text)
        r = client.post(f"/api/sheets/{sid}/preview", json=form, headers=fr)
        assert r.status_code == 422, name
        out[name + " preview"] = {k: r.json()[k] for k in ("error", "code")}
    r = client.get(f"{sheet}/hands/9/edit", headers={**fr, "Accept": "text/html"})
    out["no hand"] = (r.status_code, _form_error(r.text))
    r = client.get("/sheets/999", headers={**fr, "Accept": "text/html"})
    out["no sheet"] = (r.status_code, _form_error(r.text))
    return out


def _page_error(html: str) -> str:
    """The refusal a sheet's page shows (the form's, or the declarations' field's)."""
    shown = [unescape(m.group(1)).strip() for m in re.finditer(
        r'<(?:div|p) class="(?:form|field)-error"[^>]*>([^<]*)<', html)]
    shown = [s for s in shown if s]
    assert len(shown) == 1, shown
    return shown[0]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_rewording_the_sheets_english_changes_nothing_the_scorer_reads(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    r = client.post("/sheets", data={"profile": "classic", "team_ns": "Nous",
                                     "team_ew": "Eux"}, follow_redirects=False)
    sheet = r.headers["location"]
    before = _sheet_refusals(client, lang, sheet)
    assert before["range preview"]["code"] == Refusal.TRICK_POINTS_RANGE
    assert before["carre twice preview"]["code"] == Refusal.CARRE_TWICE
    assert before["no sheet"][0] == 404 and before["no hand"][0] == 404
    if lang == "fr":
        assert before["range"] == (
            "Eux ne peut pas avoir fait 170 points de plis : les plis d'une donne valent 162 "
            "points en tout (dix de der compris).")
        assert before["no sheet"][1] == "Il n'y a pas de feuille de score numéro 999."
        assert before["carre twice"] == (
            "Il n'y a qu'un carré de valets dans le jeu : on ne peut pas l'annoncer deux fois.")
    _reworded(monkeypatch)
    after = _sheet_refusals(client, lang, sheet)
    assert after == before
    assert not any("REWORDED" in str(v) for v in after.values())
