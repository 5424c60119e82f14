"""The refusals of the requests themselves (a field the server cannot read, a method an
address does not answer to), of a database that cannot be used, of a sheet's import, of
a room's malformed messages and of the live sheet's socket said from their codes
(docs/json.md, "Refusals of the web app"): a JSON answer carries its code beside its
English, a page and a socket's message say it in the page's language, and rewording
every English message (errors.REFUSAL_ENGLISH) changes nothing a page or a socket
says."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from belote.errors import Refusal
from belote.sheets import SheetStore
from belote.web import routes_sheets
from belote.web.pages import SheetAccess
from belote.web.refusals import say_refusal
from belote.web.sheet_live import Follower, SheetLive
from tests.web.support import Table, TestClient, new_sheet, run_async
from tests.web.test_refusal_codes_web import _form_error, _reworded
from tests.web.test_sheet_owners import EVIL, closed_with, refused


def _fails(*_: object, **__: object) -> Any:
    raise sqlite3.OperationalError("disk I/O error")


def _three_player_export(tmp_path: Path) -> str:
    """A sheet of three players as `belote sheet export` writes it."""
    with SheetStore(tmp_path / "cli.db", small_tables=True) as store:
        state = store.create("classic-3p", player_names=["Ann", "Bob", "Cid"], players=3)
        return json.dumps(store.export_json(state["id"]))


def _request_refusals(client: TestClient, lang: str, three: str) -> dict[str, Any]:
    """What the pages (their message) and the JSON API (status and body) answer to a
    request they cannot read, a method they do not answer to and files that cannot be
    imported."""
    page = {"Accept-Language": lang, "Accept": "text/html"}
    out: dict[str, Any] = {}
    r = client.get("/api/sheets/abc", headers=page)
    out["invalid api"] = (r.status_code, r.json())
    r = client.post("/sheets/import", headers=page)  # no file
    out["invalid page"] = (r.status_code, _form_error(r.text))
    r = client.put("/sheets", headers=page)
    out["method page"] = (r.status_code, _form_error(r.text))
    r = client.put("/api/rooms", headers=page)
    out["method api"] = (r.status_code, r.json())
    r = client.post("/sheets", headers={**page, "Content-Type": "multipart/form-data"},
                    content=b"--x\r\n")  # a form Starlette cannot read (no boundary)
    out["unread page"] = (r.status_code, _form_error(r.text))
    for name, text in (("import", '{"format": "nope"}'), ("per seat", three)):
        r = client.post("/sheets/import", headers=page,
                        files={"file": ("x.json", text, "application/json")})
        out[name] = (r.status_code, _form_error(r.text))
    return out


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_requests_the_server_cannot_read_are_refused_by_code(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        lang: str) -> None:
    three = _three_player_export(tmp_path)
    before = _request_refusals(client, lang, three)
    status, body = before["invalid api"]
    assert status == 400 and body["code"] == Refusal.BAD_REQUEST
    assert body["error"].startswith("the request is not valid (path.sheet_id: ")  # pydantic's
    assert before["method api"] == (405, {"error": "Method Not Allowed",
                                          "code": "method_not_allowed"})
    assert before["invalid page"][0] == 400 and before["method page"][0] == 405
    assert before["unread page"][0] == 400
    assert before["import"][0] == before["per seat"][0] == 422
    if lang == "fr":
        assert before["invalid page"][1] == "La requête n'est pas valide (body.file)."
        assert before["method page"][1] == "Cette adresse ne répond pas à la méthode PUT."
        assert before["unread page"][1] == "La requête est refusée (erreur 400)."
        assert before["import"][1] == (
            "Le fichier x.json n'est pas une feuille de score que l'on peut importer (une "
            "feuille exportée par belote).")
        assert before["per seat"][1] == (
            "Une partie à 3 joueurs (classic-3p) se compte par joueur : ces pages tiennent "
            "les feuilles à deux équipes ; la commande belote sheet la tient.")
    else:  # said from the code too, not pydantic's or the record's English
        assert before["invalid page"][1] == "The request is not valid (body.file)."
        assert before["import"][1].startswith("The file x.json is not a score sheet")
        assert before["per seat"][1].startswith("A game of 3 players (classic-3p) is scored")
    _reworded(monkeypatch)
    after = _request_refusals(client, lang, three)
    for key in ("invalid api", "method api"):  # the JSON keeps the (reworded) English
        status, body = after[key]
        assert (status, body["code"]) == (before[key][0], before[key][1]["code"])
        assert body["error"].startswith(f"REWORDED {body['code']}: ")
    for key in ("invalid page", "method page", "unread page", "import", "per seat"):
        assert after[key] == before[key], key


def test_a_database_that_cannot_be_used_is_a_503_by_code(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = new_sheet(client)
    sid = sheet.rsplit("/", 1)[1]
    monkeypatch.setattr(SheetStore, "role", _fails)
    r = client.get(f"/api/sheets/{sid}")
    assert r.status_code == 503
    assert r.json() == {"error": "the database cannot be used right now (disk I/O error); "
                                 "nothing was changed", "code": "database_unavailable"}
    fr = {"Accept-Language": "fr", "Accept": "text/html"}
    r = client.get(sheet, headers=fr)
    said = ("La base de données n'est pas utilisable pour le moment. Rien n'a changé : "
            "réessayez dans un instant.")
    assert r.status_code == 503 and _form_error(r.text) == said
    _reworded(monkeypatch)
    assert client.get(f"/api/sheets/{sid}").json()["error"].startswith("REWORDED ")
    assert _form_error(client.get(sheet, headers=fr).text) == said


def _room_refusals(client: TestClient) -> dict[str, Any]:
    """A call that is no text, a card that names no card, a token that holds no seat:
    the WebSocket's error messages (in French: the sockets ask for it)."""
    client.headers["Accept-Language"] = "fr"
    out: dict[str, Any] = {}
    with Table(client) as table:
        table.start()
        rnd = table.room.round
        assert rnd is not None
        out["call"] = table.act(rnd.current_player(), {"type": "call", "call": 5})
        table.act(rnd.current_player(), {"type": "call", "call": "take"})
        assert rnd.phase == "play"
        out["card"] = table.act(rnd.current_player(), {"type": "play", "card": "ZZ"})
        out["cards"] = table.act(rnd.current_player(), {"type": "play", "card": [1]})
        with client.websocket_connect(f"/ws/rooms/{table.id}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": "x" * 20,
                                     "invite": table.invite}))
            msg = json.loads(ws.receive_text())
            while msg["type"] != "error":
                msg = json.loads(ws.receive_text())
            out["token"] = msg
    return out


def test_a_rooms_malformed_messages_are_refused_by_code(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _room_refusals(client)
    assert [before[k].get("code") for k in ("call", "card", "cards", "token")] == [
        "bad_field", "not_a_card_text", "not_a_card_text", "bad_token"]
    assert before["call"]["message"] == "Le champ call n'est pas valide."
    assert before["card"]["message"] == "« ZZ » n'est pas une carte."
    assert before["token"]["message"] == (
        "Votre jeton ne tient aucune place à cette table : prenez une place.")
    _reworded(monkeypatch)
    after = _room_refusals(client)
    assert after == before


def _socket_refusals(client: TestClient, sid: int, monkeypatch: pytest.MonkeyPatch
                     ) -> dict[str, Any]:
    """Each way the live sheet's socket is closed, as the page (in French) reads it."""
    fr = {"Accept-Language": "fr"}
    out: dict[str, Any] = {}
    out["cross site"] = refused(client, sid, {"type": "follow"}, headers={**fr, "origin": EVIL})
    out["not follow"] = refused(client, sid, {"type": "hello"}, headers=fr)
    out["not an id"] = refused(client, "abc", {"type": "follow"}, headers=fr)  # type: ignore[arg-type]
    with client.websocket_connect(f"/ws/sheets/{sid}", headers=fr) as ws:
        ws.send_text(json.dumps({"type": "follow"}))
        assert json.loads(ws.receive_text())["type"] == "welcome"
        ws.send_text(json.dumps({"type": "follow"}))
        seen, code = closed_with(ws)
        out["ping only"] = (seen[-1], code)
    with monkeypatch.context() as patch:
        patch.setattr(routes_sheets, "MAX_FOLLOWERS", 0)
        out["followers"] = refused(client, sid, {"type": "follow"}, headers=fr)
        patch.setattr(routes_sheets, "HELLO_TIMEOUT_S", 0.3)
        out["no follow"] = refused(client, sid, None, headers=fr)
    return out


def test_the_live_sheets_socket_closes_with_a_code_in_the_pages_language(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    sid = int(new_sheet(client).rsplit("/", 1)[1])
    before = _socket_refusals(client, sid, monkeypatch)
    said = {k: (msg["code"], msg["message"], code) for k, (msg, code) in before.items()}
    assert said == {
        "cross site": ("cross_site", "Refusé : la connexion vient d'un autre site.", 4403),
        "not follow": ("follow_first", 'Le premier message est {"type": "follow"}, avec le '
                       "secret de la feuille ou sans.", 4400),
        "not an id": ("not_a_sheet_id", "« abc » n'est pas un numéro de feuille de score.",
                      4404),
        "ping only": ("ping_only", 'Après le premier message, seul {"type": "ping"} est lu.',
                      4400),
        "followers": ("too_many_followers", "Trop de pages suivent cette feuille de score : "
                      "fermez-en une et rechargez la page.", 4429),
        "no follow": ("no_follow_in_time", "Rien de valable n'a été envoyé en 0.3 s : la "
                      "connexion est fermée.", 4400),
    }
    assert all(msg["fatal"] is True for msg, _ in before.values())
    _reworded(monkeypatch)
    assert _socket_refusals(client, sid, monkeypatch) == before


def test_a_follower_is_told_by_code_that_the_server_stops(db: Path) -> None:
    async def main() -> Follower:
        live = SheetLive(SheetAccess(db))
        follower = Follower(1, None, False)
        live.add(follower, (0, None, None))
        await live.close()
        return follower

    follower = run_async(main)
    assert follower.ended and follower.why is not None
    assert follower.why.refusal is Refusal.SERVER_STOPPING
    assert say_refusal("fr", follower.why) == (
        "Le serveur s'arrête : rechargez la page dans un instant.")


def test_a_message_the_server_fails_on_is_said_by_code(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in handling a message keeps the connection open and says so in the page's
    language, with its code (never Python's words)."""
    client.headers["Accept-Language"] = "fr"
    with Table(client) as table:

        async def broken(*_: object) -> None:
            raise RuntimeError("a bug")

        monkeypatch.setattr(type(table.room), "handle", broken)
        answer = table.act(0, {"type": "ping"})
    assert answer == {"type": "error", "code": "internal_error",
                      "message": "Une erreur est survenue sur le serveur : réessayez."}


def test_the_rooms_store_refuses_by_code(tmp_path: Path) -> None:
    """A move written while the server stops, a write or a read the database fails
    (neither busy): each by its code, said in French without SQLite's English."""
    from belote.web.store import RoomStore, StoreError

    store = RoomStore(tmp_path / "s.db")

    async def write_broken() -> None:
        await store.writer.submit(lambda conn: conn.execute("SELECT * FROM no_such_table"))

    with pytest.raises(StoreError) as failed:
        run_async(write_broken)
    assert failed.value.refusal is Refusal.GAME_NOT_SAVED_ERROR
    assert "no such table" in str(failed.value)  # the English keeps SQLite's detail
    assert say_refusal("fr", failed.value) == (
        "La partie n'a pas pu être enregistrée : la base de données n'est pas utilisable "
        "pour le moment. Rien n'a changé : réessayez dans un instant.")
    store.close()

    async def append() -> None:
        await store.append("r1", 1, "action", "pass")

    with pytest.raises(StoreError) as stopping:
        run_async(append)
    assert stopping.value.refusal is Refusal.GAME_NOT_SAVED_STOPPING
    with pytest.raises(StoreError) as unread:
        store.kept_games(["g1"])
    assert unread.value.refusal is Refusal.STORE_UNREADABLE
    assert str(unread.value).startswith("the history could not be read (")
    assert say_refusal("fr", unread.value) == (
        "La base de données ne peut pas être lue pour le moment : réessayez dans un instant.")


def _option_refusals(client: TestClient) -> dict[str, Any]:
    """A game's profile or option that does not exist or a value it cannot take (the
    API, the forms' pages) and a sheet's field of the wrong form (the preview)."""
    fr = {"Accept-Language": "fr", "Accept": "text/html"}
    out: dict[str, Any] = {}
    for name, body in (("profile", {"profile": "nope"}),
                       ("option", {"profile": "classic", "options": {"zz": 1}}),
                       ("value", {"profile": "classic", "options": {"target": -5}})):
        r = client.post("/api/rooms", json=body)
        out[name + " api"] = (r.status_code, r.json())
    r = client.post("/play", data={"profile": "nope"}, headers=fr)
    out["profile page"] = (r.status_code, _form_error(r.text))
    sid = new_sheet(client).rsplit("/", 1)[1]
    r = client.post(f"/api/sheets/{sid}/preview", headers=fr,
                    json={"taker": "NS", "points": "90", "trump": "ZZ"})
    out["field"] = (r.status_code, r.json())
    return out


def test_a_games_options_and_a_sheets_fields_are_refused_by_code(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _option_refusals(client)
    assert before["profile api"][1]["code"] == "unknown_profile"
    assert before["option api"] == (422, {
        "error": "unknown option 'zz' (see docs/rules.md for the option names)",
        "code": "unknown_option"})
    assert before["value api"] == (422, {
        "error": "option 'target': -5 is not a whole number in 1..1000000",
        "code": "option_value"})
    assert before["profile page"] == (422, "Il n'y a pas de jeu appelé nope : choisissez "
                                      "classic, moroccan, coinche, contree, classic-3p, "
                                      "classic-2p.")
    assert before["field"] == (422, {"error": "Le champ trump n'est pas valide.",
                                     "code": "bad_field"})
    _reworded(monkeypatch)
    after = _option_refusals(client)
    for key in ("profile api", "option api", "value api"):
        assert after[key][1]["code"] == before[key][1]["code"]
        assert "REWORDED " in after[key][1]["error"]  # the English reworded (context kept)
    assert after["profile page"] == before["profile page"]
    assert after["field"] == before["field"]
